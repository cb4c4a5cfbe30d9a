//go:build heldout

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// The held-out check on Redis Commander: its tests build only with -tags heldout, and
// TestHeldOutRedisCommander is run once, at the end, against an agent nobody tuned to
// Redis Commander. TestHeldOutRedisCommanderJudge checks the harness alone, with no agent.

// rcSignIn is the Sign In dialog of the front page, where every goal starts, written three
// ways (phrasing i uses the i-th); the password is granted by the worker and is in no goal.
var rcSignIn = [3]string{
	`type "admin" into "Username", type "{{secret:rediscommander_password}}" into "Password", click "Sign In"`,
	`enter admin as the Username and "{{secret:rediscommander_password}}" as the Password, then press Sign In`,
	`First sign in: in the Sign In box put admin in the field labelled "Username" and "{{secret:rediscommander_password}}" in the field labelled "Password", and click the Sign In button.`,
}

// rcText fills a phrasing in: {signin} is its way of signing in.
func rcText(phrasing string, i int) string {
	return strings.ReplaceAll(phrasing, "{signin}", rcSignIn[i])
}

// TestHeldOutRedisCommander drives Redis Commander — a real application nobody here
// wrote: a web UI to browse a Redis server's keys in a tree and to add, change, rename and
// delete them — with everyday goals written three ways each, and no model. Each phrasing
// runs on a fresh instance (a private Redis seeded with a tea shop's keys), starts at the
// front page's Sign In dialog, signs in with a password the worker grants, and is judged
// twice: by the run's status and by what Redis itself then holds.
// go test -tags heldout -run 'TestHeldOutRedisCommander$' ./e2e/
func TestHeldOutRedisCommander(t *testing.T) {
	if !testenv.RedisCommanderInstalled() {
		t.Skip("Redis Commander is not installed: run `deploy/setup.sh heldout`")
	}
	s := newStack(t)
	// Granted by host, not by origin: each phrasing's fresh instance has a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_REDISCOMMANDER_PASSWORD="+testenv.RedisCommanderPassword,
		`WEBAGENT_SECRETS={"rediscommander_password": {"from": "env:WEBAGENT_TEST_REDISCOMMANDER_PASSWORD", "sites": ["127.0.0.1"]}}`)
	names, phrasings := make([]string, len(rcGoals)), make([][]string, len(rcGoals))
	for g, goal := range rcGoals {
		names[g], phrasings[g] = goal.name, goal.phrasings[:]
	}
	rows := poolEach(t, names, phrasings, func(t *testing.T, g, i int, p string) poolRow {
		w := testenv.StartRedisCommander(t)
		return poolRun(t, s, names[g], i+1, rcText(p, i), w.URL, "Redis",
			func() string { return rcGoals[g].done(t, w) })
	})
	poolReport(t, rows)
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, testenv.RedisCommanderPassword) {
			t.Errorf("Redis Commander's password is in the history of %s", id)
		}
	})
}

