//go:build heldout

package e2e

import (
	"context"
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

// The held-out check: Adminer's tests build only with -tags heldout, so that they are run
// at the end, against an agent nobody tuned to them. The goals are in
// heldout_adminer_goals_test.go.

// adminerOutcome is what became of one phrasing of one goal.
type adminerOutcome struct {
	goal     string
	phrasing int
	outcome  string // done and said, false success, not done
	status   string
	reason   string
}

const (
	adminerDoneSaid     = "done and said"
	adminerFalseSuccess = "false success"
	adminerNotDone      = "not done"
)

// TestHeldOutAdminer drives Adminer — Debian's database admin panel, a real application
// nobody here wrote — with everyday goals and no model: add a row with "New item", edit a
// row's field, delete a row, create a table, add a column, run an SQL command, find a row
// with a search and edit it. Each goal is written three ways, each run on a fresh SQLite
// file after signing in through Adminer's login form with a password the worker grants.
// A phrasing is done and said when the run says success, verified, and the SQLite file
// holds what was asked and nothing else changed; a success the file disagrees with is a
// false success. Never run it while building the agent: go test -tags heldout -run
// 'TestHeldOutAdminer$' ./e2e/ is the blind run, once.
func TestHeldOutAdminer(t *testing.T) {
	a := testenv.StartAdminer(t)
	s := newStack(t)
	// The password is the operator's: granted by name, for Adminer's origin only.
	s.poolWorker(t, "WEBAGENT_TEST_ADMINER_PASSWORD="+a.Password,
		`WEBAGENT_SECRETS={"adminer_password": {"from": "env:WEBAGENT_TEST_ADMINER_PASSWORD", "sites": ["`+strings.TrimSuffix(a.URL, "/")+`"]}}`)
	var outcomes []adminerOutcome
	for _, g := range adminerGoals {
		for i := range g.phrasings {
			o := adminerOutcome{goal: g.name, phrasing: i + 1, outcome: adminerNotDone, reason: "the run did not finish"}
			t.Run(fmt.Sprintf("%s/%d", g.name, i+1), func(t *testing.T) { runAdminerGoal(t, s, a, g, i, &o) })
			outcomes = append(outcomes, o)
		}
	}
	reportAdminer(t, outcomes)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, a.Password) {
			t.Errorf("Adminer's password is in the history of %s", id)
		}
	})
}

// runAdminerGoal runs one phrasing on a fresh database and records its outcome; a goal
// that fails is recorded, not fatal.
func runAdminerGoal(t *testing.T, s *stack, a *testenv.Adminer, g adminerGoal, i int, o *adminerOutcome) {
	d := a.NewDB(t)
	goal := adminerSignIn(i, d.Path) + g.phrasings[i]
	run := s.start(t, workflows.GoalInput{Goal: goal, StartURL: a.URL})
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	var res workflows.GoalResult
	err := workflows.ResultOf(&res, run.Get(ctx, &res))
	why := d.Eventually(5*time.Second, g.judge)
	said := err == nil && res.Execution.Status == workflows.StatusSuccess
	o.status = fmt.Sprintf("%s (verified %v)", res.Execution.Status, res.Validation.Verified)
	switch {
	case said && res.Validation.Verified && why == "":
		o.outcome, o.reason = adminerDoneSaid, ""
	case said && why != "":
		o.outcome, o.reason = adminerFalseSuccess, "the database disagrees: "+why
	case err != nil:
		o.reason = fmt.Sprintf("run %s: %v", run.GetID(), err)
	default:
		o.reason = res.Validation.Reason
		if why != "" {
			o.reason += "; the database: " + why
		} else {
			o.reason += "; the database holds the change"
		}
	}
	t.Logf("goal %q: %s, %s %s", goal, o.status, o.outcome, o.reason)
	if o.outcome != adminerDoneSaid {
		for _, st := range res.Steps {
			t.Logf("step %s %s: %v", st.Step, st.Status, st.Actions)
		}
		t.Logf("errors: %v", res.Errors)
	}
}

