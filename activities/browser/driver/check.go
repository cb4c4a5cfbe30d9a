package driver

//lint:file-ignore SA1019 The agent acts on the exact node its observation numbered (in the page, a shadow root or a frame); only an ElementHandle names that node, where a locator would query the page again by selector.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/activities/visual"
	"github.com/webagent-dev/webagent/plan"
)

// ledHere reports a click on a link to the page already shown ("click "Articles"" on the
// Articles page), and says so: being where it leads is all its click can do.
func ledHere(step plan.Step, out *Outcome) bool {
	if out.Target == nil || !out.Target.Here || step.Action != plan.Click {
		return false
	}
	out.Actions = append(out.Actions, fmt.Sprintf("%s leads to the page already shown", out.Target.Ref()))
	return true
}

// check is the deterministic evaluator: did the step do what it should? It checks what
// the action's Spec names; the error is ctx's, when it ended.
func (s *Session) check(ctx context.Context, step plan.Step, el playwright.ElementHandle, out *Outcome, budget time.Duration) (*plan.Feedback, error) {
	ref := ""
	if out.Target != nil {
		ref = out.Target.Ref()
	}
	changed := func() bool {
		return out.After.Fingerprint != out.Before.Fingerprint || out.After.URL != out.Before.URL || pixelsChanged(out.BeforePNG, out.AfterPNG)
	}
	switch step.Action.Spec().Check {
	case plan.CheckPageChanged:
		if !changed() && !out.ownCheck && !ledHere(step, out) {
			return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("%s %s but nothing on the page changed", clicked(step.Action), page.FirstNonEmpty(ref, "the point")),
				Suggestion: "the click may have missed: another element may be the one meant", ActualElement: ref, ExpectedElement: step.TargetDescription}, nil
		}
	case plan.CheckFieldValue:
		return s.checkFieldValue(ctx, step, el, out, ref), nil
	case plan.CheckCheckedState:
		if el == nil {
			return nil, nil
		}
		got, err := el.IsChecked()
		if err != nil || got == step.Uncheck {
			return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("%s is still %s", ref, map[bool]string{true: "checked", false: "unchecked"}[got]), ActualElement: ref}, nil
		}
	case plan.CheckAddress:
		if !changed() && !out.ownCheck && !strings.EqualFold(step.URL, "reload") {
			return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("the page is still %s", out.After.URL)}, nil
		}
	case plan.CheckScrolled:
		if out.After.ScrollY == out.Before.ScrollY && el == nil {
			at := out.After.ScrollY == 0 || out.After.ScrollY >= out.After.ScrollMax
			if !at {
				return &plan.Feedback{Type: plan.PageState, Details: "the page did not scroll"}, nil
			}
			out.Actions = append(out.Actions, "the page was already at its end")
		}
	case plan.CheckText:
		if step.TargetDescription != "" && el != nil && out.Target != nil {
			return s.checkShows(ctx, step, el, out, budget)
		}
		return s.checkText(ctx, step, out, budget)
	case plan.CheckRead:
		if el == nil {
			return nil, nil
		}
		v := shownValue(el)
		out.Extracted = map[string]any{page.FirstNonEmpty(step.Into, "value"): v}
		out.Actions = append(out.Actions, fmt.Sprintf("read %q from %s", page.Truncate(v, 60), ref))
	}
	return nil, nil
}

// checkFieldValue checks that the field holds what the step typed or chose, read back as
// a person reads it.
func (s *Session) checkFieldValue(ctx context.Context, step plan.Step, el playwright.ElementHandle, out *Outcome, ref string) *plan.Feedback {
	if el == nil {
		return nil
	}
	got, err := fieldValue(el)
	if err != nil && isContextGone(err) && step.Action == plan.Select {
		// A list that sends its form when chosen from (a list of domains that shows the
		// page for the one chosen): the page it led to shows the list again, holding
		// the choice, or the choice is not evidenced.
		if shown, ok := s.choiceShownAfter(ctx, out, step.Value); ok {
			got, err = shown, nil
		} else if out.Target != nil && out.Target.Tag == "select" && out.After.URL != out.Before.URL {
			// A list of actions that goes where its choice leads (CUPS's "Administration"
			// on a printer's page): the option was chosen by its exact label, and the page
			// it led to is the choice's effect.
			out.Actions = append(out.Actions, fmt.Sprintf("choosing %q in %s led to another page", step.Value, ref))
			return nil
		}
	}
	if err != nil {
		return &plan.Feedback{Type: plan.Timing, Details: fmt.Sprintf("could not read %s after typing: %v", ref, firstLine(err.Error()))}
	}
	want := step.Value
	if out.typed != "" {
		want = out.typed
	}
	if page.Norm(got) != page.Norm(want) && !sameOptions(out.Target, got, want) && !sameDate(got, want) && !sameHomePath(got, want) {
		if (out.Target != nil && out.Target.Secret) || plan.HasSecret(step.Value) {
			return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s does not hold the secret that was typed", ref), ActualElement: ref}
		}
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s holds %q, not %q", ref, got, step.Value),
			Suggestion: "the field may reformat or reject the value, or another field is the one meant", ActualElement: ref}
	}
	return nil
}

