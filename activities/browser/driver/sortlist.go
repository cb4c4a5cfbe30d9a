package driver

//lint:file-ignore SA1019 The items dragged are the exact nodes found by their numbers; only an ElementHandle names them.

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// numberListJS finds the page's lists of numbers: two or more like boxes side by side
// (as listPlace sees a list's items: children of one parent, of one tag, shown) that each
// show exactly one number as their whole text. With want -1 it answers, as JSON, how many
// such lists there are, where, and the texts of the one there is; with want -2 the one
// list's element, and with want 0 or more its item at that place (null unless there is
// exactly one list).
const numberListJS = `(want) => {
  const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const num = /^[-+\u2212]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/;
  const lists = [];
  for (const p of document.querySelectorAll("*")) {
    const groups = new Map();
    for (const k of p.children) {
      if (!shown(k)) continue;
      if (!groups.has(k.tagName)) groups.set(k.tagName, []);
      groups.get(k.tagName).push(k);
    }
    for (const g of groups.values()) {
      if (g.length >= 2 && g.every((k) => num.test(k.textContent.trim()))) lists.push(g);
    }
  }
  const one = lists.length === 1 ? lists[0] : null;
  if (want === -2) return one ? one[0].parentElement : null;
  if (want >= 0) return one && want < one.length ? one[want] : null;
  const where = (g) => { const p = g[0].parentElement; return p.tagName.toLowerCase() + (p.id ? "#" + p.id : "") + " of " + g.length; };
  return JSON.stringify({ lists: lists.length, where: lists.map(where), texts: one ? one.map((k) => k.textContent.trim()) : [] });
}`

// numberListRead is what numberListJS says of the page's lists of numbers.
type numberListRead struct {
	Lists int      `json:"lists"`
	Where []string `json:"where"`
	Texts []string `json:"texts"`
}

// readNumberList reads the page's one list of numbers: its items' texts and the numbers
// they show. None, or several, is the reason why there is no one list to sort.
func (s *Session) readNumberList() ([]string, []float64, *plan.Feedback) {
	v, err := s.page.Evaluate(numberListJS, -1)
	var r numberListRead
	if str, _ := v.(string); err != nil || json.Unmarshal([]byte(str), &r) != nil {
		return nil, nil, &plan.Feedback{Type: plan.Other, Details: fmt.Sprintf("could not read the page's lists of numbers: %v", err)}
	}
	switch {
	case r.Lists == 0:
		return nil, nil, &plan.Feedback{Type: plan.NotVisible, Details: "the page shows no list whose items each show one number: there is nothing to sort"}
	case r.Lists > 1:
		return nil, nil, &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("the page shows %d lists whose items each show one number (%s): which one to sort is not clear", r.Lists, strings.Join(r.Where, ", "))}
	}
	nums := make([]float64, len(r.Texts))
	for i, t := range r.Texts {
		f, err := strconv.ParseFloat(strings.NewReplacer("\u2212", "-", ",", "").Replace(t), 64)
		if err != nil {
			return nil, nil, &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("the list's item %d says %q, which is not a number", i+1, t)}
		}
		nums[i] = f
	}
	return r.Texts, nums, nil
}

// numberListTarget finds the list a sort names: the page's one list of numbers, found by
// its numbers rather than by a name the page gives it. ok is false for a step that is no
// sort; why says why a sort has no list to act on (none, several, or a target that is not
// the list of numbers).
func (s *Session) numberListTarget(step plan.Step) (el playwright.ElementHandle, e page.Element, why string, ok bool) {
	if step.Action != plan.Drag || step.Move == nil || step.Move.Sort == "" {
		return nil, page.Element{}, "", false
	}
	if step.TargetDescription != plan.NumberList {
		return nil, page.Element{}, fmt.Sprintf("a sort is of the page's one list of numbers: its target is %q, not %q", plan.NumberList, step.TargetDescription), true
	}
	if _, _, fb := s.readNumberList(); fb != nil {
		return nil, page.Element{}, fb.Details, true
	}
	h, err := s.page.EvaluateHandle(numberListJS, -2)
	if err != nil || h.AsElement() == nil {
		return nil, page.Element{}, "the page's list of numbers went away while it was found", true
	}
	tag, _ := h.AsElement().Evaluate(`(el) => el.tagName.toLowerCase()`)
	return h.AsElement(), page.Element{Index: -1, Role: "list", Tag: fmt.Sprint(tag), Name: plan.NumberList}, "", true
}