// TestHeldOutRedisCommanderJudge validates the harness without the agent: on a fresh
// instance the Sign In dialog, the key tree and the keys the goals name are there and every
// judge says "not done"; each goal's effect, made through Redis Commander's own pages along
// the goal's path (signed in through the Sign In dialog, the tree unfolded, the key
// picked, each dialog's or editor's form sent as the page sends it), makes its judge say
// "done" and leaves the other judges at "not done"; a near miss of each leaves its judge
// at "not done"; and each phrasing, filled in, reads as a whole goal.
// go test -tags heldout -run 'TestHeldOutRedisCommanderJudge$' ./e2e/
func TestHeldOutRedisCommanderJudge(t *testing.T) {
	if !testenv.RedisCommanderInstalled() {
		t.Skip("Redis Commander is not installed: run `deploy/setup.sh heldout`")
	}
	began := time.Now()
	fresh := testenv.StartRedisCommander(t)
	t.Logf("a fresh Redis and Redis Commander were started and seeded in %s", time.Since(began).Round(time.Millisecond))
	rcCheckFresh(t, fresh)
	for _, g := range rcGoals {
		why := g.done(t, fresh)
		t.Logf("%s, fresh: %s", g.name, why)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh instance", g.name)
		}
		for i, p := range g.phrasings {
			text := rcText(p, i)
			rest := strings.ReplaceAll(text, "{{secret:rediscommander_password}}", "")
			if !strings.Contains(text, rcSignIn[i]) || strings.ContainsAny(rest, "{}") || len(strings.Fields(rest)) < 12 {
				t.Errorf("%s, phrasing %d, does not read as a whole goal: %s", g.name, i+1, text)
			}
		}
	}
	for _, g := range rcGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartRedisCommander(t)
			b := w.Browser()
			b.SignIn(t)
			g.do(t, b)
			if why := testenv.Eventually(10*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Errorf("after the goal's effect the judge says: %s", why)
			}
			for _, o := range rcGoals {
				if o.name != g.name && o.done(t, w) == "" {
					t.Errorf("the effect of %q makes the judge of %q say done", g.name, o.name)
				}
			}
		})
		t.Run(g.name+", a near miss", func(t *testing.T) {
			w := testenv.StartRedisCommander(t)
			b := w.Browser()
			b.SignIn(t)
			g.miss(t, b)
			// The miss reaches Redis as the effect would: wait until it is there.
			if why := testenv.Eventually(10*time.Second, func() string { return rcChanged(w) }); why != "" {
				t.Fatalf("the near miss changed nothing in Redis: %s", why)
			}
			why := g.done(t, w)
			t.Logf("the judge says: %s", why)
			if why == "" {
				t.Errorf("the judge takes a near miss for the goal done")
			}
		})
	}
}

// rcCheckFresh checks what the goals rely on: the Sign In dialog, the connection's name at
// the top of the key tree, the folders and keys the goals open, the dialogs they use, and
// Redis as seeded.
func rcCheckFresh(t *testing.T, w *testenv.RedisCommander) {
	b := w.Browser()
	front := b.Get(t, "")
	for _, want := range []string{"<h3>Sign In</h3>", `<label for="signinUsername">Username:</label>`, `<label for="signinPassword">Password:</label>`} {
		if !strings.Contains(front, want) {
			t.Errorf("the front page lacks %q", want)
		}
	}
	b.SignIn(t)
	if conns := b.Get(t, "connections"); !strings.Contains(conns, `"label":"`+testenv.RedisCommanderLabel+`"`) {
		t.Errorf("the connection is not labelled %s: %s", testenv.RedisCommanderLabel, conns)
	}
	for folder, keys := range map[string][]string{"site:": {"banner", "maintenance"}, "user:": {"1001", "1002"},
		"queue:": {"emails", "sms"}, "tags:": {"clearance", "featured"}} {
		b.Unfold(t, "", fmt.Sprintf("%s* (%d)", folder, len(keys)))
		for _, k := range keys {
			b.Unfold(t, folder, k)
		}
	}
	for id, want := range map[string]string{"addKeyForm": "<h3>Add Key</h3>", "renameKeyForm": "New Key",
		"editHashFieldForm": "<h3>Edit Hash Field</h3>", "addListValueForm": "RPUSH", "addSetMemberForm": "<h3>Add Member</h3>"} {
		b.Dialog(t, id)
		if !strings.Contains(b.Home(), want) {
			t.Errorf("the front page's dialogs lack %q", want)
		}
	}
	if why := w.Differs(w.Seed()); why != "" {
		t.Errorf("the fresh instance differs from its seed: %s", why)
	}
	if len(w.Seed()) != len(testenv.RedisCommanderSeed) {
		t.Errorf("Redis holds %d keys, not the seed's %d: %v", len(w.Seed()), len(testenv.RedisCommanderSeed), w.Seed())
	}
}
