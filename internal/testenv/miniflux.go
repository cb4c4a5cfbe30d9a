package testenv

import (
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/config"
)

// Miniflux is a private Miniflux 2.3.5: a minimalist RSS and Atom feed reader people host
// themselves, whose pages manage subscriptions (feeds) and their categories, the entries
// read and starred, each user's settings, users and API keys, all kept in a PostgreSQL
// database. Each instance has a PostgreSQL cluster of its own (initdb in a temporary
// folder, its own port and socket folder, no systemd), its schema made by Miniflux's own
// migrations and its admin made by Miniflux itself at start-up, and reads its feeds from a
// small HTTP server of the test's own (Feeds), which serves a few RSS and Atom documents on
// another free loopback port. The seed (MinifluxCategories, MinifluxFeeds, MinifluxUsers,
// MinifluxStarred) is written through Miniflux's own REST API as admin. The judges read
// the database back with psql.
type Miniflux struct {
	URL      string // the pages' root, e.g. http://127.0.0.1:PORT/ (its sign-in page)
	User     string // admin
	Password string
	Feeds    string // the feed server's root, e.g. http://127.0.0.1:PORT
	Dir      string // the instance's folder: the cluster and its data
	Socket   string // the cluster's socket folder
	Port     int    // the cluster's port
	seed     MinifluxState
}

// MinifluxPassword is admin's password in every instance: one grant on the worker serves
// each fresh instance of a test.
const MinifluxPassword = "Morning-Headlines-2024!"

// MinifluxVersion is the Go module version deploy/setup.sh builds (MINIFLUX_VERSION there).
const MinifluxVersion = "v2.3.5"

const minifluxPG = "/usr/lib/postgresql/15/bin"

// MinifluxBin is the miniflux binary where deploy/setup.sh built it, "" if it did not.
func MinifluxBin() string {
	dir := os.Getenv("MINIFLUX_DIR")
	if dir == "" {
		dir = filepath.Join(config.ToolsDir(), "miniflux-"+MinifluxVersion)
	}
	bin := filepath.Join(dir, "miniflux")
	if !exists(bin) {
		return ""
	}
	return bin
}

// MinifluxInstalled says whether Miniflux is built and PostgreSQL 15's server and client
// are here (deploy/setup.sh miniflux installs them).
func MinifluxInstalled() bool {
	if MinifluxBin() == "" || !exists(filepath.Join(minifluxPG, "initdb")) || !exists(filepath.Join(minifluxPG, "postgres")) {
		return false
	}
	_, err := exec.LookPath("psql")
	return err == nil
}

// StartMiniflux starts a private PostgreSQL cluster with an empty database, the feed
// server, and Miniflux on a free loopback port (its migrations run and its admin made at
// start-up) until the test ends, then writes the seed through Miniflux's API. It skips the
// test when Miniflux or PostgreSQL is missing.
func StartMiniflux(t testing.TB) *Miniflux {
	t.Helper()
	if !MinifluxInstalled() {
		t.Skip("Miniflux is not installed: run `deploy/setup.sh miniflux` (it builds Miniflux and installs postgresql)")
	}
	root := t.TempDir()
	// The socket's folder has a short name of its own: a socket's path is at most 107 bytes,
	// and postgres reads commas (which a subtest's folder may hold) as separating folders.
	socket, err := os.MkdirTemp("", "miniflux-pg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(socket) })
	m := &Miniflux{User: "admin", Password: MinifluxPassword, Dir: root, Socket: socket}
	feeds := httptest.NewServer(minifluxFeedHandler())
	t.Cleanup(feeds.Close)
	m.Feeds = feeds.URL
	m.startCluster(t)
	if _, err := m.psql("postgres", "CREATE DATABASE miniflux"); err != nil {
		t.Fatalf("miniflux: %v", err)
	}
	m.startServer(t)
	m.seedAPI(t)
	return m
}

// startServer runs Miniflux against the cluster until the test ends: its migrations and
// admin made at start-up, the feed server's private address allowed, the scheduler off (no
// feed is refreshed or entry cleaned up behind the judges' backs), and waits for its health
// check.
func (m *Miniflux) startServer(t testing.TB) {
	t.Helper()
	port := FreePort(t)
	m.URL = "http://" + Addr(port) + "/"
	cmd := exec.Command(MinifluxBin())
	cmd.Dir = m.Dir
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + m.Dir, "TZ=UTC",
		fmt.Sprintf("DATABASE_URL=host=%s port=%d user=postgres dbname=miniflux sslmode=disable", m.Socket, m.Port),
		"RUN_MIGRATIONS=1", "CREATE_ADMIN=1", "ADMIN_USERNAME=" + m.User, "ADMIN_PASSWORD=" + m.Password,
		"LISTEN_ADDR=" + Addr(port), "BASE_URL=" + strings.TrimSuffix(m.URL, "/"),
		"FETCHER_ALLOW_PRIVATE_NETWORKS=1", "DISABLE_SCHEDULER_SERVICE=1", "POLLING_FREQUENCY=1440",
		"HTTP_CLIENT_TIMEOUT=10", "WORKER_POOL_SIZE=2", "DATABASE_MAX_CONNS=8", "LOG_LEVEL=warning",
	}
	p := start(t, "miniflux", cmd)
	waitHTTP(t, "miniflux", m.URL+"healthcheck", 60*time.Second, p)
}

// startCluster makes a PostgreSQL cluster in the instance's folder (trust on its socket
// alone, no TCP listener) and runs it until the test ends. PostgreSQL will not run as root,
// so as root the cluster is nobody's: the folder becomes nobody's, and the test's temporary
// folders above it (0700) are opened for it to pass through.
func (m *Miniflux) startCluster(t testing.TB) {
	m.Port = startPostgres(t, "miniflux", m.Dir, m.Socket, []string{m.Dir}, func(port int) error {
		m.Port = port
		_, err := m.psql("postgres", "SELECT 1")
		return err
	})
}
