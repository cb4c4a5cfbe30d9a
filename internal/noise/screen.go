package noise

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/webagent-dev/webagent/activities/model"
	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/internal/geminitest"
	"github.com/webagent-dev/webagent/plan"
)

// Screen is what the computer-use tool sees: the page's elements where they are drawn,
// on a screenshot of W×H pixels. Its prompt carries no element list, so the truthful
// model reads the page through a Screen the harness gives it, as it reads the app's state.
type Screen struct {
	Obs  page.Observation
	W, H int
}

// Page is the screen's elements as the oracle reads a prompt's element list.
func (s Screen) Page() Page {
	var p Page
	for _, e := range s.Obs.Elements {
		c := ""
		if f := strings.Fields(e.Container); len(f) > 0 {
			c = f[0]
		}
		p.Elems = append(p.Elems, Elem{Index: e.Index, Role: e.Role, Name: e.Name, Value: e.Value, Row: e.Row, Container: c})
	}
	return p
}

// element is the screen's element numbered i.
func (s Screen) element(i int) (page.Element, bool) {
	j := slices.IndexFunc(s.Obs.Elements, func(e page.Element) bool { return e.Index == i })
	if j < 0 {
		return page.Element{}, false
	}
	return s.Obs.Elements[j], true
}

// Grid is the centre of e's box on the tool's grid (model.Grid on each axis).
func (s Screen) Grid(e page.Element) (x, y int) {
	cx := float64(e.Box.X) + float64(e.Box.W)/2
	cy := float64(e.Box.Y) + float64(e.Box.H)/2
	return int(math.Round(cx * model.Grid / float64(s.W))), int(math.Round(cy * model.Grid / float64(s.H)))
}

// At is the element under a point of the tool's grid, as the agent maps it to pixels.
func (s Screen) At(x, y float64) (page.Element, bool) {
	return s.Obs.At(math.Round(x/model.Grid*float64(s.W)), math.Round(y/model.Grid*float64(s.H)))
}

// toolCall is the computer-use action that does the step on e: click_at its centre, or
// type_text_at it with the step's value.
func (s Screen) toolCall(st promptStep, e page.Element) *geminitest.FunctionCall {
	x, y := s.Grid(e)
	if plan.Action(st.Action) == plan.Type {
		return &geminitest.FunctionCall{Name: "type_text_at", Args: map[string]any{"x": x, "y": y, "text": st.Value, "press_enter": false}}
	}
	return &geminitest.FunctionCall{Name: "click_at", Args: map[string]any{"x": x, "y": y}}
}

// computerUse answers the computer-use tool truthfully: the step's action at the centre
// of the element the step names (the goal's own row where the step leaves it open), or,
// when none is on the screen, no action and a text saying what should happen first.
func (o *Oracle) computerUse(prompt string) geminitest.Reply {
	if o.Screen == nil {
		return geminitest.Reply{Status: 400, Message: "the oracle cannot see the screen the computer-use tool is asked about"}
	}
	s := o.Screen()
	st := readStep(prompt)
	if e, ok := o.pick(s.Page(), st.Target); ok {
		if el, ok := s.element(e.Index); ok {
			return geminitest.Reply{Call: s.toolCall(st, el)}
		}
	}
	first := "the page needs another step first"
	if w := wantOf(st.Target); w.Container == "menu" {
		first = fmt.Sprintf("the \"Project actions\" menu in the row %q must be opened first", o.Sc.Project)
	}
	return geminitest.Reply{Text: fmt.Sprintf("%s is not on the screen: %s.", st.Target, first)}
}

// calledAt is the element a computer-use call's point lands on.
func calledAt(s Screen, fc *geminitest.FunctionCall) (page.Element, bool) {
	if fc == nil {
		return page.Element{}, false
	}
	x, xok := num(fc.Args["x"])
	y, yok := num(fc.Args["y"])
	if !xok || !yok {
		return page.Element{}, false
	}
	return s.At(x, y)
}

func num(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

// neighbourRow is the element of the same role, name and container as the one the true
// call lands on, in the nearest other row (aux picks between two as near).
func neighbourRow(s Screen, truth *geminitest.FunctionCall, aux float64) (page.Element, bool) {
	right, ok := calledAt(s, truth)
	if !ok || right.Row == "" {
		return page.Element{}, false
	}
	var near []page.Element
	best := math.MaxInt
	for _, e := range s.Obs.Elements {
		if e.Role != right.Role || e.Name != right.Name || e.Container != right.Container || e.Row == "" || e.Row == right.Row {
			continue
		}
		d := e.Box.Y - right.Box.Y
		if d < 0 {
			d = -d
		}
		switch {
		case d < best:
			best, near = d, []page.Element{e}
		case d == best:
			near = append(near, e)
		}
	}
	if len(near) == 0 {
		return page.Element{}, false
	}
	return near[int(aux*float64(len(near)))%len(near)], true
}

// wrongPoint is a plausible wrong element for a computer-use call, as for the decider:
// the same name in another row, or a similar name ("Archived" for "Archive").
func wrongPoint(s Screen, prompt string, truth *geminitest.FunctionCall, aux float64) (page.Element, bool) {
	var right *Elem
	if e, ok := calledAt(s, truth); ok {
		right = &Elem{Index: e.Index, Row: e.Row}
	}
	w, ok := wrongAmong(s.Page(), readStep(prompt).Target, right, aux)
	if !ok {
		return page.Element{}, false
	}
	return s.element(w.Index)
}

// pointAt is the true call moved to e's centre.
func pointAt(s Screen, truth *geminitest.FunctionCall, e page.Element) geminitest.Reply {
	args := make(map[string]any, len(truth.Args))
	for k, v := range truth.Args {
		args[k] = v
	}
	args["x"], args["y"] = s.Grid(e)
	return geminitest.Reply{Call: &geminitest.FunctionCall{Name: truth.Name, Args: args}}
}

// cutCall is a function call cut off halfway: the first half of its arguments, by name.
func cutCall(fc *geminitest.FunctionCall) geminitest.Reply {
	keys := make([]string, 0, len(fc.Args))
	for k := range fc.Args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	args := map[string]any{}
	for _, k := range keys[:len(keys)/2] {
		args[k] = fc.Args[k]
	}
	return geminitest.Reply{Call: &geminitest.FunctionCall{Name: fc.Name, Args: args}}
}
