package driver

//lint:file-ignore SA1019 The element moved is the exact node the observation numbered; only an ElementHandle names it.

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"github.com/webagent-dev/webagent/internal/jsnum"
	"github.com/webagent-dev/webagent/plan"
)

// listPlace is where an item sits in its list: the element itself or the nearest box
// around it that is one of two or more like boxes side by side (a list's item). Given
// {tag, text} instead of an element, it finds the item again by its text (a list that
// re-renders itself after a drop makes new items).
const listPlace = `(el, again) => {
  const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const placeOf = (start) => {
    for (let n = start; n && n.parentElement; n = n.parentElement) {
      const kids = [...n.parentElement.children].filter((k) => k.tagName === n.tagName && shown(k));
      if (kids.length >= 2 && kids.includes(n)) {
        return JSON.stringify({ index: kids.indexOf(n), tag: n.tagName, text: n.textContent.trim(),
          boxes: kids.map((k) => { const r = k.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }) });
      }
    }
    return "";
  };
  if (!again) return placeOf(el);
  for (const n of document.getElementsByTagName(again.tag)) {
    if (n.textContent.trim() === again.text && shown(n)) { const p = placeOf(n); if (p) return p; }
  }
  return "";
}`

// moveAlong drags the step's element in a direction, or to another place in its list, as
// a person does: press, a few moves, release. A direction is checked by where the element
// went; a place by the element's place in its list afterwards.
func moveAlong(ctx context.Context, a *action, mv plan.Move) *plan.Feedback {
	from, err := a.el.BoundingBox()
	if err != nil || from == nil {
		return a.failed(fmt.Errorf("the element to drag has no box on the page: %v", err))
	}
	if mv.Size != "" {
		return resize(ctx, a, mv.Size, from)
	}
	fx, fy := from.X+from.Width/2, from.Y+from.Height/2
	if mv.Places == 0 && mv.To == 0 {
		d := math.Max(60, 2*math.Max(from.Width, from.Height))
		dx, dy := map[string]float64{"left": -d, "right": d}[mv.Dir], map[string]float64{"up": -d, "down": d}[mv.Dir]
		if fb := a.press(ctx, fx, fy, fx+dx, fy+dy); fb != nil {
			return fb
		}
		to, err := a.el.BoundingBox()
		if err == nil && to != nil && (to.X-from.X)*dx+(to.Y-from.Y)*dy <= 0 {
			return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("dragged %s %s, but it did not move that way", a.ref, mv.Dir)}
		}
		a.note("dragged %s %s", a.ref, mv.Dir)
		return nil
	}
	before, fb := a.listPlace(nil)
	if fb != nil {
		return fb
	}
	want := mv.To - 1
	if mv.To < 0 {
		want = len(before.Boxes) - 1
	}
	if mv.Places > 0 {
		want = before.Index - mv.Places
		if mv.Dir == "down" {
			want = before.Index + mv.Places
		}
	}
	if want < 0 || want >= len(before.Boxes) || want == before.Index {
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s is item %d of %d in its list: it cannot move %s", a.ref, before.Index+1, len(before.Boxes), mv)}
	}
	if fb := a.pressToPlace(ctx, fx, fy, before, want); fb != nil {
		return fb
	}
	after, fb := a.listPlace(&before)
	if fb != nil || after.Index != want {
		return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("dragged %s %s, but it is item %d of its list, not %d", a.ref, mv, after.Index+1, want+1)}
	}
	a.note("dragged %s from place %d to place %d of its list", a.ref, before.Index+1, want+1)
	return nil
}

// pressToPlace drags an item at its place (before), pressed at (x, y), to the place want:
// onto the item there, above that item's middle going up and below it going down, where
// a sortable list puts the item dragged in its place.
func (a *action) pressToPlace(ctx context.Context, x, y float64, before place, want int) *plan.Feedback {
	b := before.Boxes[want]
	to := b[1] + b[3]/4
	if want > before.Index {
		to = b[1] + 3*b[3]/4
	}
	return a.press(ctx, x, y, b[0]+b[2]/2, to)
}

// place is an item's place in its list, what it is and says, and its list's items' boxes
// (x, y, width, height).
type place struct {
	Index int          `json:"index"`
	Tag   string       `json:"tag"`
	Text  string       `json:"text"`
	Boxes [][4]float64 `json:"boxes"`
}

// listPlace reads the step's element's place in its list, or, with again, the place of
// the item found again by what it is and says.
func (a *action) listPlace(again *place) (place, *plan.Feedback) {
	var arg any
	if again != nil {
		arg = map[string]any{"tag": again.Tag, "text": again.Text}
	}
	v, err := a.el.Evaluate(listPlace, arg)
	var p place
	if s, _ := v.(string); err != nil || s == "" || json.Unmarshal([]byte(s), &p) != nil {
		return place{}, &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s is not an item of a list: name the element to drop it on", a.ref)}
	}
	return p, nil
}

// sliderValue reads a drawn slider's value: its aria-valuenow, or, for a jQuery UI slider
// that says none, the widget's own value (of this handle, when it has several); null when
// the page says none.
const sliderValue = `(el) => {
  const v = el.getAttribute("aria-valuenow");
  if (v !== null && v !== "") return +v;
  const $ = window.jQuery, box = el.closest(".ui-slider");
  if ($ && box && $(box).slider) {
    try {
      const handles = [...box.querySelectorAll(".ui-slider-handle")];
      return handles.length > 1 ? +$(box).slider("values", handles.indexOf(el)) : +$(box).slider("value");
    } catch (e) { return null; }
  }
  return null;
}`

// slideByKeys sets a slider the page draws (no <input>) to a value with its keys, as a
// person can: Home for its least value, then the arrow keys one step at a time, reading
// the value the page says after each, until it holds the value asked or stops moving.
// A slider that says no value is refused: the value set could not be checked.
func slideByKeys(a *action, want float64) *plan.Feedback {
	read := func() (float64, bool) {
		v, err := a.el.Evaluate(sliderValue)
		f, ok := jsnum.Number(v)
		return f, err == nil && ok
	}
	if _, ok := read(); !ok {
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s is a slider that says no value (no aria-valuenow): it cannot be set to %v and checked", a.ref, want)}
	}
	if err := a.el.Focus(); err != nil {
		return a.failed(err)
	}
	kb := a.s.page.Keyboard()
	if err := kb.Press("Home"); err != nil {
		return a.failed(err)
	}
	for i := 0; i < 1000; i++ {
		v, _ := read()
		if v == want {
			a.note("set the slider %s to %v with its keys", a.ref, want)
			return nil
		}
		if v > want {
			break
		}
		if err := kb.Press("ArrowRight"); err != nil {
			return a.failed(err)
		}
		if after, _ := read(); after == v {
			break // at its end
		}
	}
	v, _ := read()
	return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("the slider %s stops at %v, not %v: its steps do not reach it", a.ref, v, want)}
}
