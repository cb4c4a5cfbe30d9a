package geminitest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"image"
	"math"
	"net/http"
	"strings"
	"time"
)

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
