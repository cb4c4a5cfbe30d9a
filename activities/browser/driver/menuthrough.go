package driver

import (
	"context"
	"fmt"
	"strings"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// throughItsMenu finishes a click on a link that a script turned into a menu's button
// (Bootstrap's dropdown toggle: "Virtual List" leads to the virtual list, and a click
// drops down a menu whose first item is "Virtual List" again, to the same address). The
// click went nowhere and showed the menu; the menu holds one link of the same name to the
// same address, which is the control the step named, now where a person clicks it. That
// link is clicked, once. The first click sent nothing and led nowhere, so this is no
// repeat (rule 1); a menu that offers anything less than the same name and the same
// address is left open, and the step's effect is what the first click did. So is a menu
// the step asked to open ("open the Virtual List menu"): open is what it wanted.
func (at *attempt) throughItsMenu(ctx context.Context, fb *plan.Feedback) (*plan.Feedback, error) {
	s, out := at.s, at.out
	if fb != nil || at.step.Action != plan.Click || out.Target == nil || out.Target.Dest == "" || at.el == nil || len(at.more) > 0 ||
		out.After.URL != out.Before.URL || namesMenu(at.step.TargetDescription) {
		return fb, nil
	}
	was := *out.Target
	item, ok := sameLinkShown(was, out.Before.Elements, out.After.Elements)
	if !ok {
		return fb, nil
	}
	el, err := s.element(item.Index)
	if err != nil {
		return fb, nil
	}
	out.Actions = append(out.Actions, fmt.Sprintf("%s opened a menu that holds it again, to the same address: clicked %s there", was.Ref(), item.Ref()))
	at.el, out.Target = el, &item
	out.Before, out.BeforePNG = out.After, out.AfterPNG
	at.m0 = s.Mutations()
	again, err := s.act(ctx, at.action(), false)
	if err != nil {
		return nil, err
	}
	if at.settled, err = s.settle(ctx, at.opts.SettleTimeout, true); err != nil {
		return nil, err
	}
	if err := at.followWindows(ctx); err != nil {
		return nil, err
	}
	if err := at.observeAfter(ctx, again == nil); err != nil {
		return nil, err
	}
	if again != nil {
		return again, nil
	}
	return s.check(ctx, at.step, at.el, out, at.opts.WaitBudget)
}

// sameLinkShown finds the one link the click showed that is the clicked control again:
// the same name and the same address, not on the page before.
func sameLinkShown(was page.Element, before, after []page.Element) (page.Element, bool) {
	same := func(e page.Element) bool {
		return e.Dest == was.Dest && e.Tag == "a" && strings.EqualFold(strings.TrimSpace(e.Name), strings.TrimSpace(was.Name))
	}
	shownBefore := 0
	for _, e := range before {
		if same(e) {
			shownBefore++
		}
	}
	var found []page.Element
	for _, e := range after {
		if same(e) && e.Box != was.Box && !e.Disabled {
			found = append(found, e)
		}
	}
	// The control itself is still there, and its menu's item is the one more.
	if shownBefore != 1 || len(found) != 1 {
		return page.Element{}, false
	}
	return found[0], true
}

// namesMenu reports whether a target description calls its target a menu.
func namesMenu(desc string) bool {
	for _, w := range strings.Fields(strings.ToLower(desc)) {
		switch strings.Trim(w, `"',.`) {
		case "menu", "dropdown", "drop-down", "submenu":
			return true
		}
	}
	return false
}
