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
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"image"
	_ "image/png" // screenshots
	"io"
	"maps"
	"math"
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

// Model is what models.get answers for a model the stand-in serves.
type Model struct {
	Name        string   `json:"name"`
	BaseModelID string   `json:"baseModelId,omitempty"`
	Version     string   `json:"version,omitempty"`
	DisplayName string   `json:"displayName,omitempty"`
	Description string   `json:"description,omitempty"`
	InputLimit  int      `json:"inputTokenLimit,omitempty"`
	OutputLimit int      `json:"outputTokenLimit,omitempty"`
	Methods     []string `json:"supportedGenerationMethods,omitempty"`
	Thinking    bool     `json:"thinking,omitempty"`
}

// Models is the stand-in's catalogue: the current models, as Google's model list had
// them in November 2026, and deprecated ones the API still answers for. Tests add to it
// with AddModel.
var Models = []Model{
	{Name: "gemini-4-argon", DisplayName: "Gemini 4 Argon", Thinking: true},
	{Name: "gemini-3.8-flash", DisplayName: "Gemini 3.8 Flash", Thinking: true},
	{Name: "gemini-3.6-flash", DisplayName: "Gemini 3.6 Flash", Thinking: true},
	{Name: "gemini-3.5-flash-lite", DisplayName: "Gemini 3.5 Flash-Lite", Thinking: true},
	{Name: "gemini-3.1-flash-lite", DisplayName: "Gemini 3.1 Flash-Lite", Thinking: true},
	{Name: "gemini-3.1-pro-preview", DisplayName: "Gemini 3.1 Pro Preview", Thinking: true},
	{Name: "gemini-2.5-computer-use-preview-10-2025", DisplayName: "Gemini 2.5 Computer Use Preview", Thinking: true},
	{Name: "gemini-2.5-pro", DisplayName: "Gemini 2.5 Pro", Thinking: true},
	{Name: "gemini-2.5-flash", DisplayName: "Gemini 2.5 Flash", Thinking: true},
	{Name: "gemini-embedding-001", DisplayName: "Gemini Embedding 001", Methods: []string{"embedContent", "countTextTokens", "countTokens", "asyncBatchEmbedContent"}},
	{Name: "gemini-embedding-2", DisplayName: "Gemini Embedding 2", Methods: []string{"embedContent", "countTextTokens", "countTokens", "asyncBatchEmbedContent"}},
}

// retiring is the model status the API sends with the answers of deprecated models.
var retiring = map[string]map[string]any{
	"gemini-2.5-pro":   {"modelStage": "DEPRECATED", "retirementTime": "2026-12-01T00:00:00Z", "message": "gemini-2.5-pro is deprecated; use gemini-3.8-flash"},
	"gemini-2.5-flash": {"modelStage": "DEPRECATED", "retirementTime": "2026-12-01T00:00:00Z", "message": "gemini-2.5-flash is deprecated; use gemini-3.5-flash-lite"},
}

// noMinimal are the models that refuse the minimal thinking level.
var noMinimal = []string{"gemini-4-argon", "gemini-3.8-flash", "gemini-3.7-flash", "gemini-3.1-pro-preview"}

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

// notFound is the API's answer for a model it does not serve.
func notFound(w http.ResponseWriter, model string) {
	apiError(w, http.StatusNotFound, "NOT_FOUND", fmt.Sprintf("models/%s is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.", model), 0)
}

func (s *Server) get(w http.ResponseWriter, name string) {
	s.mu.Lock()
	s.gets = append(s.gets, name)
	m, ok := s.models[name]
	s.mu.Unlock()
	if !ok {
		apiError(w, http.StatusNotFound, "NOT_FOUND", fmt.Sprintf("models/%s is not found for API version v1beta", name), 0)
		return
	}
	out := m
	out.Name = "models/" + m.Name
	if out.BaseModelID == "" {
		out.BaseModelID = m.Name
	}
	if out.Version == "" {
		out.Version = "001"
	}
	if out.InputLimit == 0 {
		out.InputLimit, out.OutputLimit = 1048576, 65536
	}
	if out.Methods == nil {
		out.Methods = []string{"generateContent", "countTokens", "createCachedContent", "batchGenerateContent"}
	}
	writeJSON(w, out)
}