// checkText waits, within the budget the attempt had, for the asserted text to be (or
// not be) on the page as a person sees it (SeenText): text the page holds but hides is
// not visible.
func (s *Session) checkText(ctx context.Context, step plan.Step, out *Outcome, budget time.Duration) (*plan.Feedback, error) {
	deadline := time.Now().Add(budget)
	for {
		text, err := s.SeenText(ctx, true)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return &plan.Feedback{Type: plan.Timing, Details: err.Error()}, nil
		}
		found := page.ContainsText(page.NormalizeText(text), step.Value)
		if found != step.Negated {
			return nil, nil
		}
		if !time.Now().Before(deadline) {
			if step.Negated {
				return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("%q is still on the page", step.Value)}, nil
			}
			return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("%q is not on the page %q; it reads: %s", step.Value, out.After.Title, page.Truncate(page.OneLine(text), 200)),
				Suggestion: "an earlier step may not have done what it should"}, nil
		}
		if err := sleep(ctx, 200*time.Millisecond); err != nil {
			return nil, err
		}
	}
}

func fieldValue(el playwright.ElementHandle) (string, error) {
	// A rich-text editor keeps a zero-width character in a box it shows empty (WordPress's
	// title): no one sees it, and it is not what the field holds. A button that stands for
	// a list (bootstrap-select's) holds the choice it shows, not its value attribute.
	// A group of radio buttons holds the label of the one checked.
	v, err := el.Evaluate(`(el) => el.getAttribute("role") === "radiogroup" || el.tagName === "FIELDSET" || (el.tagName !== "INPUT" && el.querySelectorAll("input[type=radio]").length > 1) ? (() => {
      ` + radioLabelJS + `
      const r = el.querySelector("input[type=radio]:checked, [role=radio][aria-checked=true]");
      return r ? radioLabel(r) : "";
    })() : el.tagName === "SELECT" ? (el.multiple ? [...el.selectedOptions].map((o) => o.label).join(", ") : el.selectedOptions[0] ? el.selectedOptions[0].label : "") : ("value" in el && el.tagName !== "BUTTON" ? String(el.value) : el.innerText.replace(/[\u200B-\u200D\uFEFF]/g, ""))`)
	if err != nil {
		return "", err
	}
	s, _ := v.(string)
	return s, nil
}

// pixelsChanged reports whether more than ChangeThreshold of the pixels differ.
func pixelsChanged(a, b []byte) bool {
	if string(a) == string(b) {
		return false
	}
	x, err := visual.Decode(a)
	if err != nil {
		return false
	}
	y, err := visual.Decode(b)
	if err != nil {
		return false
	}
	changed, err := visual.Changed(x, y, ChangeThreshold)
	return err == nil && changed
}

// sameOptions reports whether a list that takes several options holds the ones wanted, in
// whatever order the page lists them.
func sameOptions(t *page.Element, got, want string) bool {
	if t == nil || t.Tag != "select" {
		return false
	}
	g, w := plan.ListItems(got), plan.ListItems(want)
	if len(g) < 2 || len(g) != len(w) {
		return false
	}
	slices.Sort(g)
	slices.Sort(w)
	return slices.Equal(g, w)
}

// sameHomePath reports whether got is want, a path under the home folder ("~/Photos"),
// written out as the page expanded it ("/home/ann/Photos"): a file-sync or backup app
// expands "~" in its path field as it is typed.
func sameHomePath(got, want string) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(want), "~/")
	got = strings.TrimSpace(got)
	return ok && rest != "" && strings.HasPrefix(got, "/") && strings.HasSuffix(got, "/"+rest) && !strings.Contains(got, "~")
}

// sameDate reports whether two values are the same calendar date written two ways: a
// date picked in a page's calendar is written in the page's own format.
func sameDate(got, want string) bool {
	g, ok1 := dateValue(got)
	w, ok2 := dateValue(want)
	return ok1 && ok2 && g.Equal(w)
}

// shownValue is what a person reads in an element: a field's value exactly as it is (a
// copy is pasted as it was, spaces and all), else its shown text, trimmed.
func shownValue(el playwright.ElementHandle) string {
	v, err := fieldValue(el)
	if err != nil || v == "" {
		v, _ = el.InnerText()
		v = strings.TrimSpace(v)
	}
	return v
}

// choiceShownAfter finds, on the page a choice led to, the one list that offers the same
// options as the list chosen from and holds the value chosen: in the page observed after
// the choice, or, when that page was still being drawn, once it has loaded.
func (s *Session) choiceShownAfter(ctx context.Context, out *Outcome, want string) (string, bool) {
	if out.Target == nil || out.Target.Tag != "select" {
		return "", false
	}
	find := func(obs page.Observation) (string, int) {
		var found []string
		for _, e := range obs.Elements {
			if e.Tag == "select" && slices.Equal(e.Options, out.Target.Options) {
				found = append(found, e.Value)
			}
		}
		if len(found) != 1 {
			return "", len(found)
		}
		return found[0], 1
	}
	got, n := find(out.After)
	if n == 0 {
		_ = s.page.WaitForLoadState(playwright.PageWaitForLoadStateOptions{State: playwright.LoadStateLoad, Timeout: ms(bounded(ctx, 5*time.Second))})
		obs, err := s.Observe(ctx)
		if err != nil {
			return "", false
		}
		out.After = obs
		got, n = find(obs)
	}
	return got, n == 1 && page.Norm(got) == page.Norm(want)
}
