package driver_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/internal/lab"
	"github.com/webagent-dev/webagent/plan"
)

// TestEveryPartOfATarget clicks descriptions on the lab pages made for one part each —
// kind, ordinal, row, container, an exact name in a tie — where an element satisfies some
// parts and not all, so a wrong pick is possible. Each page writes what was clicked: the
// test fails when the wrong element is, and when a refusal clicked anything at all.
func TestEveryPartOfATarget(t *testing.T) {
	srv := httptest.NewServer(lab.New())
	defer srv.Close()
	pool := newPool(t)
	tests := []struct {
		page string
		// before are clicks that set the page up.
		before []string
		desc   string
		// said is what the page says once the right element is clicked; "" when the
		// description fits no element and nothing may be clicked.
		said string
		// refusal is part of the reason given when nothing is clicked.
		refusal string
	}{
		{"part-row", nil, `the trash icon in the email from "Helena"`, "Deleted: Helena", ""},
		{"part-row", nil, `the star icon in the email from "Omar"`, "Starred: Omar", ""},
		{"part-row", nil, `the email from "Helena"`, "Opened: Helena", ""},
		{"part-row", nil, `the trash icon in the email from "Zed"`, "", `email from "Zed"`},
		{"part-ordinal", nil, "the 2nd search result link", "Clicked result: How search results are ranked", ""},
		{"part-ordinal", nil, "the last search result link", "Clicked result: Ranking signals, a primer", ""},
		{"part-ordinal", []string{"Next page"}, "the 2nd search result link", "", "only 1 search result link; the 2nd was asked"},
		{"part-kind", nil, `the "Reports" checkbox`, "Ticked: Email reports", ""},
		{"part-kind", nil, `the "Reports" link`, "Clicked: Reports link", ""},
		{"part-kind", nil, `the "Help" button`, "", `is named so but is not a button`},
		{"part-container", nil, `the Empty button inside the "Trash" panel`, "Emptied: Trash", ""},
		{"part-container", nil, `the "Empty" button in the "Inbox" form`, "Emptied: Inbox", ""},
		{"part-container", nil, `the "Empty" button in the "Spam" panel`, "", `in the panel "Spam"`},
		{"part-tie", nil, `"Log in"`, "Clicked: Log in", ""},
		{"part-tie", nil, `"Help"`, "Clicked: Help link", ""},
		{"part-tie", nil, `the "Sign up" link`, "", "2 elements match"},
	}
	for i, tt := range tests {
		t.Run(tt.page+": "+tt.desc, func(t *testing.T) {
			ctx := t.Context()
			id := tt.page + string(rune('a'+i))
			s, _, err := pool.Open(ctx, id, driver.OpenOptions{URL: srv.URL + "/static/lab/" + tt.page + ".html"})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _, _ = pool.Close(id) }()
			opts := driver.DoOptions{WaitBudget: 300 * time.Millisecond}
			for _, b := range tt.before {
				if out, err := s.Do(ctx, plan.Step{Action: plan.Click, TargetDescription: b}, opts); err != nil || !out.OK {
					t.Fatalf("setting up with %q: %v %+v", b, err, out.Feedback)
				}
			}
			was, err := s.VisibleText(ctx)
			if err != nil {
				t.Fatal(err)
			}
			out, err := s.Do(ctx, plan.Step{Action: plan.Click, TargetDescription: tt.desc}, opts)
			if err != nil {
				t.Fatal(err)
			}
			text, err := s.VisibleText(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if tt.said != "" {
				if !out.OK || !strings.Contains(text, tt.said) {
					t.Fatalf("want the page to say %q; clicked %s, feedback %+v, page: %q", tt.said, out.Target.Ref(), out.Feedback, text)
				}
				return
			}
			if out.Acted || text != was {
				t.Fatalf("nothing fits every part, yet %s was clicked; the page went from %q to %q", out.Target.Ref(), was, text)
			}
			if out.Feedback == nil || !strings.Contains(out.Feedback.Details, tt.refusal) {
				t.Errorf("the refusal should say %q: %+v", tt.refusal, out.Feedback)
			}
		})
	}
}