var roleLine = regexp.MustCompile(`(?m)^# Role: (\S+)`)

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
	c := Call{Method: m[2], Model: m[1], Body: body, At: time.Now()}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		apiError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "the body is not JSON: "+err.Error(), 0)
		return
	}
	c.System = req.SystemInstruction.text()
	if rm := roleLine.FindStringSubmatch(c.System); rm != nil {
		c.Role = rm[1]
	}
	if g := req.GenerationConfig; g != nil {
		c.Schema = g.ResponseJSONSchema
		if c.Schema == nil {
			c.Schema = g.ResponseSchema
		}
		c.MediaResolution, c.Temperature = g.MediaResolution, g.Temperature
		if g.ThinkingConfig != nil {
			c.ThinkingLevel = g.ThinkingConfig.ThinkingLevel
			if g.ThinkingConfig.ThinkingLevel != "" && g.ThinkingConfig.ThinkingBudget != nil {
				apiError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "thinking_level and thinking_budget cannot both be set", 0)
				return
			}
		}
	}
	if c.ThinkingLevel != "" && !strings.HasPrefix(c.Model, "gemini-3") && !strings.HasPrefix(c.Model, "gemini-4") {
		apiError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "thinking_level is not supported by this model; use thinking_budget", 0)
		return
	}
	if c.ThinkingLevel == "MINIMAL" && slices.Contains(noMinimal, c.Model) {
		apiError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "thinking_level MINIMAL is not supported by "+c.Model, 0)
		return
	}
	for _, t := range req.Tools {
		if t.ComputerUse != nil {
			c.ComputerUse = t.ComputerUse
		}
	}
	if msg := s.readContents(&c, req.Contents); msg != "" {
		apiError(w, http.StatusBadRequest, "INVALID_ARGUMENT", msg, 0)
		return
	}

	s.mu.Lock()
	s.calls = append(s.calls, c)
	s.byRole[c.Role]++
	n, script := s.byRole[c.Role], s.script
	s.mu.Unlock()

	switch c.Method {
	case "embedContent":
		c.Prompt = req.Content.text()
		writeJSON(w, map[string]any{"embedding": map[string]any{"values": Embed(req.Content.text(), req.OutputDimensionality)}})
		return
	case "batchEmbedContents":
		var out []any
		for _, e := range req.Requests {
			out = append(out, map[string]any{"values": Embed(e.Content.text(), e.OutputDimensionality)})
		}
		writeJSON(w, map[string]any{"embeddings": out})
		return
	}
	if script == nil {
		apiError(w, http.StatusInternalServerError, "INTERNAL", "the test gave the stand-in no script", 0)
		return
	}
	rep := script(c, n)
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return
		}
	}
	if rep.Status != 0 && rep.Status != http.StatusOK {
		status := map[int]string{400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"}[rep.Status]
		msg := rep.Message
		if msg == "" {
			msg = fmt.Sprintf("stand-in fault %d", rep.Status)
		}
		apiError(w, rep.Status, status, msg, rep.RetryDelay)
		return
	}
	text := rep.Text
	if rep.JSON != nil {
		b, err := json.Marshal(rep.JSON)
		if err != nil {
			apiError(w, http.StatusInternalServerError, "INTERNAL", "the script's JSON: "+err.Error(), 0)
			return
		}
		text = string(b)
	}
	finish := rep.FinishReason
	if finish == "" {
		finish = "STOP"
	}
	var parts []any
	if text != "" || rep.Call == nil {
		parts = append(parts, map[string]any{"text": text})
	}
	if fc := rep.Call; fc != nil {
		args := maps.Clone(fc.Args)
		if args == nil {
			args = map[string]any{}
		}
		if fc.Safety != nil {
			args["safety_decision"] = fc.Safety
		}
		parts = append(parts, map[string]any{
			"functionCall":     map[string]any{"name": fc.Name, "args": args},
			"thoughtSignature": base64.StdEncoding.EncodeToString([]byte(signature(fc.Name))),
		})
	}
	in, out := rep.InputTokens, rep.OutputTokens
	if in == 0 {
		in = len(c.Prompt)/4 + c.ImageTokens
	}
	if out == 0 {
		out = len(text)/4 + 1
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": parts},
			"finishReason": finish,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": in, "candidatesTokenCount": out, "totalTokenCount": in + out},
		"modelVersion":  c.Model,
	}
	if st, ok := retiring[c.Model]; ok {
		resp["modelStatus"] = st
	}
	if rep.BlockReason != "" {
		resp = map[string]any{"promptFeedback": map[string]any{"blockReason": rep.BlockReason},
			"usageMetadata": map[string]any{"promptTokenCount": in, "totalTokenCount": in}}
	}
	writeJSON(w, resp)
}

// signature is the thought signature the stand-in gives a function call of that name.
func signature(name string) string { return "stand-in signature for " + name }

// readContents fills the call's prompt, images and function responses from the request's
// contents, and says what breaks the API's rules ("" when nothing does): a function call
// sent back without its thought signature, a require_confirmation left unacknowledged.
func (s *Server) readContents(c *Call, contents []content) string {
	var texts []string
	confirm := map[string]bool{} // function calls that needed confirmation, by name
	for _, ct := range contents {
		texts = append(texts, ct.text())
		for _, p := range ct.Parts {
			if p.InlineData != nil {
				img, err := base64.StdEncoding.DecodeString(p.InlineData.Data)
				if err != nil {
					return "inline data is not base64"
				}
				c.Images = append(c.Images, p.InlineData.MimeType)
				c.ImageTokens += ImageTokens(c.Model, c.MediaResolution, img)
			}
			if fc := p.FunctionCall; fc != nil {
				if sig, _ := base64.StdEncoding.DecodeString(p.ThoughtSignature); string(sig) != signature(fc.Name) {
					return fmt.Sprintf("Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly. Please refer to the documentation: the function call %q must be sent back with the signature it came with", fc.Name)
				}
				if sd, ok := fc.Args["safety_decision"].(map[string]any); ok && sd["decision"] == "require_confirmation" {
					confirm[fc.Name] = true
				}
			}
			if fr := p.FunctionResponse; fr != nil {
				f := FunctionResponse{Name: fr.Name, Response: fr.Response}
				for _, fp := range fr.Parts {
					if fp.InlineData != nil {
						img, err := base64.StdEncoding.DecodeString(fp.InlineData.Data)
						if err != nil {
							return "inline data is not base64"
						}
						f.Images = append(f.Images, fp.InlineData.MimeType)
						c.ImageTokens += ImageTokens(c.Model, c.MediaResolution, img)
					}
				}
				if confirm[fr.Name] && !f.Acknowledged() {
					return fmt.Sprintf("the function call %q required confirmation: its function response must carry safety_acknowledgement", fr.Name)
				}
				delete(confirm, fr.Name)
				c.FunctionResponses = append(c.FunctionResponses, f)
			}
		}
	}
	c.Prompt = strings.Join(texts, "\n")
	return ""
}

