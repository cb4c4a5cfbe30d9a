//go:build heldout

package e2e

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Radicale: its tests build only with -tags heldout, and
// TestHeldOutRadicale is run once, at the end, against an agent nobody tuned to Radicale.
// TestHeldOutRadicaleJudge checks the harness alone, with no agent.

// radicaleSignIn is the web interface's Login form (its fields show "Username" and
// "Password" as placeholders, its button says "Next"), written three ways (phrasing i
// uses the i-th); the password is granted by the worker and is in no goal.
var radicaleSignIn = [3]string{
	`type "editor" into "Username", type "{{secret:radicale_password}}" into "Password", click "Next"`,
	`fill "Username" with "editor", fill "Password" with "{{secret:radicale_password}}" and press "Next"`,
	`type editor into the field labelled "Username", then type "{{secret:radicale_password}}" into the Password field and click the Next button`,
}

// radicaleText fills a phrasing in: {signin} is its way of signing in.
func radicaleText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", radicaleSignIn[i])
}

// TestHeldOutRadicale drives Debian's Radicale — a real application nobody here wrote: a
// CalDAV and CardDAV server whose web interface creates, edits and deletes calendars and
// address books — with everyday goals written three ways each, and no model. Each phrasing
// runs on a fresh, seeded instance, starts at its web interface, signs in through its
// Login form with a password the worker grants, and is judged twice: by the run's status
// and by Radicale's storage folder.
// go test -tags heldout -run 'TestHeldOutRadicale$' ./e2e/
func TestHeldOutRadicale(t *testing.T) {
	if !testenv.RadicaleInstalled() {
		t.Skip("Radicale is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh server has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_RADICALE_PASSWORD="+testenv.RadicalePassword,
		`WEBAGENT_SECRETS={"radicale_password": {"from": "env:WEBAGENT_TEST_RADICALE_PASSWORD", "sites": ["127.0.0.1"]}}`)
	var rows []poolRow
	for _, g := range radicaleGoals {
		for i, p := range g.phrasings {
			// A harness that stops mid-way (t.Fatal) leaves the row at "not done".
			row := poolRow{goal: g.name, phrasing: i + 1, outcome: "not done", status: "no result", reason: "the harness stopped: see the subtest's log"}
			t.Run(fmt.Sprintf("%s/%d", g.name, i+1), func(t *testing.T) { row = runRadicaleGoal(t, s, g, i, p) })
			rows = append(rows, row)
		}
	}
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.RadicalePassword) {
			t.Errorf("Radicale's password is in the history of %s", id)
		}
	})
}

// runRadicaleGoal runs one phrasing on a fresh instance and judges it; it never fails the
// test itself (the table at the end does).
func runRadicaleGoal(t *testing.T, s *stack, g radicaleGoal, i int, p string) poolRow {
	r := testenv.StartRadicale(t)
	return poolRun(t, s, g.name, i+1, radicaleText(p, i), r.URL, "the storage folder", func() string { return g.done(t, r) })
}

// TestHeldOutRadicaleJudge validates the harness without the agent: on a fresh instance
// the web interface answers and lists the seed, and every judge says "not done"; each
// goal's effect, made through the WebDAV requests the web interface's own forms send,
// makes its judge say "done" and leaves the other judges at "not done"; and a near miss
// of each leaves its judge at "not done".
// go test -tags heldout -run TestHeldOutRadicaleJudge ./e2e/
func TestHeldOutRadicaleJudge(t *testing.T) {
	if !testenv.RadicaleInstalled() {
		t.Skip("Radicale is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartRadicale(t)
	t.Logf("a fresh, seeded Radicale answered in %s", time.Since(began).Round(time.Millisecond))
	radicaleCheckFresh(t, fresh)
	for _, g := range radicaleGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if text := radicaleText(p, i); !strings.Contains(text, radicaleSignIn[i]) || strings.Contains(strings.ReplaceAll(text, "{{secret:radicale_password}}", ""), "{") {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range radicaleGoals {
		t.Run(g.name, func(t *testing.T) {
			r := testenv.StartRadicale(t)
			g.do(t, r, r.Client())
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, r) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range radicaleGoals {
				if o.name != g.name && o.done(t, r) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			r := testenv.StartRadicale(t)
			g.miss(t, r, r.Client())
			why := g.done(t, r)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// radicaleCheckFresh checks what the goals rely on: the web interface's page with its
// Login form and the Create link the goals name, the wrong password refused, and the
// seed listed as the collections page lists it, each with the title the goals name.
func radicaleCheckFresh(t *testing.T, r *testenv.Radicale) {
	resp, err := http.Get(r.URL)
	if err != nil {
		t.Fatalf("the web interface: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	page, status := string(body), resp.StatusCode
	for _, want := range []string{`placeholder="Username"`, `placeholder="Password"`, ">Next</button>", "Create new addressbook or calendar", ">Edit</a>", ">Delete</a>", ">Yes</button>"} {
		if status != 200 || !strings.Contains(page, want) {
			t.Errorf("the web interface answered %d without %s", status, want)
		}
	}
	req, _ := http.NewRequest("PROPFIND", r.Server+"/", nil)
	req.SetBasicAuth(r.User, r.Password+"x")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a wrong password was not refused: %v", err)
	} else {
		resp.Body.Close()
	}
	listed := r.Client().Collections(t)
	if len(listed) != len(testenv.RadicaleSeed) {
		t.Errorf("the collections page lists %+v", listed)
	}
	for _, f := range testenv.RadicaleSeed {
		got := r.Client().Form(t, f.DisplayName)
		if got.Href != r.Href(f.Href) || got.Type != f.Type || got.Description != f.Description || got.Color != f.Color {
			t.Errorf("the collections page lists %s as %+v", f.DisplayName, got)
		}
	}
}
