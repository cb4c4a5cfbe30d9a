package geminitest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"time"
)

// embedContent answers an embedContent call with the stand-in's embedding of its content.
func embedContent(w http.ResponseWriter, req request) {
	writeJSON(w, map[string]any{"embedding": map[string]any{"values": Embed(req.Content.text(), req.OutputDimensionality)}})
}

// batchEmbedContents answers a batchEmbedContents call with the embedding of each of its
// requests, in order.
func batchEmbedContents(w http.ResponseWriter, req request) {
	var out []any
	for _, e := range req.Requests {
		out = append(out, map[string]any{"values": Embed(e.Content.text(), e.OutputDimensionality)})
	}
	writeJSON(w, map[string]any{"embeddings": out})
}

// generateContent answers a generateContent call, the nth of its role, with what the
// script replies to it: after the reply's delay (unless the client gives up first), the
// API error the reply asks for, or else the model's answer.
func generateContent(w http.ResponseWriter, r *http.Request, c Call, n int, script Script) {
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
		fault(w, rep)
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
	writeJSON(w, answer(c, rep, text))
}

// statusNames are the API's status names for the HTTP statuses a reply can fault with.
var statusNames = map[int]string{400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"}

// fault answers with the API error a reply asks for, with a message of its own when the
// reply gives none.
func fault(w http.ResponseWriter, rep Reply) {
	msg := rep.Message
	if msg == "" {
		msg = fmt.Sprintf("stand-in fault %d", rep.Status)
	}
	apiError(w, rep.Status, statusNames[rep.Status], msg, rep.RetryDelay)
}

// answer is the generateContent response for a reply whose model text is text: one
// candidate with the reply's parts and finish reason, the token usage (the reply's, or
// else counted from the prompt, its images and the text), and a deprecated model's status.
// A reply with a block reason is answered with prompt feedback and no candidate instead.
func answer(c Call, rep Reply, text string) map[string]any {
	finish := rep.FinishReason
	if finish == "" {
		finish = "STOP"
	}
	in, out := rep.InputTokens, rep.OutputTokens
	if in == 0 {
		in = len(c.Prompt)/4 + c.ImageTokens
	}
	if out == 0 {
		out = len(text)/4 + 1
	}
	if rep.BlockReason != "" {
		return map[string]any{"promptFeedback": map[string]any{"blockReason": rep.BlockReason},
			"usageMetadata": map[string]any{"promptTokenCount": in, "totalTokenCount": in}}
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": replyParts(rep, text)},
			"finishReason": finish,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": in, "candidatesTokenCount": out, "totalTokenCount": in + out},
		"modelVersion":  c.Model,
	}
	if st, ok := retiring[c.Model]; ok {
		resp["modelStatus"] = st
	}
	return resp
}

// replyParts are the parts of the model's content for a reply: its text, unless it is
// empty and the reply makes a function call, then the function call, with its safety
// decision among its arguments and the thought signature the stand-in later asks back.
func replyParts(rep Reply, text string) []any {
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
	return parts
}
