//go:build heldout

package e2e

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on The Lounge, a web IRC client: its tests build only with -tags
// heldout, and TestHeldOutTheLounge is run once, at the end, against an agent nobody tuned
// to The Lounge. TestHeldOutTheLoungeJudge checks the harness alone, with no agent.

// loungeSignIn is the sign-in page, the page every goal starts at, written three ways
// (phrasing i uses the i-th); the password is granted by the worker and is in no goal.
var loungeSignIn = [3]string{
	`type "sam" into "Username", type "{{secret:thelounge_password}}" into "Password", click "Sign in"`,
	`fill Username with sam and Password with "{{secret:thelounge_password}}", then press Sign in`,
	`Sign in first: enter sam in the field labelled "Username", enter "{{secret:thelounge_password}}" in the field labelled "Password" and click the Sign in button.`,
}

// loungeText fills a phrasing in: {signin} is its way of signing in.
func loungeText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", loungeSignIn[i])
}

// TestHeldOutTheLounge drives The Lounge — a real application nobody here wrote: a web IRC
// client whose single-page app joins and leaves channels, sends messages, sets topics and
// nicks, adds networks and keeps settings — with everyday goals written three ways each,
// and no model. Each phrasing runs on a fresh instance (The Lounge and a private IRC
// server), starts at the sign-in page, signs in with a password the worker grants, and is
// judged twice: by the run's status and by what the instance holds (the user's file, the
// message log and the IRC server's topics).
// go test -tags heldout -run 'TestHeldOutTheLounge$' ./e2e/
func TestHeldOutTheLounge(t *testing.T) {
	if !testenv.TheLoungeInstalled() {
		t.Skip("The Lounge is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_THELOUNGE_PASSWORD="+testenv.TheLoungePassword,
		`WEBAGENT_SECRETS={"thelounge_password": {"from": "env:WEBAGENT_TEST_THELOUNGE_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(loungeGoals)), make([][]string, len(loungeGoals))
	for g, goal := range loungeGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartTheLounge(t)
		return poolRun(t, s, names[g], i+1, loungeText(p, i), w.URL, "The Lounge's user file, message log and IRC server",
			func() string { return loungeGoals[g].done(t, w) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.TheLoungePassword) {
			t.Errorf("The Lounge's password is in the history of %s", id)
		}
	})
}

// TestHeldOutTheLoungeJudge validates the harness without the agent: on a fresh instance
// the sign-in page and what the goals name are there and every judge says "not done"; each
// goal's effect, made through the web client's own protocol along the goal's path (signed
// in as the sign-in page does, each form's fields sent as the page fills them), makes its
// judge say "done" once The Lounge has saved it and leaves the other judges at "not done";
// a near miss of each leaves its judge at "not done"; and each phrasing, filled in, is a
// whole goal: it signs in its own way and leaves no placeholder but the granted password.
// go test -tags heldout -run 'TestHeldOutTheLoungeJudge$' ./e2e/
func TestHeldOutTheLoungeJudge(t *testing.T) {
	if !testenv.TheLoungeInstalled() {
		t.Skip("The Lounge is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartTheLounge(t)
	t.Logf("a fresh The Lounge and its IRC server were configured, started and joined in %s", time.Since(began).Round(time.Millisecond))
	loungeCheckFresh(t, fresh)
	for _, g := range loungeGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := loungeText(p, i)
			if !strings.Contains(text, loungeSignIn[i]) || strings.Contains(strings.ReplaceAll(text, "{{secret:thelounge_password}}", ""), "{") ||
				strings.Contains(text, testenv.TheLoungePassword) {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range loungeGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartTheLounge(t)
			b := w.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := testenv.Eventually(15*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range loungeGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartTheLounge(t)
			b := w.Browser()
			b.SignIn(t)
			g.miss(t, b)
			// The miss reaches the instance's storage as the effect would: wait until it is there.
			if why := testenv.Eventually(15*time.Second, func() string { return loungeChanged(w) }); why != "" {
				t.Fatalf("the near miss changed nothing: %s", why)
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// loungeCheckFresh checks what the goals rely on: the sign-in page, the sidebar once signed
// in (the network and its channels), the Connect page's defaults, and the instance as
// seeded (the user's file, the topics, no message sent).
func loungeCheckFresh(t *testing.T, w *testenv.TheLounge) {
	b := w.Browser()
	if page := b.Get(t, "/"); !strings.Contains(page, "The Lounge") || !strings.Contains(page, `id="app"`) {
		t.Errorf("the front page is not The Lounge's web client:\n%s", page)
	}
	b.SignIn(t)
	n := b.Network(t, testenv.TheLoungeNetwork)
	for _, c := range testenv.TheLoungeChannels {
		if _, ok := n.Channels[c.Name]; ok != c.Joined {
			t.Errorf("the sidebar shows %s under %s: %v, want %v", c.Name, n.Name, ok, c.Joined)
		}
	}
	f := b.ConnectForm(t)
	if f["host"] != "127.0.0.1" || f["port"] != strconv.Itoa(w.IRCPort) || f["name"] != testenv.TheLoungeNetwork {
		t.Errorf("the Connect page does not point at the private IRC server: %v", f)
	}
	if why := w.Differs(w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	s := w.Seed()
	for _, c := range testenv.TheLoungeChannels {
		if s.Topics[c.Name] != c.Topic {
			t.Errorf("the topic of %s is %q, want %q", c.Name, s.Topics[c.Name], c.Topic)
		}
	}
	if net := s.Network(testenv.TheLoungeNetwork); net == nil || net.Nick != testenv.TheLoungeNick || len(s.Said) != 0 {
		t.Errorf("the seed is not the user's one network, its nick %s and no message: %+v", testenv.TheLoungeNick, s)
	}
}
