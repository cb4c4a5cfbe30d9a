package noise

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/webagent-dev/webagent/internal/geminitest"
)

// Kind is one way a model errs.
type Kind string

// The kinds of noise, by the role they apply to.
const (
	// decider
	WrongElement  Kind = "wrong_element"      // a plausible wrong element: the same name in another row, or a similar name
	OutOfRange    Kind = "index_out_of_range" // an element number the list does not have
	UnknownAction Kind = "unknown_action"     // an action the schema does not offer
	SelectorPick  Kind = "selector_pick"      // a CSS selector instead of an element number
	FailUnchanged Kind = "fail_unchanged"     // "not there, nothing changed" while the target is on the page
	// computer_use (the tool), besides wrong_element as a point
	CUNeighbour Kind = "cu_neighbour_row" // the point on the same element in the neighbouring row
	// evaluator
	FalseVeto   Kind = "false_veto"   // a good attempt judged wrong, confidently and specifically
	LenientPass Kind = "lenient_pass" // a bad attempt judged good
	// validator (the judge)
	LenientJudge Kind = "lenient_judge" // the goal said reached when it is not
	UnsureJudge  Kind = "unsure_judge"  // the right verdict at confidence 0.4
	// planner and replanner
	WrongRow       Kind = "wrong_row"       // a target in another project's row
	SimilarWrong   Kind = "similar_wrong"   // the step that opens the menu left out: "Archive" lands on the "Archived" tab
	RepeatFailed   Kind = "repeat_failed"   // a replan that repeats the failed step unchanged
	SelectorTarget Kind = "selector_target" // a CSS selector as a target
	// extractor
	NotOnPage Kind = "value_not_on_page" // a value the page does not show
	// any role
	CutJSON     Kind = "cut_json" // the answer cut off halfway
	Unavailable Kind = "http_503"
	RateLimited Kind = "http_429"
)

// Perturbation is one answer the noise changed.
type Perturbation struct {
	Role string
	// N counts the calls of the role in the run, from 1.
	N    int
	Kind Kind
}

// Answer is one answer the stand-in gave: the prompt it answered, and the text (or the
// HTTP status) it answered with.
type Answer struct {
	Role   string
	N      int
	Prompt string
	Text   string
	Status int
	Kind   Kind
	// In and Out are the tokens the stand-in reported for it (geminitest.ReplyTokens).
	In, Out int
}

// Record is what a noisy script did in one run: every answer, the perturbed ones marked,
// and what the stand-in reported they cost.
type Record struct {
	mu  sync.Mutex
	all []Answer
}

// Perturbed are the answers the noise changed, in order.
func (r *Record) Perturbed() []Perturbation {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Perturbation
	for _, a := range r.all {
		if a.Kind != "" {
			out = append(out, Perturbation{a.Role, a.N, a.Kind})
		}
	}
	return out
}

// Usage is what the stand-in served: generateContent calls (failed ones included) and
// the tokens it reported.
func (r *Record) Usage() (calls, tokens int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, a := range r.all {
		calls++
		tokens += a.In + a.Out
	}
	return calls, tokens
}

func (r *Record) answers(role string) []Answer {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Answer
	for _, a := range r.all {
		if a.Role == role {
			out = append(out, a)
		}
	}
	slices.Reverse(out) // the latest first
	return out
}

func (r *Record) add(a Answer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.all = append(r.all, a)
}

// Counting is a script that records every answer and its cost, perturbing none: the
// noise-free level, and the live runs' bookkeeping.
func Counting(truth geminitest.Script) (geminitest.Script, *Record) {
	return Noisy(truth, 0, 0)
}

// Noisy perturbs truth's answers: each call, with probability rate, answers with a kind
// of noise drawn from those that apply to its role (and to the answer: a false veto only
// of a good attempt). The draws are seeded per role, so a run's perturbations are the
// same for the same seed and the same order of calls of each role.
func Noisy(truth geminitest.Script, rate float64, seed int64) (geminitest.Script, *Record) {
	return NoisyOn(truth, nil, rate, seed)
}

