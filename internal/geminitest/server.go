// Package geminitest is a stand-in for the Gemini API for tests: a server on 127.0.0.1
// that speaks the same REST API (generateContent, embedContent, batchEmbedContents,
// models.get), so that the tests exercise the real google.golang.org/genai client. It
// answers from a script given per test, records every request for assertions, and injects
// faults on demand: an HTTP error, a 429 with a retry delay, malformed JSON, a slow answer.
//
// It keeps the rules of the real API that the agent must follow: a model it does not list
// is a 404; a function call answered in a later turn must carry the thought signature it
// was sent with; a function call that carried a require_confirmation safety decision must
// be answered with a safety acknowledgement. It counts an image's tokens by the media
// resolution the request asked for, as the API documents it.
package geminitest

import (
	"encoding/json"
	"fmt"
	_ "image/png" // screenshots
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Call is one request the stand-in received.
type Call struct {
	// Method is generateContent, embedContent or batchEmbedContents.
	Method string
	Model  string
	// Role is the prompt's role, read from the "# Role: <name>" line that opens every
	// system instruction of the agent's prompts ("planner", "decider", ...).
	Role   string
	System string
	// Prompt is the text of every part of every content, joined by new lines.
	Prompt string
	// Images are the inline images attached, as their MIME types.
	Images []string
	// Schema is the response schema the request asked for, if any.
	Schema map[string]any
	// ThinkingLevel and MediaResolution are the generation config's, as sent ("" when
	// not); Temperature is nil when the request left it to the model.
	ThinkingLevel   string
	MediaResolution string
	Temperature     *float64
	// ComputerUse is the computer-use tool, when the request enabled it.
	ComputerUse *ComputerUseTool
	// FunctionResponses are the function responses the request sends back, in order.
	FunctionResponses []FunctionResponse
	// ImageTokens is what the stand-in counted for the request's images.
	ImageTokens int
	Body        []byte
	At          time.Time
}

// ComputerUseTool is the computer-use tool as a request enabled it.
type ComputerUseTool struct {
	Environment string   `json:"environment"`
	Excluded    []string `json:"excludedPredefinedFunctions"`
	// InjectionDetection is the request's enablePromptInjectionDetection.
	InjectionDetection bool `json:"enablePromptInjectionDetection"`
}

// FunctionCall is a function call the stand-in answers with. Args are the function's
// arguments; Safety, when set, is added to them as the "safety_decision" argument.
type FunctionCall struct {
	Name   string
	Args   map[string]any
	Safety *SafetyDecision
}

// SafetyDecision is the computer-use tool's verdict on an action.
type SafetyDecision struct {
	Decision    string `json:"decision"` // "require_confirmation" or "regular"
	Explanation string `json:"explanation"`
}

// FunctionResponse is a function response a request sent.
type FunctionResponse struct {
	Name     string         `json:"name"`
	Response map[string]any `json:"response"`
	// Images are the MIME types of the inline images in its parts.
	Images []string `json:"-"`
}

// Acknowledged reports whether the response acknowledges a safety decision.
func (f FunctionResponse) Acknowledged() bool {
	v, ok := f.Response["safety_acknowledgement"]
	return ok && (v == "true" || v == true)
}

// Reply is what the stand-in answers to a generateContent call.
type Reply struct {
	// JSON is marshalled as the model's text; Text is sent as is when JSON is nil.
	JSON any
	Text string
	// Status, when not 0 or 200, answers with an API error of that status.
	Status  int
	Message string
	// RetryDelay goes into a 429's RetryInfo detail.
	RetryDelay time.Duration
	// Delay is waited before answering.
	Delay time.Duration
	// Call answers with a function call (with Text, if any, before it).
	Call *FunctionCall
	// FinishReason defaults to STOP; BlockReason sets the prompt feedback's block reason.
	FinishReason string
	BlockReason  string
	InputTokens  int
	OutputTokens int
}

// Script decides the reply to each generateContent call; n counts the calls of the same
// role so far, from 1.
type Script func(c Call, n int) Reply

// Server is a running stand-in.
type Server struct {
	URL string

	mu     sync.Mutex
	script Script
	calls  []Call
	byRole map[string]int
	models map[string]Model
	gets   []string
	srv    *httptest.Server
}

var modelPath = regexp.MustCompile(`^/v1beta/models/([^/:]+):(generateContent|embedContent|batchEmbedContents)$`)
var getPath = regexp.MustCompile(`^/v1beta/models/([^/:]+)$`)

// New starts a stand-in that answers with script; it is closed when the test ends.
func New(t testing.TB, script Script) *Server {
	s := &Server{script: script, byRole: map[string]int{}, models: map[string]Model{}}
	for _, m := range Models {
		s.AddModel(m)
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// AddModel adds a model to the ones the stand-in serves, or replaces one.
func (s *Server) AddModel(m Model) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m.Name = strings.TrimPrefix(m.Name, "models/")
	s.models[m.Name] = m
}

// Gets returns the models models.get was asked for, in order.
func (s *Server) Gets() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.gets)
}

