package skills

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"unicode"

	"google.golang.org/genai"
)

// Dims is the size of every skill vector, whichever model made it: one collection holds
// them all, and only vectors of the same model are compared.
const Dims = 768

// Embedder turns a goal template into a vector.
type Embedder interface {
	Embed(ctx context.Context, text string) ([]float32, error)
	// Model names the embedding model; it is recorded with each skill.
	Model() string
}

// Offline is the embedder that needs no model and no download: a hashed bag of the
// template's words, word pairs and character trigrams, normalised. It captures wording:
// templates with the same words in the same order are identical (similarity 1), and small
// changes of wording or word form stay close; it does not capture meaning — a paraphrase
// with other words ("Make a new project" for "Create a project") is far.
type Offline struct{}

// OfflineModel names the offline embedder's vectors.
const OfflineModel = "offline-hash-v1"

// Model implements Embedder.
func (Offline) Model() string { return OfflineModel }

// Embed implements Embedder.
func (Offline) Embed(_ context.Context, text string) ([]float32, error) {
	v := make([]float64, Dims)
	add := func(feature string, weight float64) {
		h := fnv.New64a()
		_, _ = h.Write([]byte(feature))
		x := h.Sum64()
		sign := 1.0
		if x&1 == 1 {
			sign = -1
		}
		v[(x>>1)%Dims] += sign * weight
	}
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '{' && r != '}' && r != '_'
	})
	for i, w := range words {
		add("w:"+w, 1)
		if i > 0 {
			add("b:"+words[i-1]+" "+w, 1)
		}
		r := []rune("^" + w + "$")
		for j := 0; j+3 <= len(r); j++ {
			add("c:"+string(r[j:j+3]), 0.3)
		}
	}
	return normalize(v), nil
}

func normalize(v []float64) []float32 {
	var n float64
	for _, x := range v {
		n += x * x
	}
	out := make([]float32, len(v))
	if n == 0 {
		return out
	}
	n = math.Sqrt(n)
	for i, x := range v {
		out[i] = float32(x / n)
	}
	return out
}

// Gemini embeds with a Gemini embedding model, at Dims dimensions.
type Gemini struct {
	Client *genai.Client
	Name   string
}

// Model implements Embedder.
func (g Gemini) Model() string { return g.Name }

// Embed implements Embedder.
func (g Gemini) Embed(ctx context.Context, text string) ([]float32, error) {
	dims := int32(Dims)
	res, err := g.Client.Models.EmbedContent(ctx, g.Name, genai.Text(text), &genai.EmbedContentConfig{
		OutputDimensionality: &dims, TaskType: "SEMANTIC_SIMILARITY",
	})
	if err != nil {
		return nil, fmt.Errorf("embed with %s: %w", g.Name, err)
	}
	if len(res.Embeddings) == 0 || len(res.Embeddings[0].Values) == 0 {
		return nil, fmt.Errorf("embed with %s: no embedding in the answer", g.Name)
	}
	vals := res.Embeddings[0].Values
	f := make([]float64, len(vals))
	for i, x := range vals {
		f[i] = float64(x)
	}
	if len(f) != Dims {
		return nil, fmt.Errorf("embed with %s: %d dimensions, want %d", g.Name, len(f), Dims)
	}
	return normalize(f), nil
}
