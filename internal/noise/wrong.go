package noise

// The wrong answers the noise gives in place of the true ones: plausible wrong elements,
// plans that go wrong in the ways plans do.

import (
	"regexp"
	"strings"
)

var rowIn = regexp.MustCompile(`in the row "([^"]*)"`)

func target(s any) string {
	m, _ := s.(map[string]any)
	t, _ := m["target_description"].(string)
	return t
}

func rowOf(s any) string {
	if m := rowIn.FindStringSubmatch(target(s)); m != nil {
		return m[1]
	}
	return ""
}

func opensMenu(s any) bool { return strings.Contains(target(s), `"Project actions"`) }

// neighbours are the other projects a row may be confused with.
var neighbours = map[string][]string{
	"Q4-bugs":          {"Q4-bugs-old", "Website relaunch"},
	"Website relaunch": {"Q4-bugs"},
	"Q4-bugs-old":      {"Q4-bugs"},
}

// wrongElement is a plausible wrong element for a decider whose true answer is t: the
// same name in another row, or an element of a similar name ("Archived" for "Archive").
func wrongElement(prompt string, t map[string]any, aux float64) (Elem, bool) {
	p := ParsePage(prompt)
	var right *Elem
	if i, ok := t["element"].(float64); ok {
		for _, e := range p.Elems {
			if e.Index == int(i) {
				right = &e
			}
		}
	}
	return wrongAmong(p, readStep(prompt).Target, right, aux)
}

// wrongAmong is a plausible wrong element of p for a step whose target is target and
// whose right element is right (nil: none).
func wrongAmong(p Page, target string, right *Elem, aux float64) (Elem, bool) {
	w := wantOf(target)
	var cands []Elem
	for _, e := range p.Elems {
		if right != nil && e.Index == right.Index {
			continue
		}
		same := strings.EqualFold(e.Name, w.Name) && e.Row != "" && (right == nil || e.Row != right.Row)
		similar := len(w.Name) >= 5 && !strings.EqualFold(e.Name, w.Name) && strings.HasPrefix(strings.ToLower(e.Name), strings.ToLower(w.Name[:5]))
		if same || similar {
			cands = append(cands, e)
		}
	}
	if len(cands) == 0 {
		return Elem{}, false
	}
	return cands[int(aux*float64(len(cands)))%len(cands)], true
}

func perturbSteps(kind Kind, steps []any, aux float64) []any {
	out := make([]any, 0, len(steps))
	done := false
	for _, s := range steps {
		m, _ := s.(map[string]any)
		switch {
		case done:
		case kind == WrongRow && rowOf(s) != "":
			others := neighbours[rowOf(s)]
			if len(others) > 0 {
				other := others[int(aux*float64(len(others)))%len(others)]
				m = cloneMap(m)
				m["target_description"] = strings.Replace(target(s), `"`+rowOf(s)+`"`, `"`+other+`"`, 1)
				done = true
			}
		case kind == SimilarWrong && opensMenu(s):
			done = true
			continue
		case kind == SelectorTarget && target(s) != "":
			m = cloneMap(m)
			m["target_description"] = "#rows tr:nth-child(2) .kebab"
			done = true
		}
		out = append(out, m)
	}
	return out
}

func cloneMap(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

var (
	failedLine = regexp.MustCompile(`(?m)^Failed step: (\S+) "((?:[^"\\]|\\.)*)"(?: = "((?:[^"\\]|\\.)*)")?`)
	restLine   = regexp.MustCompile(`(?m)^- (\S+) "((?:[^"\\]|\\.)*)"(?: = "((?:[^"\\]|\\.)*)")?$`)
)

// repeatFailed is the failed step, unchanged, and the steps that were to follow, as a
// replanner's prompt names them.
func repeatFailed(prompt string) []any {
	var out []any
	add := func(m []string) {
		s := map[string]any{"action": m[1], "target_description": unquote(m[2]), "expected_outcome": "as before"}
		if m[3] != "" {
			s["value"] = unquote(m[3])
		}
		out = append(out, s)
	}
	if m := failedLine.FindStringSubmatch(prompt); m != nil {
		add(m)
	}
	if _, rest, ok := strings.Cut(prompt, "Steps that were to follow:"); ok {
		rest, _, _ = strings.Cut(rest, "\n\n")
		for _, m := range restLine.FindAllStringSubmatch(rest, -1) {
			add(m)
		}
	}
	return out
}