// SetScript replaces the script.
func (s *Server) SetScript(script Script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = script
}

// Calls returns the generateContent calls of a role ("" for all calls of every method).
func (s *Server) Calls(role string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Call
	for _, c := range s.calls {
		if role == "" || (c.Method == "generateContent" && c.Role == role) {
			out = append(out, c)
		}
	}
	return out
}

// Reset forgets the recorded calls.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls, s.byRole, s.gets = nil, map[string]int{}, nil
}

var roleLine = regexp.MustCompile(`(?m)^# Role: (\S+)`)

// serve routes a request to models.get or to a model method, after the checks every model
// method shares: a model the stand-in serves and a request the API would take. It records
// each call it lets through before answering it.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if g := getPath.FindStringSubmatch(r.URL.Path); g != nil && r.Method == http.MethodGet {
		s.get(w, g[1])
		return
	}
	m := modelPath.FindStringSubmatch(r.URL.Path)
	if r.Method != http.MethodPost || m == nil {
		apiError(w, http.StatusNotFound, "NOT_FOUND", fmt.Sprintf("the stand-in does not serve %s %s", r.Method, r.URL.Path), 0)
		return
	}
	s.mu.Lock()
	_, known := s.models[m[1]]
	s.mu.Unlock()
	if !known {
		notFound(w, m[1])
		return
	}
	body, _ := io.ReadAll(r.Body)
	c, req, msg := s.readCall(m[2], m[1], body)
	if msg != "" {
		apiError(w, http.StatusBadRequest, "INVALID_ARGUMENT", msg, 0)
		return
	}
	n, script := s.record(c)
	switch c.Method {
	case "embedContent":
		embedContent(w, req)
	case "batchEmbedContents":
		batchEmbedContents(w, req)
	default:
		generateContent(w, r, c, n, script)
	}
}

// readCall reads a model method's request body into the call the stand-in records, and
// says what the API would refuse in it ("" when nothing): a body that is not JSON, a
// thinking config the model does not take, contents that break the rules readContents
// checks.
func (s *Server) readCall(method, model string, body []byte) (Call, request, string) {
	c := Call{Method: method, Model: model, Body: body, At: time.Now()}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		return c, req, "the body is not JSON: " + err.Error()
	}
	c.System = req.SystemInstruction.text()
	if rm := roleLine.FindStringSubmatch(c.System); rm != nil {
		c.Role = rm[1]
	}
	if msg := readGenerationConfig(&c, req); msg != "" {
		return c, req, msg
	}
	for _, t := range req.Tools {
		if t.ComputerUse != nil {
			c.ComputerUse = t.ComputerUse
		}
	}
	return c, req, s.readContents(&c, req.Contents)
}

// readGenerationConfig fills the call's schema, media resolution, temperature and
// thinking level from the request's generation config, and says what the API would refuse
// in it ("" when nothing): a thinking level together with a thinking budget, a thinking
// level on a model older than Gemini 3, the minimal level on a model that refuses it.
func readGenerationConfig(c *Call, req request) string {
	if g := req.GenerationConfig; g != nil {
		c.Schema = g.ResponseJSONSchema
		if c.Schema == nil {
			c.Schema = g.ResponseSchema
		}
		c.MediaResolution, c.Temperature = g.MediaResolution, g.Temperature
		if g.ThinkingConfig != nil {
			c.ThinkingLevel = g.ThinkingConfig.ThinkingLevel
			if g.ThinkingConfig.ThinkingLevel != "" && g.ThinkingConfig.ThinkingBudget != nil {
				return "thinking_level and thinking_budget cannot both be set"
			}
		}
	}
	if c.ThinkingLevel != "" && !strings.HasPrefix(c.Model, "gemini-3") && !strings.HasPrefix(c.Model, "gemini-4") {
		return "thinking_level is not supported by this model; use thinking_budget"
	}
	if c.ThinkingLevel == "MINIMAL" && slices.Contains(noMinimal, c.Model) {
		return "thinking_level MINIMAL is not supported by " + c.Model
	}
	return ""
}

// record adds the call to the recorded ones, and returns how many calls of its role there
// have been, counting it, and the script that is to answer it.
func (s *Server) record(c Call) (int, Script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, c)
	s.byRole[c.Role]++
	return s.byRole[c.Role], s.script
}
