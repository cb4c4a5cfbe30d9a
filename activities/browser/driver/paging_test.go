package driver_test

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/plan"
)

// TestPagedContactBook acts on the lab's contact book, three contacts a page over four
// pages, as a person does: a contact on another page is found by going to the next page
// until it shows, and the value named by its label is clicked in that contact's card. A
// contact on no page, or a label the card does not show, is refused and nothing is
// clicked (the server hears of every click on a value or a button, and of the page's form's
// "Next", which is not a pager's and is never paged with).
func TestPagedContactBook(t *testing.T) {
	pool := newPool(t)
	for _, tt := range []struct {
		name, goal string
		// clicked is what the page tells the server was clicked; "" is nothing.
		clicked string
		// why is in the refusal; "" is none.
		why string
	}{
		{"a value in a card on page 3", "Find Clementine Ward in the contact book and click on their phone number.", "Clementine Ward Phone", ""},
		{"an email on the first page", "Find Bob Stone in the contact book and click on his email address.", "Bob Stone Email", ""},
		{"a button in a row on page 4", `click the "Edit" button for "Jon Reyes"`, "Jon Reyes Edit", ""},
		{"a contact on no page", "Find Zeb Quill in the contact book and click on their phone number.", "", `"Zeb Quill" is not on any of the 4 pages`},
		{"a button in a row on no page", `click the "Edit" button for "Zeb Quill"`, "", `"Zeb Quill" is not on any of the 4 pages`},
		{"a label the card does not show", "Find Dora Finch in the contact book and click on her address.", "", `no label "address"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			s, app := openLab(t, pool, tt.name, "pages.html")
			steps, err := plan.Parse(tt.goal)
			if err != nil || len(steps) != 1 {
				t.Fatalf("%q planned as %v, %v", tt.goal, steps, err)
			}
			out, err := s.Do(ctx, plan.WithTargets(steps)[0], driver.DoOptions{WaitBudget: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: ok %v, actions %q, feedback %+v", steps[0], out.OK, out.Actions, out.Feedback)
			if tt.why == "" && !out.OK {
				t.Fatalf("refused: %+v", out.Feedback)
			}
			if tt.why != "" && (out.OK || out.Acted || out.Feedback == nil || !strings.Contains(out.Feedback.Details, tt.why)) {
				t.Fatalf("want a refusal saying %q, nothing done: ok %v, acted %v, %+v", tt.why, out.OK, out.Acted, out.Feedback)
			}
			got := labSaved(app, "pages", func(got string) bool { return got != "" && got != "null" })
			if tt.clicked == "" && got != "" && got != "null" {
				t.Errorf("nothing was to be clicked; the page says %s", got)
			}
			if tt.clicked != "" && !strings.Contains(got, `"`+tt.clicked+`"`) {
				t.Errorf("the page says %s was clicked; want %q", got, tt.clicked)
			}
		})
	}
}
