package driver_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/internal/lab"
	"github.com/webagent-dev/webagent/plan"
)

// TestPerception runs target descriptions against the lab pages beside the demo app — a
// form in an iframe, a button in a shadow root, icon-only buttons, rows with the same
// buttons, a button under an overlay, a button that moves after load — and checks that the
// right element is found and acted on, or, correctly, that none or several are.
func TestPerception(t *testing.T) {
	ctx := t.Context()
	srv := httptest.NewServer(lab.New())
	defer srv.Close()
	pool := newPool(t)
	tests := []struct {
		page, desc string
		action     plan.Action
		value      string
		// want is the resolved element's name, "" for none; several is the number of
		// tied candidates when none is chosen.
		want    string
		several int
		// after is text the page shows once the step is done.
		after string
	}{
		{"iframe", "Email", plan.Type, "ada@example.com", "Email", 0, ""},
		{"iframe", "Weekly digest", plan.Check, "true", "Weekly digest", 0, ""},
		{"iframe", "Subscribe", plan.Click, "", "Subscribe", 0, "Thanks for subscribing"},
		{"shadow", "Count", plan.Type, "5", "Count", 0, ""},
		{"shadow", "the Launch button", plan.Click, "", "Launch", 0, "Launched 5"},
		{"icons", "the trash can button", plan.Click, "", "", 0, "You deleted"},
		{"icons", "the star", plan.Click, "", "", 0, "You starred"},
		{"icons", `the "x" button`, plan.Click, "", "×", 0, "You closed"},
		{"icons", "Settings", plan.Click, "", "Settings", 0, "You settings"},
		{"icons", "the pencil", plan.Click, "", "", 0, ""},
		{"rows", "Edit", plan.Click, "", "", 3, ""},
		{"rows", `the second "Edit" button`, plan.Click, "", "Edit", 0, "Editing Zeus"},
		{"rows", `the last "Edit" button`, plan.Click, "", "Edit", 0, "Editing Hera"},
		{"rows", `"Edit" in the row "Apollo"`, plan.Click, "", "Edit", 0, "Editing Apollo"},
		{"overlay", "Buy now", plan.Click, "", "", 0, ""},
		{"overlay", "Accept cookies", plan.Click, "", "Accept cookies", 0, ""},
		{"overlay", "Buy now", plan.Click, "", "Buy now", 0, "Bought"},
		{"moving", "Continue", plan.Click, "", "Continue", 0, "Continued"},
		// Controls that are not buttons or links in the markup.
		{"widgets", `the "Closed" filter`, plan.Click, "", "Closed", 0, "Filter: Closed"},
		{"widgets", "Show all", plan.Click, "", "Show all", 0, "Filter: all"},
		{"widgets", "wiki", plan.Click, "", "wiki", 0, "Opened: wiki"},
		{"widgets", `the link "playground"`, plan.Click, "", "playground", 0, "Opened: playground"},
		{"widgets", "Last name", plan.Type, "Lovelace", "Last name", 0, ""},
		{"widgets", "the first name field", plan.Type, "Ada", "First name", 0, ""},
		{"widgets", "the text area", plan.Type, "hello", "Notes", 0, ""},
		{"widgets", "Due date", plan.Type, "04/08/2016", "Due date", 0, ""},
		{"widgets", "Reminder", plan.Type, "8:22 AM", "Reminder", 0, ""},
		{"widgets", `"Sweden" in the list`, plan.Click, "", "Sweden", 0, ""},
		// A list that takes several options: each named one, exactly, or none.
		{"widgets", `the "Toppings" list`, plan.Select, "Cheese, Olives and Basil", "Toppings", 0, ""},
		{"widgets", `the "Toppings" list`, plan.Select, "Ham and pineapple", "Toppings", 0, ""},
		{"widgets", `the "Send" button`, plan.Click, "", "Send", 0, "Sent for Ada Lovelace"},
		// A submenu opened by the pointer, not by a click (which would choose "Tools").
		{"widgets", `"Tools"`, plan.Hover, "", "Tools", 0, ""},
		{"widgets", `"Export"`, plan.Click, "", "Export", 0, "Chose: Export"},
		// A confirm() is dismissed unless the step asks to accept it.
		{"widgets", "Delete draft", plan.Click, "", "Delete draft", 0, "Draft kept"},
		// A read-only date field: its calendar is paged to the month and the day clicked.
		{"calendar", "Visit date", plan.Type, "02/03/2027", "Visit date", 0, "Visit on 02/03/2027"},
		{"calendar", "Visit date", plan.Select, "2026-09-30", "Visit date", 0, "Visit on 09/30/2026"},
		// What the page hides where a person looks: a tab that is not open, a submenu.
		{"panels", `the link "Quarterly report"`, plan.Click, "", "Quarterly report", 0, "Opened: Quarterly report"},
		{"panels", `the item "Export PDF"`, plan.Click, "", "Export PDF", 0, "Chose: Export PDF"},
		// Cards that open, with icons of their own, in a list: by sender, first of two.
		{"panels", `the email from "Bob"`, plan.Click, "", "", 0, "Opened mail 2"},
		{"panels", `the trash icon for "Ann"`, plan.Click, "", "", 2, ""},
		{"panels", `the first trash icon for "Ann"`, plan.Click, "", "", 0, "Deleted mail 1"},
		{"panels", `the second star icon for "Ann"`, plan.Click, "", "", 0, "Starred mail 3"},
		// A post a scroll away inside its box, by its author.
		{"panels", `the "Like" button for "@zed"`, plan.Click, "", "Like", 0, "Liked post 4"},
		// More controls than the list's cap: the open dialog is kept.
		{"long", "Confirm", plan.Click, "", "Confirm", 0, "Confirmed"},
	}
	sessions := map[string]*driver.Session{}
	for _, tt := range tests {
		t.Run(tt.page+": "+tt.desc, func(t *testing.T) {
			s := sessions[tt.page]
			if s == nil {
				var err error
				if s, _, err = pool.Open(t.Context(), tt.page, driver.OpenOptions{URL: srv.URL + "/static/lab/" + tt.page + ".html"}); err != nil {
					t.Fatal(err)
				}
				sessions[tt.page] = s
				if tt.page == "moving" {
					time.Sleep(600 * time.Millisecond) // let the banner push the button down
				}
			}
			out, err := s.Do(ctx, plan.Step{Action: tt.action, TargetDescription: tt.desc, Value: tt.value}, driver.DoOptions{WaitBudget: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			wantFound := tt.want != "" || (tt.several == 0 && tt.after != "")
			switch {
			case !wantFound && tt.several == 0:
				if out.Acted || out.Feedback == nil || out.Feedback.Type != plan.NotVisible {
					t.Fatalf("want nothing found, got target %v feedback %+v", out.Target, out.Feedback)
				}
			case !wantFound:
				if out.Acted || len(out.Candidates) != tt.several {
					t.Fatalf("want %d tied candidates, got %d (%+v)", tt.several, len(out.Candidates), out.Feedback)
				}
			default:
				if !out.OK {
					t.Fatalf("want success, got %+v\n%s", out.Feedback, out.Before.Compact())
				}
				if tt.want != "" && out.Target.Name != tt.want {
					t.Errorf("acted on %s, want %q", out.Target.Ref(), tt.want)
				}
			}
			if tt.after != "" {
				text, err := s.VisibleText(ctx)
				if err != nil || !strings.Contains(text, tt.after) {
					t.Errorf("the page should show %q after the step; it shows %q %v", tt.after, text, out.Actions)
				}
			}
		})
	}
}

// TestObservationSeesFramesAndShadowRoots checks what the element list says of them.
func TestObservationSeesFramesAndShadowRoots(t *testing.T) {
	ctx := t.Context()
	srv := httptest.NewServer(lab.New())
	defer srv.Close()
	pool := newPool(t)
	for name, want := range map[string]func(e page.Element) bool{
		"iframe": func(e page.Element) bool { return e.Name == "Email" && e.Frame == "Sign-up form" && e.Box.X > 0 },
		"shadow": func(e page.Element) bool { return e.Name == "Launch" && e.Shadow },
		"icons":  func(e page.Element) bool { return e.Name == "" && strings.Contains(e.Hints, "icon-trash") },
	} {
		s, _, err := pool.Open(t.Context(), name+"-obs", driver.OpenOptions{URL: srv.URL + "/static/lab/" + name + ".html"})
		if err != nil {
			t.Fatal(err)
		}
		obs, err := s.Observe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for i, e := range obs.Elements {
			if e.Index != i {
				t.Errorf("%s: element %d numbered %d", name, i, e.Index)
			}
			found = found || want(e)
		}
		if !found {
			t.Errorf("%s: the expected element is not in the list\n%s", name, obs.Compact())
		}
	}
}

// TestTypeAtAPoint: a TYPE decided as a point (the computer-use tool's type_text_at)
// clicks there and replaces what the field held, as a TYPE on an element does.
func TestTypeAtAPoint(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `<!doctype html><html lang="en"><head><title>Search</title></head><body style="margin:0">
<input id="q" value="old text" style="position:absolute;left:100px;top:100px;width:300px;height:40px">
<p id="echo" style="position:absolute;top:200px"></p>
<script>q.addEventListener("input", () => echo.textContent = "Searching for " + q.value)</script></body></html>`)
	}))
	defer srv.Close()
	s, _, err := newPool(t).Open(t.Context(), "type-at", driver.OpenOptions{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Do(t.Context(), plan.Step{Action: plan.Type, TargetDescription: "the search field", Value: "new words"},
		driver.DoOptions{Point: &[2]float64{200, 120}, WaitBudget: 300 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if text, err := s.VisibleText(t.Context()); err != nil || !strings.Contains(text, "Searching for new words") || strings.Contains(text, "old text") {
		t.Errorf("the field should hold only the typed text: %q %v", text, err)
	}
}

// TestSeveralOptionsExactly selects several options of a list that takes several, each
// named exactly, and refuses a list of which one part is no option: nothing is selected.
func TestSeveralOptionsExactly(t *testing.T) {
	ctx := t.Context()
	srv := httptest.NewServer(lab.New())
	defer srv.Close()
	s, _, err := newPool(t).Open(ctx, "several", driver.OpenOptions{URL: srv.URL + "/static/lab/widgets.html"})
	if err != nil {
		t.Fatal(err)
	}
	selected := func() string {
		v, err := s.VisibleText(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	out, err := s.Do(ctx, plan.Step{Action: plan.Select, TargetDescription: "Toppings", Value: "Cheese, Pizza"}, driver.DoOptions{WaitBudget: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if out.OK || out.Feedback == nil || !strings.Contains(out.Feedback.Details, `"Pizza"`) {
		t.Fatalf("a list with a part that is no option must fail, naming it; got %+v", out.Feedback)
	}
	if text := selected(); strings.Contains(text, "Cheese") && strings.Count(text, "Cheese") > 1 {
		t.Errorf("nothing may be selected: %q", text)
	}
	out, err = s.Do(ctx, plan.Step{Action: plan.Select, TargetDescription: "the Toppings list", Value: "Olive oil, Cheese"}, driver.DoOptions{WaitBudget: 300 * time.Millisecond})
	if err != nil || !out.OK {
		t.Fatalf("want both selected: %v %+v", err, out.Feedback)
	}
	if !slices.Contains(out.Actions, `selected "Olive oil", "Cheese" in `+out.Target.Ref()) {
		t.Errorf("the action should name both options: %q", out.Actions)
	}
}

// A click the page shows can land at once (in sight, enabled, not moving, not covered,
// where the observation saw it) is pressed without Playwright's own checks and their two
// frames' wait; any other is Playwright's, which waits, scrolls or fails as it does.
func TestClickPressedAtOnceOnlyWhereItLands(t *testing.T) {
	pool := newPool(t)
	s, _ := openLab(t, pool, "clicks", "clickpoint.html")
	for sel, want := range map[string]bool{
		"#plain": true, "#inner": true, "#shadowed": true,
		"#disabled": false, "#ariadisabled": false, "#covered": false, "#nopointer": false, "#sliding": false, "#below": false,
	} {
		if got, err := s.ClickableNow(sel, 0); err != nil || got != want {
			t.Errorf("%s: clickable at once %v (%v), want %v", sel, got, err, want)
		}
	}
	if got, err := s.ClickableNow("#plain", 10); err != nil || got {
		t.Errorf("a button that moved since it was seen: clickable at once %v (%v), want Playwright's click", got, err)
	}
	for _, c := range []struct{ desc, said string }{
		{"Plain", "Clicked plain"},
		{"In a shadow", "Clicked shadowed"},
		{"Below the fold", "Clicked below"},
	} {
		out, err := s.Do(t.Context(), plan.Step{Action: plan.Click, TargetDescription: c.desc}, driver.DoOptions{WaitBudget: time.Second})
		if err != nil || !out.OK {
			t.Fatalf("click %q: %v %+v", c.desc, err, out.Feedback)
		}
		if txt, _ := s.ShownText(t.Context()); !strings.Contains(txt, c.said) {
			t.Errorf("click %q: the page says %q, want %q", c.desc, txt, c.said)
		}
	}
}

// A wait is looked at again when it is over: the page it leaves is the one after it (a
// banner came in while it waited and pushed the button down), not the one its look saw.
func TestWaitSeesThePageItLeaves(t *testing.T) {
	pool := newPool(t)
	s, _ := openLab(t, pool, "moving", "moving.html")
	out, err := s.Do(t.Context(), plan.Step{Action: plan.Wait, Wait: time.Second}, driver.DoOptions{WaitBudget: time.Second})
	if err != nil || !out.OK {
		t.Fatalf("wait: %v %+v", err, out.Feedback)
	}
	for _, e := range out.After.Elements {
		if e.Name == "Continue" {
			if e.Box.Y < 300 {
				t.Errorf("after the wait, Continue is at y=%d: the page after it is the one before the banner came", e.Box.Y)
			}
			return
		}
	}
	t.Fatalf("no Continue after the wait: %s", out.After.Compact())
}
