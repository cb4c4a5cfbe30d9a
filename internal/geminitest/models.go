package geminitest

import (
	"fmt"
	"net/http"
)

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