// NoisyOn is Noisy for a model that may also be asked as the computer-use tool: screen,
// when set, is the page the tool sees, for the kinds that move its point to another
// element (cu_neighbour_row, wrong_element). Without it only the kinds of every role
// apply to the tool.
func NoisyOn(truth geminitest.Script, screen func() Screen, rate float64, seed int64) (geminitest.Script, *Record) {
	rec := &Record{}
	var mu sync.Mutex
	rngs := map[string]*rand.Rand{}
	counts := map[string]int{}
	draw := func(role string) (int, float64, float64, float64) {
		mu.Lock()
		defer mu.Unlock()
		r, ok := rngs[role]
		if !ok {
			h := fnv.New64a()
			h.Write([]byte(role))
			r = rand.New(rand.NewSource(seed*1_000_003 + int64(h.Sum64()>>1)))
			rngs[role] = r
		}
		counts[role]++
		return counts[role], r.Float64(), r.Float64(), r.Float64()
	}
	script := func(c geminitest.Call, _ int) geminitest.Reply {
		n, u, pick, aux := draw(c.Role)
		rep := truth(c, n)
		var kind Kind
		if u < rate {
			var scr *Screen
			if screen != nil && c.Role == "computer_use" {
				s := screen()
				scr = &s
			}
			if kinds := applicable(c, rep, scr); len(kinds) > 0 {
				kind = kinds[int(pick*float64(len(kinds)))%len(kinds)]
				rep = perturb(kind, c, rep, aux, scr)
			}
		}
		in, out := geminitest.ReplyTokens(c, rep)
		rec.add(Answer{Role: c.Role, N: n, Prompt: c.Prompt, Text: geminitest.ReplyText(rep), Status: rep.Status, Kind: kind, In: in, Out: out})
		return rep
	}
	return script, rec
}

func truthJSON(rep geminitest.Reply) map[string]any {
	var m map[string]any
	_ = json.Unmarshal([]byte(geminitest.ReplyText(rep)), &m)
	return m
}

// applicable are the kinds of noise that apply to a call whose true answer is rep.
func applicable(c geminitest.Call, rep geminitest.Reply, scr *Screen) []Kind {
	if rep.Status != 0 {
		return nil
	}
	t := truthJSON(rep)
	all := []Kind{CutJSON, Unavailable, RateLimited}
	switch c.Role {
	case "decider":
		ks := []Kind{OutOfRange, UnknownAction, SelectorPick}
		if _, ok := wrongElement(c.Prompt, t, 0); ok {
			ks = append(ks, WrongElement)
		}
		if t["action"] == "element" {
			ks = append(ks, FailUnchanged)
		}
		return append(ks, all...)
	case "computer_use":
		var ks []Kind
		if scr != nil && rep.Call != nil {
			if _, ok := neighbourRow(*scr, rep.Call, 0); ok {
				ks = append(ks, CUNeighbour)
			}
			if _, ok := wrongPoint(*scr, c.Prompt, rep.Call, 0); ok {
				ks = append(ks, WrongElement)
			}
		}
		return append(ks, all...)
	case "evaluator":
		if t["success"] == true {
			return append([]Kind{FalseVeto}, all...)
		}
		return append([]Kind{LenientPass}, all...)
	case "validator":
		ks := []Kind{UnsureJudge}
		if t["success"] != true {
			ks = append(ks, LenientJudge)
		}
		return append(ks, all...)
	case "planner", "replanner":
		var ks []Kind
		steps, _ := t["steps"].([]any)
		if len(steps) > 0 {
			ks = append(ks, SelectorTarget)
		}
		if slices.ContainsFunc(steps, func(s any) bool { return rowOf(s) != "" }) {
			ks = append(ks, WrongRow)
		}
		if slices.ContainsFunc(steps, func(s any) bool { return opensMenu(s) }) {
			ks = append(ks, SimilarWrong)
		}
		if c.Role == "replanner" {
			ks = append(ks, RepeatFailed)
		}
		return append(ks, all...)
	case "extractor":
		return append([]Kind{NotOnPage}, all...)
	}
	return all
}

