//go:build heldout

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/plan"
)

// The held-out check on RabbitMQ's management UI: its tests build only with -tags heldout,
// and TestHeldOutRabbitMQ is run once, at the end, against an agent nobody tuned to
// RabbitMQ. TestHeldOutRabbitMQJudge checks the harness alone, with no agent.

// rabbitmqSignIn is the management UI's login page (Username, Password, Login), written
// three ways (phrasing i uses the i-th); the password is granted by the worker and is in
// no goal.
var rabbitmqSignIn = [3]string{
	`type "admin" into "Username", type "{{secret:rabbitmq_password}}" into "Password", click "Login"`,
	`fill Username with admin and "Password" with "{{secret:rabbitmq_password}}", then press Login`,
	`type admin into the field labelled "Username", type "{{secret:rabbitmq_password}}" into the Password field and click the Login button`,
}

// rabbitmqText fills a phrasing in: {signin} is its way of signing in.
func rabbitmqText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", rabbitmqSignIn[i])
}

// TestHeldOutRabbitMQ drives Debian's RabbitMQ 3.10 management UI — a real application
// nobody here wrote: a message broker's admin pages (tabs, collapsed sections that open
// when their heading is clicked, forms whose labels name no field, a confirm dialog),
// one page of templates over the plugin's HTTP API — with everyday goals written three
// ways each, and no model. Each phrasing runs on a fresh node, starts at the UI's login
// page, signs in with a password the worker grants, and is judged twice: by the run's
// status and by what the node holds (read through its management API).
// go test -tags heldout -run 'TestHeldOutRabbitMQ$' ./e2e/
func TestHeldOutRabbitMQ(t *testing.T) {
	if !testenv.RabbitMQInstalled() {
		t.Skip("RabbitMQ is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh node has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_RABBITMQ_PASSWORD="+testenv.RabbitMQPassword,
		`WEBAGENT_SECRETS={"rabbitmq_password": {"from": "env:WEBAGENT_TEST_RABBITMQ_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(rabbitmqGoals)), make([][]string, len(rabbitmqGoals))
	for g, goal := range rabbitmqGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartRabbitMQ(t)
		return poolRun(t, s, names[g], i+1, rabbitmqText(p, i), w.URL, "the node's state",
			func() string { return rabbitmqGoals[g].done(t, w) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.RabbitMQPassword) {
			t.Errorf("RabbitMQ's password is in the history of %s", id)
		}
	})
}

// TestHeldOutRabbitMQJudge validates the harness without the agent: on a fresh node every
// judge says "not done" and every phrasing reads as a whole goal (filled in, it parses
// into steps); each goal's effect, made through the HTTP API requests the UI's own forms
// send (signed in as its login form does), makes its judge say "done" and leaves the
// other judges at "not done"; and a near miss of each leaves its judge at "not done".
// go test -tags heldout -run 'TestHeldOutRabbitMQJudge$' ./e2e/
func TestHeldOutRabbitMQJudge(t *testing.T) {
	if !testenv.RabbitMQInstalled() {
		t.Skip("RabbitMQ is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartRabbitMQ(t)
	t.Logf("a fresh RabbitMQ node was started and seeded in %s", time.Since(began).Round(time.Millisecond))
	rabbitmqCheckFresh(t, fresh)
	for _, g := range rabbitmqGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := rabbitmqText(p, i)
			if !strings.Contains(text, rabbitmqSignIn[i]) || strings.Contains(strings.ReplaceAll(text, "{{secret:rabbitmq_password}}", ""), "{") {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
			if steps, err := plan.Parse(text); err != nil || len(steps) == 0 {
				t.Errorf("%s, phrasing %d, does not parse (%v): %s", g.name, i+1, err, text)
			}
		}
	}
	for _, g := range rabbitmqGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartRabbitMQ(t)
			b := w.Browser()
			b.SignIn(t)
			g.do(t, w, b)
			if why := testenv.Eventually(10*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range rabbitmqGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartRabbitMQ(t)
			b := w.Browser()
			b.SignIn(t)
			g.miss(t, w, b)
			if w.Differs(w.Seed()) == "" {
				t.Fatalf("the near miss changed nothing on the node")
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// rabbitmqCheckFresh checks what the goals rely on: the login page, the seed's users,
// virtual hosts, queues with their messages, exchange and binding, and no guest user.
func rabbitmqCheckFresh(t *testing.T, w *testenv.RabbitMQ) {
	if w.SignsIn("guest", "guest") {
		t.Errorf("the guest user can sign in")
	}
	seed := w.Seed()
	for key, want := range map[string]string{
		"user " + testenv.RabbitMQUser: "administrator",
		"user ci-bot":                  "",
		"user reporting":               "monitoring",
		"vhost /":                      "Default virtual host",
		"vhost staging":                "Pre-release testing",
		"messages of orders in /":      rabbitmqPayloads("orders"),
		"messages of invoices in /":    rabbitmqPayloads("invoices"),
		"messages of emails in /":      "",
		"permission reporting on /":    "configure ^$, write ^$, read .*",
		`binding of events in / to queue invoices with "invoice.#"`: "arguments {}",
	} {
		if got, ok := seed[key]; !ok || got != want {
			t.Errorf("the seed's %s is %q (there: %v), want %q", key, got, ok, want)
		}
	}
	if why := w.Differs(seed); why != "" {
		t.Errorf("the fresh node differs from its seed: %s", why)
	}
	t.Logf("the seed: %v", seed)
}