// reportAdminer logs the table of outcomes and fails on any false success, or when fewer
// than nine in ten phrasings were done and said.
func reportAdminer(t *testing.T, outcomes []adminerOutcome) {
	var b strings.Builder
	doneSaid, falseSuccess := 0, 0
	fmt.Fprintf(&b, "%-45s | %s | %-13s | %-28s | %s\n", "goal", "phrasing", "outcome", "status", "reason")
	for _, o := range outcomes {
		fmt.Fprintf(&b, "%-45s | %8d | %-13s | %-28s | %s\n", o.goal, o.phrasing, o.outcome, o.status, o.reason)
		switch o.outcome {
		case adminerDoneSaid:
			doneSaid++
		case adminerFalseSuccess:
			falseSuccess++
		}
	}
	fmt.Fprintf(&b, "done and said %d of %d, false successes %d", doneSaid, len(outcomes), falseSuccess)
	t.Log("Adminer, held out:\n" + b.String())
	if falseSuccess > 0 {
		t.Errorf("%d false successes: the run said success and the database disagrees", falseSuccess)
	}
	if doneSaid*10 < len(outcomes)*9 {
		t.Errorf("done and said %d of %d phrasings, under 90%%", doneSaid, len(outcomes))
	}
}

// TestHeldOutAdminerJudge checks the harness without the agent: on a fresh database every
// judge says not done; each goal's effect, done through Adminer's own forms as its pages
// post them, makes its judge say done (and no other goal's), and the page Adminer answers
// with shows what the phrasings check. Sign-in refuses a wrong password.
func TestHeldOutAdminerJudge(t *testing.T) {
	start := time.Now()
	a := testenv.StartAdminer(t)
	t.Logf("Adminer answered in %s", time.Since(start).Round(time.Millisecond))
	fresh := a.NewDB(t)
	for _, g := range adminerGoals {
		if why := g.judge(fresh); why == "" {
			t.Errorf("%s: the judge says done on a fresh database", g.name)
		}
	}
	if why := fresh.Unchanged(nil); why != "" {
		t.Fatalf("a fresh database is not the seed: %s", why)
	}
	if _, page := a.SignIn(t, fresh, "not-the-password"); !strings.Contains(page, "Database does not support password") || strings.Contains(page, "Logout") {
		t.Errorf("a wrong password was not refused:\n%s", adminerText(page))
	}
	if _, page := a.SignIn(t, fresh, a.Password); !strings.Contains(page, "Logout") || !strings.Contains(page, "customers") {
		t.Errorf("the password did not sign in:\n%s", adminerText(page))
	}
	for _, g := range adminerGoals {
		t.Run(g.name, func(t *testing.T) {
			d := a.NewDB(t)
			for i, p := range g.phrasings {
				if goal := adminerSignIn(i, d.Path) + p; !strings.Contains(goal, d.Path) || !strings.Contains(goal, "{{secret:adminer_password}}") {
					t.Errorf("phrasing %d does not sign in: %s", i+1, goal)
				}
			}
			sess, _ := a.SignIn(t, d, a.Password)
			text := adminerText(g.do(t, sess))
			for _, want := range g.shows {
				if !strings.Contains(text, want) {
					t.Errorf("the page after the effect does not show %q:\n%s", want, text)
				}
			}
			for _, gone := range g.hides {
				if strings.Contains(text, gone) {
					t.Errorf("the page after the effect still shows %q:\n%s", gone, text)
				}
			}
			if why := g.judge(d); why != "" {
				t.Errorf("the judge says not done after the effect: %s", why)
			}
			for _, h := range adminerGoals {
				if h.name != g.name && h.judge(d) == "" {
					t.Errorf("the judge of %q says done after the effect of %q", h.name, g.name)
				}
			}
		})
	}
}

var adminerTags = regexp.MustCompile(`(?s)<script.*?</script>|<[^>]*>`)

// adminerText is a page's text, roughly as a person reads it.
func adminerText(page string) string {
	return strings.Join(strings.Fields(html.UnescapeString(adminerTags.ReplaceAllString(page, " "))), " ")
}