// perturb is the answer of the given kind in place of rep.
func perturb(kind Kind, c geminitest.Call, rep geminitest.Reply, aux float64, scr *Screen) geminitest.Reply {
	t := truthJSON(rep)
	if c.Role == "computer_use" && rep.Call != nil {
		switch kind {
		case CutJSON:
			return cutCall(rep.Call)
		case CUNeighbour:
			e, _ := neighbourRow(*scr, rep.Call, aux)
			return pointAt(*scr, rep.Call, e)
		case WrongElement:
			e, _ := wrongPoint(*scr, c.Prompt, rep.Call, aux)
			return pointAt(*scr, rep.Call, e)
		}
	}
	switch kind {
	case Unavailable:
		return geminitest.Reply{Status: http.StatusServiceUnavailable, Message: "The model is overloaded. Please try again later."}
	case RateLimited:
		return geminitest.Reply{Status: http.StatusTooManyRequests, Message: "Resource has been exhausted (e.g. check quota).", RetryDelay: time.Second}
	case CutJSON:
		text := geminitest.ReplyText(rep)
		return geminitest.Reply{Text: text[:len(text)/2]}
	case WrongElement:
		e, _ := wrongElement(c.Prompt, t, aux)
		return geminitest.Reply{JSON: map[string]any{"action": "element", "element": e.Index, "confidence": 0.85,
			"reason": fmt.Sprintf("element %d is %s %q%s", e.Index, e.Role, e.Name, inRow(e.Row))}}
	case OutOfRange:
		return geminitest.Reply{JSON: map[string]any{"action": "element", "element": len(ParsePage(c.Prompt).Elems) + 3, "confidence": 0.8, "reason": "that one"}}
	case UnknownAction:
		t["action"] = "click"
		return geminitest.Reply{JSON: t}
	case SelectorPick:
		return geminitest.Reply{JSON: map[string]any{"action": "element", "selector": "tr:nth-child(2) button.kebab", "confidence": 0.8, "reason": "the row's menu button"}}
	case FailUnchanged:
		return geminitest.Reply{JSON: map[string]any{"action": "fail", "confidence": 0.8, "reason": "the page has not changed and the target is not on it",
			"visible_alternatives": []string{}, "suggestion": "wait for the page to load"}}
	case FalseVeto:
		return geminitest.Reply{JSON: map[string]any{"success": false, "confidence": 0.9, "reasoning": "the attempt acted on the wrong element",
			"feedback": map[string]any{"type": "wrong_element", "details": "it acted on the wrong element: the one the step means is another, in another row", "suggestion": "choose a different element"}}}
	case LenientPass:
		return geminitest.Reply{JSON: map[string]any{"success": true, "confidence": 0.9, "reasoning": "the step looks done"}}
	case LenientJudge:
		return geminitest.Reply{JSON: map[string]any{"success": true, "confidence": 0.9, "reason": "the goal looks reached"}}
	case UnsureJudge:
		t["confidence"] = 0.4
		t["reason"] = "hard to tell from the page"
		return geminitest.Reply{JSON: t}
	case NotOnPage:
		return geminitest.Reply{JSON: map[string]any{"value": "Urgent"}}
	case WrongRow, SimilarWrong, SelectorTarget:
		steps, _ := t["steps"].([]any)
		t["steps"] = perturbSteps(kind, steps, aux)
		return geminitest.Reply{JSON: t}
	case RepeatFailed:
		t["strategy"] = "retry_differently"
		t["steps"] = repeatFailed(c.Prompt)
		return geminitest.Reply{JSON: t}
	}
	return rep
}
