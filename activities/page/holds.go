package page

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/webagent-dev/webagent/plan"
)

// Contradicts names the part of a step's target that the element contradicts — its row,
// its container, its kind, how its text starts or ends, its quoted name, or the action
// itself — or "" when it contradicts none. It holds a model's pick to what the step says
// before anything is done: a pick that cannot be the element described is refused, never
// acted on. A name the step does not quote is a paraphrase and refuses nothing; a quoted
// one refuses an element that shares none of its words.
func Contradicts(t plan.Target, action plan.Action, e Element) string {
	tt := Target{t}
	switch {
	case t.Row != "" && !InRow(t, e):
		return "the step names" + strings.TrimPrefix(tt.where(), " in")
	case t.Container != "" && !tt.inBox(e):
		return "the step names the " + t.Container
	case t.Picture != "" && !pictured(t.Picture, e):
		return "the step names an element showing a " + t.Picture
	case strictKinds[t.Kind] && !roleFits(t.Kind, e):
		return "the step names a " + t.Kind
	case !fits(action, e):
		return fmt.Sprintf("a %s cannot be done to a %s", action, e.Role)
	case (t.Starts != "" || t.Ends != "") && !tt.affixed(e):
		return "the step names an element whose text " + tt.affixes()
	case t.Quoted && t.Name != "" && !t.Labelled && !sharesWord(t.Name, e):
		return "the step names " + strconv.Quote(t.Name)
	}
	return ""
}

// ContradictsAmong is Contradicts with the parts only the whole page can tell: the
// ordinal ("the second"), and the candidates DOM-first resolution found, which a pick
// must be one of when there were several.
func ContradictsAmong(t plan.Target, action plan.Action, e Element, elems []Element) string {
	if why := Contradicts(t, action, e); why != "" {
		return why
	}
	if tt := (Target{t}); t.Row != "" && tt.rowFitOf(e) == rowInner {
		return fmt.Sprintf("the step names the row %q, and this element's row has it only inside a longer name", t.Row)
	}
	res := ResolveTarget(t, action, elems)
	if t.Ordinal != 0 && res.Resolved() && res.Index != e.Index {
		return fmt.Sprintf("the step names the %s %s, which is #%d", plan.Ordinal(t.Ordinal), Target{t}.named(), res.Index)
	}
	// resolve lists at most 8 candidates; with 8 the list may be cut, and proves nothing.
	if t.Ordinal == 0 && len(res.Candidates) > 1 && len(res.Candidates) < 8 && !holdsIndex(res.Candidates, e.Index) {
		return fmt.Sprintf("the page's own search found %d elements that match every part of the step, and this is not one of them", len(res.Candidates))
	}
	return ""
}

// Holding are the elements that hold every part of the target, for a refusal to offer
// instead: the one the ordinal names, or the candidates DOM-first resolution found, or
// else each element that contradicts nothing. At most 8.
func Holding(t plan.Target, action plan.Action, elems []Element) []Element {
	res := ResolveTarget(t, action, elems)
	switch {
	case res.Resolved():
		for _, e := range elems {
			if e.Index == res.Index {
				return []Element{e}
			}
		}
	case len(res.Candidates) > 0:
		return res.Candidates
	}
	var out []Element
	for _, e := range elems {
		if len(out) < 8 && t.Ordinal == 0 && Contradicts(t, action, e) == "" && (!t.Quoted || named(t.Name, e)) {
			out = append(out, e)
		}
	}
	return out
}

// Describe is the element with where it sits, as a refusal names it: #12 button "Project
// actions" in the row "Website relaunch 12 open" in the dialog "Move".
func (e Element) Describe() string {
	s := e.Ref()
	if e.Row != "" {
		s += " in the row " + strconv.Quote(truncate(e.Row, 50))
	}
	if e.Container != "" {
		s += " in the " + e.Container
	}
	return s
}

// At is the element whose box holds the viewport point (x, y) — the smallest, when boxes
// nest — and whether there is one.
func (o Observation) At(x, y float64) (Element, bool) {
	px, py := int(x)+o.ScrollX, int(y)+o.ScrollY
	var best Element
	found := false
	for _, e := range o.Elements {
		b := e.Box
		if e.Offscreen || px < b.X || py < b.Y || px >= b.X+b.W || py >= b.Y+b.H {
			continue
		}
		if !found || b.W*b.H < best.Box.W*best.Box.H {
			best, found = e, true
		}
	}
	return best, found
}

// named reports whether the phrase names the element by any of its texts.
func named(phrase string, e Element) bool {
	score, _ := matchScore(phrase, e)
	return score > 0
}

// sharesWord reports whether one of the name's words is a word of the element's texts (its
// name, text, label, placeholder, title, value) or of its developers' names for an icon.
func sharesWord(name string, e Element) bool {
	if named(name, e) {
		return true
	}
	words := map[string]bool{}
	for _, w := range splitWords(strings.Join([]string{e.Name, e.Text, e.Label, e.Placeholder, e.Title, e.Value, e.Hints}, " ")) {
		words[strings.Trim(w, `"'()[],!?`)] = true
	}
	for _, w := range splitWords(name) {
		if w = strings.Trim(w, `"'()[],!?`); len(w) > 1 && words[w] {
			return true
		}
	}
	return false
}

func holdsIndex(elems []Element, i int) bool {
	for _, e := range elems {
		if e.Index == i {
			return true
		}
	}
	return false
}
