//go:build heldout

package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on EtherCalc's own pages: its tests build only with -tags heldout, and
// TestHeldOutEthercalc is run once, at the end, against an agent nobody tuned to EtherCalc.
// TestHeldOutEthercalcJudge checks the harness alone, with no agent.

// TestHeldOutEthercalc drives npm's EtherCalc — a real application nobody here wrote: a
// multi-user web spreadsheet, used here for what a person does with one (set a cell, fix a
// label, change a formula, clear a cell, make a cell bold, insert and delete a row, sort a
// range) — with everyday goals written three ways each, and no model. Each phrasing runs
// on a fresh instance (its own Redis holding the seed's sheets), starts at the page of the
// sheet the goal is about, and is judged twice: by the run's status and by every sheet as
// EtherCalc keeps it, read back through its REST API. EtherCalc has no sign-in, so the goals have
// none and the worker is granted no secret.
// go test -tags heldout -run 'TestHeldOutEthercalc$' ./e2e/
func TestHeldOutEthercalc(t *testing.T) {
	if !testenv.EthercalcInstalled() {
		t.Skip("EtherCalc is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	s.poolWorker(t)
	names, phrasings := make([]string, len(ethercalcGoals)), make([][]string, len(ethercalcGoals))
	for g, goal := range ethercalcGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartEthercalc(t)
		return poolRun(t, s, names[g], i+1, p, w.URL(ethercalcGoals[g].sheet), "EtherCalc's sheets",
			func() string { return ethercalcGoals[g].done(t, w) })
	})
	poolReport(t, rows)
}

// TestHeldOutEthercalcJudge validates the harness without the agent: on a fresh instance
// the sheets' pages, the scripts that draw their grid, tabs and buttons, and the socket
// their edits go through are there, and every judge says "not done"; each goal's effect,
// made as the SocialCalc commands the page sends, makes its judge say "done" and leaves the
// other judges at "not done"; a near miss of each changes a sheet but leaves its judge at
// "not done"; and each phrasing reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutEthercalcJudge$' ./e2e/
func TestHeldOutEthercalcJudge(t *testing.T) {
	if !testenv.EthercalcInstalled() {
		t.Skip("EtherCalc is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartEthercalc(t)
	t.Logf("a fresh EtherCalc was seeded and started in %s", time.Since(began).Round(time.Millisecond))
	ethercalcCheckFresh(t, fresh)
	for _, g := range ethercalcGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if strings.ContainsAny(p, "{}") || len(strings.Fields(p)) < 8 {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, p)
			}
		}
	}
	for _, g := range ethercalcGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartEthercalc(t)
			g.do(t, w.Browser())
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range ethercalcGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartEthercalc(t)
			g.miss(t, w.Browser())
			if testenv.Eventually(5*time.Second, func() string {
				if w.Differs(t, w.Seed()) == "" {
					return "the near miss changed nothing yet"
				}
				return ""
			}) != "" {
				t.Fatalf("the near miss changed no sheet")
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// ethercalcCheckFresh checks what the goals rely on: each sheet's page (EtherCalc's page,
// which loads the sheet by its address), the scripts it loads, with the tabs, buttons and
// settings the goals name, the socket its edits go through, each sheet's values as the
// seed has them, and the sheets as seeded (reading them changes nothing).
func ethercalcCheckFresh(t *testing.T, w *testenv.Ethercalc) {
	b := w.Browser()
	if got, want := w.Sheets(t), ethercalcSeedNames(); !slices.Equal(got, want) {
		t.Errorf("the instance holds the sheets %q, not %q", got, want)
	}
	for _, name := range ethercalcSeedNames() {
		page := b.Open(t, "/"+name)
		for _, s := range []string{"./static/ethercalc.js", "./socket.io/socket.io.js", "./zappa/zappa.js", "./l10n/"} {
			if !strings.Contains(page, s) {
				t.Errorf("the page of %s does not load %s", name, s)
			}
		}
	}
	script := b.Open(t, "/static/ethercalc.js")
	for _, s := range []string{`text:"Edit"`, `text:"Format"`, `text:"Sort"`, "Insert Row Before", "Delete Row", "Delete Cell Contents",
		"Bold &amp; Italics", "%loc!Bold!:normal bold", "Major Sort", `LocalizeString("Sort ")+`, `value="%loc!OK!"`, `LocalizeString("Save to")+": "`} {
		if !strings.Contains(script, s) {
			t.Errorf("the page's script has no %s", s)
		}
	}
	for _, asset := range []string{"/socket.io/socket.io.js", "/zappa/zappa.js", "/l10n/en.json", "/static/socialcalc.css"} {
		if len(b.Open(t, asset)) < 500 {
			t.Errorf("%s, which the page loads, is missing or empty", asset)
		}
	}
	if hs := b.Open(t, "/socket.io/?EIO=2&transport=polling"); !strings.Contains(hs, `"sid"`) {
		t.Errorf("the socket the page sends its edits through does not answer: %.200q", hs)
	}
	budget := b.CSV(t, ethercalcBudget)
	for _, line := range []string{"Category,Budget,Spent,Note", "Eletricity,85,79,", "Phone,35,35,TBD", "Total,1810,1831,"} {
		if !strings.Contains(budget, line) {
			t.Errorf("the budget's values have no line %q:\n%s", line, budget)
		}
	}
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
}

// ethercalcSeedNames are the seed's sheet names, sorted.
func ethercalcSeedNames() []string {
	var names []string
	for _, s := range testenv.EthercalcSeed {
		names = append(names, s.Name)
	}
	slices.Sort(names)
	return names
}
