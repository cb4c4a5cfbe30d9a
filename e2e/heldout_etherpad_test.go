//go:build heldout

package e2e

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Etherpad: its tests build only with -tags heldout, and
// TestHeldOutEtherpad is run once, at the end, against an agent nobody tuned to Etherpad.
// TestHeldOutEtherpadJudge checks the harness alone, with no agent.
//
// Etherpad's pads have no sign-in page: anyone who can reach the server opens a pad by its
// name. Its admin pages ask for HTTP basic auth (a browser prompt rather than a page), so
// no goal goes there, no goal signs in and no secret is granted; the admin's password is
// still checked to be in no run's history.

// TestHeldOutEtherpad drives Etherpad 1.8.14 — a real application nobody here wrote: a
// collaborative text editor whose pads, authorship colours, chats and authors' names are
// kept in a key-value database — with everyday goals written three ways each, and no
// model. Each phrasing runs on a fresh, seeded instance, starts at its home page and is
// judged twice: by the run's status and by Etherpad's database file.
// go test -tags heldout -run 'TestHeldOutEtherpad$' ./e2e/
func TestHeldOutEtherpad(t *testing.T) {
	if !testenv.EtherpadInstalled() {
		t.Skip("Etherpad is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	s.poolWorker(t)
	names, phrasings := make([]string, len(etherpadGoals)), make([][]string, len(etherpadGoals))
	for g, goal := range etherpadGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		e := testenv.StartEtherpad(t)
		return poolRun(t, s, names[g], i+1, p, e.URL, "Etherpad's database",
			func() string { return etherpadGoals[g].done(t, e) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.EtherpadAdminPassword) {
			t.Errorf("Etherpad's admin password is in the history of %s", id)
		}
	})
}

// TestHeldOutEtherpadJudge validates the harness without the agent: on a fresh instance
// the home page and the pads the goals open are there and every judge says "not done";
// each goal's effect, made through Etherpad's own pages along the goal's path (the pad's
// page, then the messages it sends over socket.io: changesets, chat messages, the user's
// name), makes its judge say "done" and leaves the other judges at "not done"; a near miss
// of each leaves its judge at "not done"; and each phrasing reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutEtherpadJudge$' ./e2e/
func TestHeldOutEtherpadJudge(t *testing.T) {
	if !testenv.EtherpadInstalled() {
		t.Skip("Etherpad is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartEtherpad(t)
	t.Logf("a fresh Etherpad was started and seeded in %s", time.Since(began).Round(time.Millisecond))
	etherpadCheckFresh(t, fresh)
	for _, g := range etherpadGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if strings.ContainsAny(p, "{}") || strings.Contains(p, testenv.EtherpadAdminPassword) || len(strings.Fields(p)) < 12 {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, p)
			}
		}
	}
	for _, g := range etherpadGoals {
		t.Run(g.name, func(t *testing.T) {
			e := testenv.StartEtherpad(t)
			g.do(t, e.Browser())
			if why := testenv.Eventually(10*time.Second, func() string { return g.done(t, e) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range etherpadGoals {
				if o.name != g.name && o.done(t, e) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			e := testenv.StartEtherpad(t)
			g.miss(t, e.Browser())
			changed := func() string {
				if e.Differs(t, e.Seed()) == "" {
					return "nothing changed yet"
				}
				return ""
			}
			if testenv.Eventually(10*time.Second, changed) != "" {
				t.Fatalf("the near miss changed nothing in the database")
			}
			why := g.done(t, e)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// etherpadCheckFresh checks what the goals rely on: the home page's name box, each seed
// pad's page with the toolbar buttons, chat and user list the goals name, the locale's
// words for them, the admin pages behind the admin's password, and the database as seeded
// (opening the pages changes none of it).
func etherpadCheckFresh(t *testing.T, e *testenv.Etherpad) {
	b := e.Browser()
	_, home := b.Get(t, "/")
	for _, id := range []string{"index.newPad", "index.createOpenPad"} {
		if !testenv.EtherpadHasL10n(home, id) {
			t.Errorf("the home page lacks %s", id)
		}
	}
	if !strings.Contains(home, `id="padname"`) || !strings.Contains(home, `>OK</button>`) {
		t.Errorf("the home page lacks its pad name box or its OK button")
	}
	_, locale := b.Get(t, "/locales/en.json")
	for _, want := range []string{"or create/open a Pad with the name:", "Unordered List", "Clear Authorship Colors",
		"Show the users on this pad", "Enter your name", "Write your message here", "Clear authorship colors on entire document?"} {
		if !strings.Contains(locale, want) {
			t.Errorf("the English locale lacks %q", want)
		}
	}
	for _, sp := range testenv.EtherpadSeedPads {
		_, page := b.Get(t, "/p/"+sp.ID)
		for _, id := range []string{"pad.toolbar.ul.title", "pad.toolbar.clearAuthorship.title", "pad.toolbar.showusers.title",
			"pad.userlist.entername", "pad.chat.writeMessage.placeholder"} {
			if !testenv.EtherpadHasL10n(page, id) {
				t.Errorf("the page of pad %s lacks %s", sp.ID, id)
			}
		}
		if p := b.Open(t, sp.ID); !strings.Contains(p.Text(), strings.Split(sp.Edits[0][1], "\n")[1]) {
			t.Errorf("pad %s does not hold its seed's text: %q", sp.ID, p.Text())
		}
	}
	etherpadCheckAdmin(t, e)
	if why := e.Differs(t, testenv.EtherpadSeedState()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	if why := e.Differs(t, e.Seed()); why != "" {
		t.Errorf("opening the pads changed the database: %s", why)
	}
}

// etherpadCheckAdmin checks that /admin asks for a password and lets the admin in.
func etherpadCheckAdmin(t *testing.T, e *testenv.Etherpad) {
	resp, err := http.Get(e.Base + "/admin/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	req, _ := http.NewRequest(http.MethodGet, e.Base+"/admin/", nil)
	req.SetBasicAuth(e.Admin, e.Password)
	signed, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	signed.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || signed.StatusCode != http.StatusOK {
		t.Errorf("/admin answers %d without the admin's password and %d with it", resp.StatusCode, signed.StatusCode)
	}
}
