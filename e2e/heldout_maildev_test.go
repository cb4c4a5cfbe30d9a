//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on MailDev's web interface: its tests build only with -tags heldout,
// and TestHeldOutMaildev is run once, at the end, against an agent nobody tuned to
// MailDev. TestHeldOutMaildevJudge checks the harness alone, with no agent.

// TestHeldOutMaildev drives npm's MailDev — a real application nobody here wrote: an SMTP
// server that catches the mail an application sends while it is developed, with a web
// interface to read it, used here for what a developer does with one (open a mail among
// similar ones, delete one, several or all of them, mark them all read, relay one to its
// recipients or to another address) — with everyday goals written three ways each, and no
// model. Each phrasing runs on a fresh instance (its own mail folder, seeded by mail sent
// to its SMTP port, and its own relay sink), starts at the web interface's page, and is
// judged twice: by the run's status and by MailDev's own store (its REST API and mail
// folder) and what the relay sink took. MailDev asks for credentials by HTTP Basic alone,
// so its instances have no sign-in (see testenv.Maildev) and the worker is granted no
// secret.
// go test -tags heldout -run 'TestHeldOutMaildev$' ./e2e/
func TestHeldOutMaildev(t *testing.T) {
	if !testenv.MaildevInstalled() {
		t.Skip("MailDev is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	s.poolWorker(t)
	names, phrasings := make([]string, len(maildevGoals)), make([][]string, len(maildevGoals))
	for g, goal := range maildevGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartMaildev(t)
		return poolRun(t, s, names[g], i+1, p, w.URL, "MailDev's store and its relay sink",
			func() string { return maildevGoals[g].done(t, w) })
	})
	poolReport(t, rows)
}

// TestHeldOutMaildevJudge validates the harness without the agent: on a fresh instance
// the page, the controls the goals name and the seed's mails are there and every judge
// says "not done"; each goal's effect, made through MailDev's own REST calls (those its
// page sends), makes its judge say "done" and leaves the other judges at "not done"; a
// near miss of each changes the store but leaves its judge at "not done"; and each
// phrasing reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutMaildevJudge$' ./e2e/
func TestHeldOutMaildevJudge(t *testing.T) {
	if !testenv.MaildevInstalled() {
		t.Skip("MailDev is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartMaildev(t)
	t.Logf("a fresh MailDev and its relay sink were started and seeded in %s", time.Since(began).Round(time.Millisecond))
	maildevCheckFresh(t, fresh)
	for _, g := range maildevGoals {
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
	for _, g := range maildevGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartMaildev(t)
			g.do(t, w.Browser())
			if why := testenv.Eventually(5*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range maildevGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartMaildev(t)
			g.miss(t, w.Browser())
			if w.Differs(t, w.Seed()) == "" {
				t.Fatalf("the near miss changed nothing in MailDev's store or its sink")
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// maildevCheckFresh checks what the goals rely on: the page and the script it loads,
// which holds every control the goals name; the list (GET /api/email/summary) with every
// seeded mail, newest first, and those read before; the relay configured (the page shows
// Relay email only then); and the store as seeded (loading the page and the list marks
// nothing read).
func maildevCheckFresh(t *testing.T, w *testenv.Maildev) {
	b := w.Browser()
	page := b.Open(t, "/")
	if !strings.Contains(page, "<title>MailDev</title>") || !strings.Contains(page, `<div id="root">`) {
		t.Errorf("the page is not MailDev's: %s", page)
	}
	script := maildevScript(t, b, page)
	for _, want := range []string{`"Mark all as read"`, `"Delete all emails"`, "Confirm", `"Delete email"`, `"Relay email"`,
		"Relay to custom address", "Relay to original recipients", "email@example.com", `"Send"`,
		"Relay this email to the original recipients?", "Relay this email to "} {
		if !strings.Contains(script, want) {
			t.Errorf("the page's script has no %s", want)
		}
	}
	if cfg := b.Open(t, "/api/config"); !strings.Contains(cfg, `"isOutgoingEnabled":true`) {
		t.Errorf("MailDev has no outgoing server, so its page offers no relay: %s", cfg)
	}
	list := b.Open(t, "/api/email/summary")
	last := -1
	for i := len(testenv.MaildevSeed) - 1; i >= 0; i-- {
		m := testenv.MaildevSeed[i]
		at := strings.Index(list[last+1:], `"subject":"`+m.Subject+`"`)
		if at < 0 {
			t.Errorf("the list lacks %q after the mails sent after it: %s", m.Key(), list)
			continue
		}
		last += 1 + at
	}
	// Its own count of unread mails is not read: MailDev 3.0.0 does not lower it when a
	// mail is opened. Each mail's read flag is right.
	if n := strings.Count(list, `"read":true`); n != maildevRead() {
		t.Errorf("the list shows %d mails read, not %d: %s", n, maildevRead(), list)
	}
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	if len(w.Sink()) != 0 {
		t.Errorf("the relay sink took mail before any goal: %v", w.Sink())
	}
}
