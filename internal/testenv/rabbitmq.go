package testenv

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// RabbitMQ is a private RabbitMQ node — Debian's rabbitmq-server 3.10, a message broker,
// with its bundled management plugin, whose web UI (a single page of jQuery and Sammy
// templates behind a login form) adds and removes virtual hosts, users, permissions,
// queues, exchanges, bindings and policies, publishes messages and purges queues, all
// through the plugin's own HTTP API — run as the test's own process: a node name of its
// own, its database, logs and configuration in a temporary folder, an enabled_plugins
// file naming rabbitmq_management, and AMQP, Erlang distribution and the management UI
// on free loopback ports (the nodes share the machine's one epmd). Its administrator is
// RabbitMQUser with RabbitMQPassword (the configuration's default user: there is no
// guest). What a run did is read back through the management HTTP API (the node's
// definitions, its virtual hosts and users, and each queue's messages, fetched and put
// back), which is what the node keeps.
type RabbitMQ struct {
	URL  string // the management UI, where a person starts (its login page): http://127.0.0.1:PORT/
	API  string // the management HTTP API the UI calls: URL + "api"
	Node string // the node's name, e.g. heldout-1a2b3c4d@localhost
	AMQP int    // the node's AMQP port, on 127.0.0.1
	Dir  string // the instance's folder (its HOME)
	// seed is the node's state right after seeding: what a judge compares what a goal
	// must not touch with.
	seed  RabbitMQState
	judge *RabbitMQBrowser // the judge's own signed-in session
}

// RabbitMQUser and RabbitMQPassword are the administrator every instance has: one grant
// on the worker serves each fresh instance of a test.
const (
	RabbitMQUser     = "admin"
	RabbitMQPassword = "rabbit-mgmt-pass-58"
)

// The seed's other users' passwords (no goal signs in as them).
const (
	rabbitmqCIBotPassword     = "ci-bot-pass-31"
	rabbitmqReportingPassword = "reporting-pass-77"
)

const (
	rabbitmqServer = "/usr/lib/rabbitmq/bin/rabbitmq-server"
	rabbitmqPlugin = "/usr/lib/rabbitmq/lib/rabbitmq_server-*/plugins/rabbitmq_management-*"
)

// RabbitMQInstalled says whether Debian's rabbitmq-server and its management plugin are
// here (deploy/setup.sh heldout installs them).
func RabbitMQInstalled() bool {
	if !exists(rabbitmqServer) {
		return false
	}
	found, _ := filepath.Glob(rabbitmqPlugin)
	return len(found) > 0
}

// StartRabbitMQ writes a node's configuration into a temporary folder, runs the node in
// the foreground until the test ends, waits until its management UI lets the
// administrator in and seeds it through the management HTTP API (RabbitMQSeed). It skips
// the test when RabbitMQ is missing.
func StartRabbitMQ(t testing.TB) *RabbitMQ {
	t.Helper()
	if !RabbitMQInstalled() {
		t.Skip("RabbitMQ is not installed: run `deploy/setup.sh heldout` (it installs Debian's rabbitmq-server)")
	}
	root := t.TempDir()
	amqp, dist, web := FreePort(t), FreePort(t), FreePort(t)
	tag := make([]byte, 4)
	if _, err := rand.Read(tag); err != nil {
		t.Fatal(err)
	}
	w := &RabbitMQ{URL: "http://" + Addr(web) + "/", API: "http://" + Addr(web) + "/api", AMQP: amqp, Dir: root,
		Node: "heldout-" + hex.EncodeToString(tag) + "@localhost"}
	for _, d := range []string{"mnesia", "log"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(root, "rabbitmq.conf"), rabbitmqConfig(amqp, web))
	write(t, filepath.Join(root, "enabled_plugins"), "[rabbitmq_management].\n")
	write(t, filepath.Join(root, "rabbitmq-env.conf"), "")
	cmd := exec.Command(rabbitmqServer)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "HOME="+root, "TZ=UTC", "LANG=C.UTF-8",
		"RABBITMQ_NODENAME="+w.Node, "RABBITMQ_USE_LONGNAME=false",
		"RABBITMQ_CONF_ENV_FILE="+filepath.Join(root, "rabbitmq-env.conf"),
		"RABBITMQ_CONFIG_FILE="+filepath.Join(root, "rabbitmq.conf"),
		"RABBITMQ_ADVANCED_CONFIG_FILE="+filepath.Join(root, "advanced.config"),
		"RABBITMQ_ENABLED_PLUGINS_FILE="+filepath.Join(root, "enabled_plugins"),
		"RABBITMQ_MNESIA_BASE="+filepath.Join(root, "mnesia"),
		"RABBITMQ_LOG_BASE="+filepath.Join(root, "log"), "RABBITMQ_LOGS=-",
		fmt.Sprintf("RABBITMQ_DIST_PORT=%d", dist), "RABBITMQ_NODE_IP_ADDRESS=127.0.0.1",
		// Distribution on loopback only; an epmd this node starts listens there too.
		// Schedulers that do not spin keep an idle node's CPU low beside the browser.
		"RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS=-kernel inet_dist_use_interface {127,0,0,1} +sbwt none +sbwtdcpu none +sbwtdio none",
		"ERL_EPMD_ADDRESS=127.0.0.1")
	p := start(t, "rabbitmq", cmd)
	w.judge = w.Browser()
	if !w.judge.ready(90*time.Second, p) {
		t.Fatalf("rabbitmq did not let %s in at %s in 90s:\n%s", RabbitMQUser, w.URL, p.out.String())
	}
	w.judge.SignIn(t)
	w.seedNode(t)
	var err error
	if w.seed, err = w.State(); err != nil {
		t.Fatalf("rabbitmq: reading the seed back: %v", err)
	}
	return w
}

