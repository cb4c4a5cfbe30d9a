package driver

//lint:file-ignore SA1019 The agent acts on the exact node its observation numbered; only an ElementHandle names that node, where a locator would query the page again by selector.

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// through is a link a script turned into its menu's button (Bootstrap's dropdown toggle:
// "Virtual List" leads to the virtual list, and a click drops down a menu whose first item
// is "Virtual List" again, to the same address). The click that showed the menu went
// nowhere. What the person meant is told by the next step: an item of the menu ("click
// New Domain") is clicked where it is; a target the menu does not hold ("the domain list"
// of the page the link leads to) is reached by following the link in the menu, once, as
// the click asked. The step after the click reads it (followThrough); no other does.
type through struct {
	mu   sync.Mutex
	step int // the step (Session.steps) whose click showed the menu
	url  string
	link page.Element
}

// noteMenu records the link the step's click showed again in the menu it opened, when it
// did: the same name and the same address, not on the page before, the page where it was.
func (at *attempt) noteMenu() {
	s, out := at.s, at.out
	if at.step.Action != plan.Click || !out.OK || out.Target == nil || out.Target.Dest == "" || at.el == nil || len(at.more) > 0 ||
		out.After.URL != out.Before.URL || namesMenu(at.step.TargetDescription) {
		return
	}
	link, ok := sameLinkShown(*out.Target, out.Before.Elements, out.After.Elements)
	if !ok {
		return
	}
	s.through.mu.Lock()
	s.through.step, s.through.url, s.through.link = s.steps, out.After.URL, link
	s.through.mu.Unlock()
	out.Actions = append(out.Actions, fmt.Sprintf("%s opened a menu that holds it again (%s, to the same address): it is followed if the next step's target is not in the menu", out.Target.Ref(), link.Ref()))
}

// followThrough follows the link the step before showed in its menu, when this is the
// step after it and the link is still where it was; it reports whether it clicked.
func (s *Session) followThrough(ctx context.Context, obs page.Observation, settle time.Duration) (bool, error) {
	s.through.mu.Lock()
	link, ok := s.through.link, s.through.step == s.steps-1 && s.through.url == obs.URL && s.through.url != ""
	s.through.url = ""
	s.through.mu.Unlock()
	if !ok {
		return false, nil
	}
	var at []page.Element
	for _, e := range obs.Elements {
		if e.Dest == link.Dest && strings.EqualFold(e.Name, link.Name) && e.Box == link.Box {
			at = append(at, e)
		}
	}
	if len(at) != 1 {
		return false, nil
	}
	el, err := s.element(at[0].Index)
	if err != nil {
		return false, nil
	}
	defer el.Dispose()
	if err := el.Click(playwright.ElementHandleClickOptions{Timeout: ms(bounded(ctx, 5*time.Second))}); err != nil {
		return false, nil
	}
	if _, err := s.settle(ctx, settle, false); err != nil {
		return false, err
	}
	s.notes.add(fmt.Sprintf("followed %s in the menu the step before opened: this step's target was not in the menu", at[0].Ref()))
	return true, nil
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

// namesMenu reports whether a target description calls its target a menu: a menu the
// step asked to open ("open the Virtual List menu") is what it wanted.
func namesMenu(desc string) bool {
	for _, w := range strings.Fields(strings.ToLower(desc)) {
		switch strings.Trim(w, `"',.`) {
		case "menu", "dropdown", "drop-down", "submenu":
			return true
		}
	}
	return false
}
