package driver_test

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/internal/lab"
	"github.com/webagent-dev/webagent/plan"
)

// TestVisibleMeansSeenByAPerson: "is visible" and "is not visible" judge what a person
// sees. Each task of the lab page is hidden the way some app hides a row (display: none
// by a class, with an edit field that keeps the name as its value; visibility: hidden;
// the hidden attribute; opacity 0; a collapsed box; placed off the page; a shadow root's
// host): once hidden, its name is not visible, and before, it is. Text hidden only from
// screen readers (aria-hidden) is seen; a screen-reader-only label is not.
func TestVisibleMeansSeenByAPerson(t *testing.T) {
	srv := httptest.NewServer(lab.New())
	defer srv.Close()
	s, _, err := newPool(t).Open(t.Context(), "seen", driver.OpenOptions{URL: srv.URL + "/static/lab/hidden.html"})
	if err != nil {
		t.Fatal(err)
	}
	holds := func(t *testing.T, text string, negated bool) bool {
		t.Helper()
		out, err := s.Do(t.Context(), plan.Step{Action: plan.Assert, Value: text, Negated: negated}, driver.DoOptions{WaitBudget: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		return out.OK
	}
	for _, tt := range []struct {
		text string
		seen bool
	}{
		{"Athena", true},   // aria-hidden: hidden from screen readers only
		{"Poseidon", true}, // a shown field's value
		{"Demeter", false}, // a screen-reader-only label
	} {
		t.Run(tt.text, func(t *testing.T) {
			if holds(t, tt.text, false) != tt.seen || holds(t, tt.text, true) == tt.seen {
				t.Errorf("%q: want seen %v", tt.text, tt.seen)
			}
		})
	}
	for _, tt := range []struct{ name, how string }{
		{"Apollo", "display: none by a class, its edit field holding the name"},
		{"Zeus", "visibility: hidden, its edit field holding the name"},
		{"Hera", "the hidden attribute"},
		{"Ares", "opacity 0"},
		{"Iris", "a box of height 0 that hides its overflow"},
		{"Nike", "placed off the page"},
		{"Hermes", "display: none on the host of the shadow root that holds it"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if !holds(t, tt.name, false) || holds(t, tt.name, true) {
				t.Fatalf("before it is hidden, %q should be visible and not 'not visible'", tt.name)
			}
			out, err := s.Do(t.Context(), plan.Step{Action: plan.Click, TargetDescription: `"Finish ` + tt.name + `"`}, driver.DoOptions{WaitBudget: time.Second})
			if err != nil || !out.OK {
				t.Fatalf("click Finish %s: %v %+v", tt.name, err, out.Feedback)
			}
			if !holds(t, tt.name, true) {
				t.Errorf("hidden by %s, %q should not be visible", tt.how, tt.name)
			}
			if holds(t, tt.name, false) {
				t.Errorf("hidden by %s, %q should not count as visible", tt.how, tt.name)
			}
		})
	}
}

// BenchmarkSeenText is the cost of one read of what a person sees, which an assertion
// repeats every 200 ms until it holds, against the document's rendered text it refines:
// go test -bench 'Text$' -run '^$' ./activities/browser/
func BenchmarkSeenText(b *testing.B) {
	s := benchSession(b)
	for b.Loop() {
		if _, err := s.SeenText(b.Context(), true); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVisibleText(b *testing.B) {
	s := benchSession(b)
	for b.Loop() {
		if _, err := s.VisibleText(b.Context()); err != nil {
			b.Fatal(err)
		}
	}
}
