package driver_test

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/plan"
)

// TestSignInByItsParts signs in as people write it ("log in as admin with the password
// …"), naming no field: on a page whose sign-in form calls its fields "Account" and
// "Secret phrase" and its button "GO!", beside a sign-up form with two passwords and
// under a search box. Two forms that could each sign in, or none, are refused with the
// reason, and nothing is typed.
func TestSignInByItsParts(t *testing.T) {
	pool := newPool(t)
	for i, goal := range []string{
		`log in as admin with the password "s3cret"`,
		`Sign in as admin using the password s3cret and press GO!`,
		`sign in with the username admin and the password "s3cret".`,
	} {
		t.Run(string(rune('a'+i)), func(t *testing.T) {
			steps, err := plan.Parse(goal)
			if err != nil {
				t.Fatalf("%q: %v", goal, err)
			}
			s, app := openLab(t, pool, "signin-"+string(rune('a'+i)), "unseen-gate.html")
			for _, step := range steps {
				out, err := s.Do(t.Context(), step, driver.DoOptions{WaitBudget: 2 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				if !out.OK {
					t.Fatalf("%s: %+v (actions %q)\n%s", step, out.Feedback, out.Actions, out.Before.Compact())
				}
			}
			want := `{"user":"admin","ok":true}`
			if got := labSaved(app, "gate", holds(want)); got != want {
				t.Errorf("%q: the page saved %s; want %s", goal, got, want)
			}
		})
	}
	for _, tt := range []struct{ name, page, why string }{
		{"two forms that each sign in", "unseen-gate.html#two", "2 forms in sight each hold a password field"},
		{"no password in sight", "unseen-issue.html", "no password field"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			steps, err := plan.Parse(`log in as admin with the password "s3cret"`)
			if err != nil {
				t.Fatal(err)
			}
			s, app := openLab(t, pool, "signin-"+strings.ReplaceAll(tt.name, " ", "-"), tt.page)
			out, err := s.Do(t.Context(), steps[0], driver.DoOptions{WaitBudget: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if out.OK || out.Acted || out.Feedback == nil || !strings.Contains(out.Feedback.Details, tt.why) {
				t.Fatalf("want a refusal saying %q, got ok=%v acted=%v %+v", tt.why, out.OK, out.Acted, out.Feedback)
			}
			if got := string(app.LabState("gate")); got != "null" && got != "" {
				t.Errorf("the page saved %s", got)
			}
		})
	}
}
