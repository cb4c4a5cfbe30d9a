//go:build heldout

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Fossil: its tests build only with -tags heldout, and
// TestHeldOutFossil is run once, at the end, against an agent nobody tuned to Fossil.
// TestHeldOutFossilJudge checks the harness alone, with no agent.

// fossilSignIn is the Login page's form, written three ways (phrasing i uses the i-th);
// the password is granted by the worker and is in no goal.
var fossilSignIn = [3]string{
	`type "admin" into "User ID", type "{{secret:fossil_password}}" into "Password", click "Login"`,
	`fill "User ID" with "admin", fill "Password" with "{{secret:fossil_password}}" and press "Login"`,
	`type admin into the field labelled "User ID", then type "{{secret:fossil_password}}" into the Password field and click the Login button`,
}

// fossilText fills a phrasing in: {signin} is its way of signing in, {url} the server's root.
func fossilText(phrasing string, i int, f *testenv.Fossil) string {
	return strings.NewReplacer("{signin}", fossilSignIn[i], "{url}", f.URL).Replace(phrasing)
}

// TestHeldOutFossil drives Debian's Fossil — a real application nobody here wrote: wiki,
// tickets, technotes, forum and user administration — with everyday goals written three
// ways each, and no model. Each phrasing runs on a fresh repository, signs in through the
// Login page with a password the worker grants, and is judged twice: by the run's status
// and by the repository file. go test -tags heldout -run 'TestHeldOutFossil$' ./e2e/
func TestHeldOutFossil(t *testing.T) {
	if !testenv.FossilInstalled() {
		t.Skip("Fossil is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh server has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_FOSSIL_PASSWORD="+testenv.FossilPassword,
		`WEBAGENT_SECRETS={"fossil_password": {"from": "env:WEBAGENT_TEST_FOSSIL_PASSWORD", "sites": ["127.0.0.1"]}}`)
	var rows []poolRow
	for _, g := range fossilGoals {
		for i, p := range g.phrasings {
			// A harness that stops mid-way (t.Fatal) leaves the row at "not done".
			row := poolRow{goal: g.name, phrasing: i + 1, outcome: "not done", status: "no result", reason: "the harness stopped: see the subtest's log"}
			t.Run(fmt.Sprintf("%s/%d", g.name, i+1), func(t *testing.T) { row = runFossilGoal(t, s, g, i, p) })
			rows = append(rows, row)
		}
	}
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.FossilPassword) {
			t.Errorf("Fossil's password is in the history of %s", id)
		}
	})
}

// runFossilGoal runs one phrasing on a fresh repository and judges it; it never fails
// the test itself (the table at the end does).
func runFossilGoal(t *testing.T, s *stack, g fossilGoal, i int, p string) poolRow {
	f := testenv.StartFossil(t)
	text := fossilText(p, i, f)
	return poolRun(t, s, g.name, i+1, text, f.URL+"/login", "the repository", func() string { return g.done(t, f) })
}

// TestHeldOutFossilJudge validates the harness without the agent: on a fresh repository
// every judge says "not done"; each goal's effect, done through Fossil's own forms as its
// pages post them, makes its judge say "done" and leaves the other judges at "not done";
// and a near miss of each leaves its judge at "not done".
// go test -tags heldout -run TestHeldOutFossilJudge ./e2e/
func TestHeldOutFossilJudge(t *testing.T) {
	if !testenv.FossilInstalled() {
		t.Skip("Fossil is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartFossil(t)
	t.Logf("a fresh Fossil answered in %s", time.Since(began).Round(time.Millisecond))
	for _, g := range fossilGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh repository", g.name)
		}
		for i, p := range g.phrasings {
			if text := fossilText(p, i, fresh); !strings.Contains(text, fossilSignIn[i]) || strings.Contains(strings.ReplaceAll(text, "{{secret:fossil_password}}", ""), "{") {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range fossilGoals {
		t.Run(g.name, func(t *testing.T) {
			f := testenv.StartFossil(t)
			g.do(t, f, f.SignIn(t))
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, f) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range fossilGoals {
				if o.name != g.name && o.done(t, f) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			f := testenv.StartFossil(t)
			g.miss(t, f, f.SignIn(t))
			why := g.done(t, f)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}
