// Package geminitest is a stand-in for the Gemini API for tests: a server on 127.0.0.1
// that speaks the same REST API (generateContent, embedContent, batchEmbedContents), so
// that the tests exercise the real google.golang.org/genai client. It answers from a
// script given per test, records every request for assertions, and injects faults on
// demand: an HTTP error, a 429 with a retry delay, malformed JSON, a slow answer.
package geminitest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
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
	Body   []byte
	At     time.Time
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
	srv    *httptest.Server
}

var modelPath = regexp.MustCompile(`^/v1beta/models/([^/:]+):(generateContent|embedContent|batchEmbedContents)$`)

// New starts a stand-in that answers with script; it is closed when the test ends.
func New(t testing.TB, script Script) *Server {
	s := &Server{script: script, byRole: map[string]int{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
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
	s.calls, s.byRole = nil, map[string]int{}
}

var roleLine = regexp.MustCompile(`(?m)^# Role: (\S+)`)

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	m := modelPath.FindStringSubmatch(r.URL.Path)
	if r.Method != http.MethodPost || m == nil {
		apiError(w, http.StatusNotFound, "NOT_FOUND", fmt.Sprintf("the stand-in does not serve %s %s", r.Method, r.URL.Path), 0)
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
	var texts []string
	for _, ct := range req.Contents {
		texts = append(texts, ct.text())
		for _, p := range ct.Parts {
			if p.InlineData != nil {
				c.Images = append(c.Images, p.InlineData.MimeType)
				if _, err := base64.StdEncoding.DecodeString(p.InlineData.Data); err != nil {
					apiError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "inline data is not base64", 0)
					return
				}
			}
		}
	}
	c.Prompt = strings.Join(texts, "\n")
	if req.GenerationConfig != nil {
		c.Schema = req.GenerationConfig.ResponseJSONSchema
		if c.Schema == nil {
			c.Schema = req.GenerationConfig.ResponseSchema
		}
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
		status := map[int]string{400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"}[rep.Status]
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
	in, out := rep.InputTokens, rep.OutputTokens
	if in == 0 {
		in = len(c.Prompt)/4 + 258*len(c.Images)
	}
	if out == 0 {
		out = len(text)/4 + 1
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{map[string]any{"text": text}}},
			"finishReason": finish,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": in, "candidatesTokenCount": out, "totalTokenCount": in + out},
		"modelVersion":  c.Model,
	}
	if rep.BlockReason != "" {
		resp = map[string]any{"promptFeedback": map[string]any{"blockReason": rep.BlockReason},
			"usageMetadata": map[string]any{"promptTokenCount": in, "totalTokenCount": in}}
	}
	writeJSON(w, resp)
}

type part struct {
	Text       string `json:"text"`
	InlineData *struct {
		MimeType string `json:"mimeType"`
		Data     string `json:"data"`
	} `json:"inlineData"`
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
	} `json:"generationConfig"`
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