// rabbitmqConfig is the node's rabbitmq.conf: AMQP and the management UI on loopback, the
// administrator as the default user (so there is no guest), statistics collected each
// second (the UI's lists show a change soon after it is made) and no disk alarm on a
// nearly full temporary folder.
func rabbitmqConfig(amqp, web int) string {
	return strings.Join([]string{
		fmt.Sprintf("listeners.tcp.1 = 127.0.0.1:%d", amqp),
		"management.tcp.ip = 127.0.0.1",
		fmt.Sprintf("management.tcp.port = %d", web),
		"default_user = " + RabbitMQUser,
		"default_pass = " + RabbitMQPassword,
		"default_user_tags.administrator = true",
		"default_permissions.configure = .*",
		"default_permissions.write = .*",
		"default_permissions.read = .*",
		"loopback_users = none",
		"collect_statistics_interval = 1000",
		"disk_free_limit.absolute = 1MB",
		"log.console = true",
		"log.console.level = warning",
		"log.file = false",
	}, "\n") + "\n"
}

// RabbitMQSeedQueue is one queue every instance starts with, in the default virtual host,
// durable, with its messages' payloads in the order they are published.
type RabbitMQSeedQueue struct {
	Name     string
	Messages []string
}

// RabbitMQSeedQueues are the seed's queues.
var RabbitMQSeedQueues = []RabbitMQSeedQueue{
	{Name: "orders", Messages: []string{"order 1039 placed", "order 1040 placed", "order 1041 paid"}},
	{Name: "invoices", Messages: []string{"invoice 2207 issued", "invoice 2208 issued"}},
	{Name: "emails"},
}

// seedNode makes what every instance starts with, as the UI's forms would: a second
// virtual host (staging, "Pre-release testing") the administrator may use; users ci-bot
// (no tags, no permissions) and reporting (monitoring, read-only on /); the queues of
// RabbitMQSeedQueues with their messages; a topic exchange, events, bound to invoices
// with invoice.#.
func (w *RabbitMQ) seedNode(t testing.TB) {
	t.Helper()
	b := w.judge
	b.AddVHost(t, "staging", "Pre-release testing")
	b.AddUser(t, "ci-bot", rabbitmqCIBotPassword, "")
	b.AddUser(t, "reporting", rabbitmqReportingPassword, "monitoring")
	b.SetPermission(t, "reporting", "/", "^$", "^$", ".*")
	for _, q := range RabbitMQSeedQueues {
		b.AddQueue(t, "/", q.Name, true)
		for _, m := range q.Messages {
			b.Publish(t, "/", q.Name, m)
		}
	}
	b.AddExchange(t, "/", "events", "topic")
	b.Bind(t, "/", "events", "q", "invoices", "invoice.#")
}

// ready waits until the management API lets the administrator in (GET whoami answers
// 200), or the node stops.
func (b *RabbitMQBrowser) ready(limit time.Duration, p *process) bool {
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		select {
		case <-p.done:
			return false
		default:
		}
		if b.w.SignsIn(RabbitMQUser, RabbitMQPassword) {
			return true
		}
	}
	return false
}

// Seed is the node's state as the fresh instance held it (a copy, to change into what a
// goal should leave).
func (w *RabbitMQ) Seed() RabbitMQState {
	out := RabbitMQState{}
	for k, v := range w.seed {
		out[k] = v
	}
	return out
}

// SignsIn says whether the management API lets user in with password (GET whoami).
func (w *RabbitMQ) SignsIn(user, password string) bool {
	req, err := http.NewRequest(http.MethodGet, w.API+"/whoami", nil)
	if err != nil {
		return false
	}
	req.SetBasicAuth(user, password)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}