// shownTarget finds a target the page shows rather than names as a control: "the
// paragraph" to select, "the list of numbers" to sort. ok is false for any other target.
func (s *Session) shownTarget(step plan.Step) (playwright.ElementHandle, page.Element, string, bool) {
	if step.Action == plan.SelectText {
		return s.paragraphTarget(step.TargetDescription)
	}
	return s.numberListTarget(step)
}

// inOrder reports whether nums read in the order ("increasing" or "decreasing") from the
// top of the list.
func inOrder(nums []float64, order string) bool {
	for i := 1; i < len(nums); i++ {
		if (order == "increasing" && nums[i] < nums[i-1]) || (order == "decreasing" && nums[i] > nums[i-1]) {
			return false
		}
	}
	return true
}

// belongsAt is the place, at or after i, of the number that belongs at place i in the
// order: the lowest of the rest for "increasing", the highest for "decreasing" (the first
// of equal ones).
func belongsAt(nums []float64, i int, order string) int {
	best := i
	for j := i + 1; j < len(nums); j++ {
		if (order == "increasing" && nums[j] < nums[best]) || (order == "decreasing" && nums[j] > nums[best]) {
			best = j
		}
	}
	return best
}

// sortList sorts the page's list of numbers by dragging its items as a person does, one
// at a time (a selection sort): for each place from the top, the number that belongs
// there is dragged to it when it is elsewhere, and the list is read again after each
// drag. A drag that does not take ends the step there; one that leaves the list changed
// otherwise than asked ends it too. A step that dragged before it failed acted in part
// and is never redone whole. Its check is its own: the list reads in the order.
func sortList(ctx context.Context, a *action, order string) *plan.Feedback {
	a.out.ownCheck = true
	texts, nums, fb := a.s.readNumberList()
	if fb != nil {
		return fb
	}
	was := slices.Clone(texts)
	drags := 0
	failed := func(format string, args ...any) *plan.Feedback {
		a.out.ActedInPart = drags > 0
		return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf(format, args...) + fmt.Sprintf(" (after %s of the list of %d numbers)", dragCount(drags), len(nums))}
	}
	for i := 0; i < len(nums); i++ {
		j := belongsAt(nums, i, order)
		if nums[j] == nums[i] {
			continue
		}
		if drags >= len(nums) {
			return failed("the list is still not in %s order", order)
		}
		if fb := a.dragItem(ctx, j, i); fb != nil {
			a.out.ActedInPart = drags > 0
			return fb
		}
		drags++
		if err := a.s.Settle(ctx, a.opts.SettleTimeout); err != nil {
			return a.failed(err)
		}
		after, now, fb := a.s.readNumberList()
		switch {
		case fb != nil:
			return failed("after dragging %s, %s", texts[j], fb.Details)
		case slices.Equal(after, texts):
			drags-- // it did not take: the list is as it was
			return failed("dragged %s from place %d to place %d, but the list did not change", texts[j], j+1, i+1)
		case len(now) != len(nums) || now[i] != nums[j]:
			return failed("dragged %s from place %d to place %d, but the list reads %s", texts[j], j+1, i+1, strings.Join(after, ", "))
		}
		texts, nums = after, now
	}
	if !inOrder(nums, order) {
		return failed("the list reads %s, not in %s order", strings.Join(texts, ", "), order)
	}
	if drags == 0 {
		a.note("the list of numbers already read in %s order (%s): nothing to drag", order, strings.Join(texts, ", "))
		return nil
	}
	a.note("sorted the list of numbers in %s order with %s: %s, now %s", order, dragCount(drags), strings.Join(was, ", "), strings.Join(texts, ", "))
	return nil
}

// dragItem drags the list's item at place from to place to, with the mechanics of a drag
// along a list (moveAlong): the item is found by its place in the one list of numbers.
func (a *action) dragItem(ctx context.Context, from, to int) *plan.Feedback {
	h, err := a.s.page.EvaluateHandle(numberListJS, from)
	if err != nil || h.AsElement() == nil {
		return &plan.Feedback{Type: plan.NotVisible, Details: fmt.Sprintf("the item at place %d of the list of numbers went away", from+1)}
	}
	item := *a
	item.el = h.AsElement()
	item.ref = fmt.Sprintf("item %d of the list of numbers", from+1)
	before, fb := item.listPlace(nil)
	if fb != nil {
		return fb
	}
	if before.Index != from || to >= len(before.Boxes) {
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s is not where the list of numbers has it", item.ref)}
	}
	f := before.Boxes[from]
	return item.pressToPlace(ctx, f[0]+f[2]/2, f[1]+f[3]/2, before, to)
}

// dragCount says how many drags a sort took: "1 drag", "3 drags".
func dragCount(n int) string {
	if n == 1 {
		return "1 drag"
	}
	return fmt.Sprintf("%d drags", n)
}