// ImageTokens is what an image costs in input tokens, as Google documents it. Gemini 3
// and later models charge by the media resolution asked for: 280 tokens at low, 560 at medium and
// 1120 at high, which is the default for images. Older models charge 258 tokens per
// 768×768 tile (one tile for an image of at most 384 pixels a side), and 64 at low.
func ImageTokens(model, resolution string, img []byte) int {
	if strings.HasPrefix(model, "gemini-3") || strings.HasPrefix(model, "gemini-4") {
		switch resolution {
		case "MEDIA_RESOLUTION_LOW":
			return 280
		case "MEDIA_RESOLUTION_MEDIUM":
			return 560
		default:
			return 1120
		}
	}
	if resolution == "MEDIA_RESOLUTION_LOW" {
		return 64
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(img))
	if err != nil || (cfg.Width <= 384 && cfg.Height <= 384) {
		return 258
	}
	return 258 * ((cfg.Width + 767) / 768) * ((cfg.Height + 767) / 768)
}

type inline struct {
	MimeType string `json:"mimeType"`
	Data     string `json:"data"`
}

type part struct {
	Text         string  `json:"text"`
	InlineData   *inline `json:"inlineData"`
	FunctionCall *struct {
		Name string         `json:"name"`
		Args map[string]any `json:"args"`
	} `json:"functionCall"`
	ThoughtSignature string `json:"thoughtSignature"`
	FunctionResponse *struct {
		Name     string         `json:"name"`
		Response map[string]any `json:"response"`
		Parts    []struct {
			InlineData *inline `json:"inlineData"`
		} `json:"parts"`
	} `json:"functionResponse"`
}

type content struct {
	Role  string `json:"role"`
	Parts []part `json:"parts"`
}

func (c content) text() string {
	var ts []string
	for _, p := range c.Parts {
		if p.Text != "" {
			ts = append(ts, p.Text)
		}
	}
	return strings.Join(ts, "\n")
}

type request struct {
	Contents          []content `json:"contents"`
	SystemInstruction content   `json:"systemInstruction"`
	GenerationConfig  *struct {
		ResponseSchema     map[string]any `json:"responseSchema"`
		ResponseJSONSchema map[string]any `json:"responseJsonSchema"`
		MediaResolution    string         `json:"mediaResolution"`
		Temperature        *float64       `json:"temperature"`
		ThinkingConfig     *struct {
			ThinkingLevel  string `json:"thinkingLevel"`
			ThinkingBudget *int   `json:"thinkingBudget"`
		} `json:"thinkingConfig"`
	} `json:"generationConfig"`
	Tools []struct {
		ComputerUse *ComputerUseTool `json:"computerUse"`
	} `json:"tools"`
	Content              content `json:"content"`
	OutputDimensionality int     `json:"outputDimensionality"`
	Requests             []struct {
		Content              content `json:"content"`
		OutputDimensionality int     `json:"outputDimensionality"`
	} `json:"requests"`
}

func apiError(w http.ResponseWriter, code int, status, msg string, retry time.Duration) {
	e := map[string]any{"code": code, "message": msg, "status": status}
	if retry > 0 {
		e["details"] = []any{map[string]any{
			"@type":      "type.googleapis.com/google.rpc.RetryInfo",
			"retryDelay": fmt.Sprintf("%.3fs", retry.Seconds()),
		}}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": e})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// EmbedDims is the size of the stand-in's embeddings when a request does not ask for one.
const EmbedDims = 768

// Embed is the stand-in's embedding: a normalised bag of hashed lower-case words, so that
// texts with the same words are close and the answer is the same every time.
func Embed(text string, dims int) []float64 {
	if dims <= 0 {
		dims = EmbedDims
	}
	v := make([]float64, dims)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		h := fnv.New32a()
		_, _ = h.Write([]byte(w))
		v[int(h.Sum32())%dims]++
	}
	var n float64
	for _, x := range v {
		n += x * x
	}
	if n > 0 {
		n = math.Sqrt(n)
		for i := range v {
			v[i] /= n
		}
	}
	return v
}
