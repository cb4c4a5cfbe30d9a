//go:build heldout

package e2e

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on hledger-web's own pages: its tests build only with -tags heldout,
// and TestHeldOutHledger is run once, at the end, against an agent nobody tuned to
// hledger-web. TestHeldOutHledgerJudge checks the harness alone, with no agent.
//
// hledger-web has no user accounts and no sign-in page: what a visitor may do is set by
// its --capabilities option alone (--allow in later releases; view and add here), so the
// goals have no sign-in and the worker is granted no secret.

// TestHeldOutHledger drives Debian's hledger-web — a real application nobody here wrote:
// the web interface of hledger, a plain-text double-entry accounting tool, used here for
// what a person keeping a household's books does with it (record an expense, a transfer,
// a split purchase, a back-dated dinner, an income, a bill with an exact description, a
// credit card payment after looking at its register, a cash withdrawal) — with everyday
// goals written three ways each, and no model. Each phrasing runs on a fresh instance (its
// own journal file, seeded with four months of a household's transactions, in a temporary
// folder), starts at the General Journal page, and is judged twice: by the run's status
// and by the journal file as hledger reads it (hledger print -O json).
// go test -tags heldout -run 'TestHeldOutHledger$' ./e2e/
func TestHeldOutHledger(t *testing.T) {
	if !testenv.HledgerInstalled() {
		t.Skip("hledger-web is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	s.poolWorker(t)
	names, phrasings := make([]string, len(hledgerGoals)), make([][]string, len(hledgerGoals))
	for g, goal := range hledgerGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartHledger(t)
		return poolRun(t, s, names[g], i+1, p, w.URL, "the journal file as hledger reads it",
			func() string { return hledgerGoals[g].done(t, w) })
	})
	poolReport(t, rows)
}

// TestHeldOutHledgerJudge validates the harness without the agent: on a fresh instance
// the journal page, its add form, the sidebar's accounts and the register the goals open
// are there and every judge says "not done"; each goal's effect, made through the add
// form's own request, makes its judge say "done" and leaves the other judges at "not
// done"; a near miss of each changes the journal but leaves its judge at "not done"; and
// each phrasing reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutHledgerJudge$' ./e2e/
func TestHeldOutHledgerJudge(t *testing.T) {
	if !testenv.HledgerInstalled() {
		t.Skip("hledger-web is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartHledger(t)
	t.Logf("a fresh hledger-web was seeded and started in %s", time.Since(began).Round(time.Millisecond))
	hledgerCheckFresh(t, fresh)
	for _, g := range hledgerGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		if g.want.String() == g.miss.String() {
			t.Errorf("%s: the near miss is the goal itself", g.name)
		}
		for i, p := range g.phrasings {
			if strings.ContainsAny(p, "{}") || len(strings.Fields(p)) < 8 {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, p)
			}
			for _, value := range hledgerValues(g.want) {
				if !strings.Contains(p, value) {
					t.Errorf("%s, phrasing %d, does not give %q: %s", g.name, i+1, value, p)
				}
			}
		}
	}
	for _, g := range hledgerGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartHledger(t)
			g.do(t, w.Browser())
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range hledgerGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartHledger(t)
			g.doMiss(t, w.Browser())
			if w.Differs(t, w.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in the journal")
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// hledgerValues are the values a phrasing of the goal adding x must give: its date, its
// description, each posting's account, and each amount but the last (the one hledger
// balances), without its dollar sign and trailing zeros of whole dollars.
func hledgerValues(x testenv.HledgerTxn) []string {
	values := []string{x.Date, x.Description}
	for i, p := range x.Postings {
		values = append(values, p.Account)
		if i < len(x.Postings)-1 {
			values = append(values, strings.TrimSuffix(strings.TrimPrefix(p.Amount, "$"), ".00"))
		}
	}
	return values
}

// hledgerCheckFresh checks what the goals rely on: the journal page with its "Add a
// transaction" link and the form it opens (Date, Description, four rows of Account and
// Amount, the "add" button), the sidebar's link to each account the goals name, the
// Visa card's register with its running total and its link back to the journal, the
// scripts the form needs, and the journal as seeded (browsing the pages changes none of
// it).
func hledgerCheckFresh(t *testing.T, w *testenv.Hledger) {
	b := w.Browser()
	if page := b.Open(t, "/"); !strings.Contains(page, "<h2>General Journal</h2>") {
		t.Errorf("the root page is not the General Journal: %.300s", testenv.IcingaWebText(page))
	}
	page := b.Open(t, "/journal")
	for _, want := range []string{`id="addformlink"`, ">Add a transaction</a>", `id="addform"`, `action="` + w.Base + `/add"`,
		`name="date"`, `placeholder="Date"`, `placeholder="Description"`, ">add</button>", "<h2>General Journal</h2>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the journal page lacks %s", want)
		}
	}
	for n := 1; n <= 4; n++ {
		for _, field := range []string{"Account", "Amount"} {
			if want := `placeholder="` + field + " " + string(rune('0'+n)) + `"`; !strings.Contains(page, want) {
				t.Errorf("the add form lacks %s", want)
			}
		}
	}
	for _, a := range []string{hledgerChecking, hledgerSavings, hledgerCash, hledgerVisa, hledgerMastercard, hledgerGroceries,
		hledgerDining, hledgerHousehold, hledgerPower, hledgerFreelance, hledgerSalary} {
		if !strings.Contains(page, `href="`+w.Base+`/register?q=inacct%3A`+strings.ReplaceAll(url.QueryEscape(a), "+", "%20")) {
			t.Errorf("the sidebar has no link to the register of %s", a)
		}
	}
	if !strings.Contains(page, `title="Show transactions affecting this account and subaccounts">visa</a>`) {
		t.Errorf("the sidebar shows no account named visa")
	}
	// The register's page has the add form only as a dialog its link on the journal page
	// opens (the goal goes back there): its words are left out.
	reg, _, _ := strings.Cut(b.Register(t, hledgerVisa), `<div class="modal`)
	if !strings.Contains(reg, `href="`+w.Base+`/journal"`) || !strings.Contains(reg, "<h2>"+hledgerVisa+"</h2>") {
		t.Errorf("the Visa card's register has no heading naming it or no link back to the Journal")
	}
	reg = testenv.IcingaWebText(reg)
	for _, want := range []string{"Period Total", "Home Depot", testenv.HledgerVisaBalance + " 2026-11-16"} {
		if !strings.Contains(reg, want) {
			t.Errorf("the Visa card's register lacks %q: %.600s", want, reg)
		}
	}
	for _, asset := range []string{"/static/hledger.js", "/static/js/jquery.min.js", "/static/js/typeahead.bundle.min.js",
		"/static/js/bootstrap.min.js", "/static/js/bootstrap-datepicker.min.js", "/static/js/jquery.hotkeys.js"} {
		if len(b.Open(t, asset)) < 500 {
			t.Errorf("%s, which the page loads, is missing or empty", asset)
		}
	}
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
}
