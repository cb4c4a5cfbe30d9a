//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Supervisor's web interface: its tests build only with -tags
// heldout, and TestHeldOutSupervisor is run once, at the end, against an agent nobody
// tuned to Supervisor. TestHeldOutSupervisorJudge checks the harness alone, with no agent.
//
// Supervisor's web interface can only ask for HTTP Basic credentials (it has no sign-in
// page), so each instance's is open to 127.0.0.1 without authentication, as Supervisor
// is when no username is set: the goals have no sign-in and the worker is granted no
// secret.

// TestHeldOutSupervisor drives Debian's Supervisor — a real application nobody here
// wrote: a process control system whose web interface starts, stops and restarts the
// programs it runs, clears their logs and stops or restarts them all — with everyday
// goals written three ways each, and no model. Each phrasing runs on a fresh instance (a
// supervisord of its own with its own configuration, programs and logs in a temporary
// folder), starts at the status page, and is judged twice: by the run's status and by
// supervisord's state (supervisorctl status) and the programs' log files.
// go test -tags heldout -run 'TestHeldOutSupervisor$' ./e2e/
func TestHeldOutSupervisor(t *testing.T) {
	if !testenv.SupervisorInstalled() {
		t.Skip("Supervisor is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	s.poolWorker(t)
	names, phrasings := make([]string, len(supervisorGoals)), make([][]string, len(supervisorGoals))
	for g, goal := range supervisorGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartSupervisor(t)
		return poolRun(t, s, names[g], i+1, p, w.URL, "supervisord's state and the programs' logs",
			func() string { return supervisorGoals[g].done(t, w) })
	})
	poolReport(t, rows)
}

// TestHeldOutSupervisorJudge validates the harness without the agent: on a fresh
// instance the status page and what the goals name are there and every judge says "not
// done"; each goal's effect, made through the status page's own links, makes its judge
// say "done" and leaves the other judges at "not done"; a near miss of each leaves its
// judge at "not done"; and each phrasing reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutSupervisorJudge$' ./e2e/
func TestHeldOutSupervisorJudge(t *testing.T) {
	if !testenv.SupervisorInstalled() {
		t.Skip("Supervisor is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartSupervisor(t)
	t.Logf("a fresh supervisord was made, started and settled in %s", time.Since(began).Round(time.Millisecond))
	supervisorCheckFresh(t, fresh)
	for _, g := range supervisorGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			if strings.ContainsAny(p, "{}") || len(strings.Fields(p)) < 4 {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, p)
			}
		}
	}
	for _, g := range supervisorGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartSupervisor(t)
			g.do(t, w.Browser())
			if why := testenv.Eventually(10*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range supervisorGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartSupervisor(t)
			g.miss(t, w.Browser())
			if testenv.Eventually(5*time.Second, func() string { return w.Differs(t, w.Seed()) }) == "" {
				t.Fatalf("the near miss changed nothing in supervisord's state or the logs")
			}
			time.Sleep(2 * time.Second) // what a slow judge would see
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// supervisorCheckFresh checks what the goals rely on: the status page's buttons, each
// seed program's row with its state and the links the goals click, and the state as
// seeded (browsing the page changes none of it).
func supervisorCheckFresh(t *testing.T, w *testenv.Supervisor) {
	b := w.Browser()
	page := b.Open(t, "/")
	text := testenv.IcingaWebText(page)
	for _, want := range []string{"State", "Description", "Name", "Action", "Refresh", "Restart All", "Stop All"} {
		if !strings.Contains(text, want) {
			t.Errorf("the status page lacks %q: %s", want, text)
		}
	}
	for _, p := range testenv.SupervisorSeedPrograms {
		state, link := "running", "Restart"
		switch {
		case p.Once:
			state, link = "exited", "Start"
		case !p.AutoStart:
			state, link = "stopped", "Start"
		}
		if !strings.Contains(text, state+" ") || !strings.Contains(text, p.ShownName()) {
			t.Errorf("the status page lacks %s, %s: %s", p.ShownName(), state, text)
		}
		if !strings.Contains(page, "processname="+strings.ReplaceAll(p.ShownName(), ":", "%3A")+"&amp;action="+strings.ToLower(link)) {
			t.Errorf("the row of %s has no %s link", p.ShownName(), link)
		}
	}
	if len(b.Open(t, "/stylesheets/supervisor.css")) < 500 {
		t.Errorf("the status page's stylesheet is missing or empty")
	}
	b.Open(t, "/")
	b.Click(t, "Refresh")
	if !strings.Contains(b.Message(), "Page refreshed at") {
		t.Errorf("Refresh did not say the page was refreshed: %q", b.Message())
	}
	if why := w.Differs(t, w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	s := w.Seed()
	if s["state of queue-worker-2"] != "RUNNING" || s["state of report-weekly"] != "STOPPED" || s["state of cache-warmer"] != "EXITED" || s["log of api-gateway"] == "" {
		t.Errorf("the seed lacks its running, stopped or exited programs or api-gateway's log: %v", s)
	}
}
