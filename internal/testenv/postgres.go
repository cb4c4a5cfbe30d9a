package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// postgresBin is Debian's PostgreSQL 15, whose server the held-out apps that keep their
// data in PostgreSQL (DAViCal, Miniflux, Icinga Web 2) each run a private cluster of.
const postgresBin = "/usr/lib/postgresql/15/bin"

// startPostgres makes a PostgreSQL cluster in dir/pgdata (trust on its socket folder
// alone, no TCP listener) and runs it until the test ends; ready says whether the server
// on port answers. PostgreSQL will not run as root, so as root the cluster is nobody's:
// own (the data folder and the socket folder, at least) becomes nobody's, and the test's
// temporary folders above dir (0700) are opened for it to pass through. app names the
// instance in failures. It returns the server's port.
func startPostgres(t testing.TB, app, dir, socket string, own []string, ready func(port int) error) int {
	t.Helper()
	data := filepath.Join(dir, "pgdata")
	if err := os.MkdirAll(socket, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	if os.Getuid() == 0 {
		for p := dir; p != "/" && p != os.TempDir(); p = filepath.Dir(p) {
			_ = os.Chmod(p, 0o711)
		}
		for _, p := range append([]string{data, socket}, own...) {
			if err := os.Chown(p, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}
	}
	initdb := exec.Command(filepath.Join(postgresBin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
	initdb.Dir = dir
	initdb.SysProcAttr = davicalAsNobody(ownGroup())
	if out, err := initdb.CombinedOutput(); err != nil {
		t.Fatalf("%s: initdb: %v\n%s", app, err, out)
	}
	port := FreePort(t)
	cmd := exec.Command(filepath.Join(postgresBin, "postgres"), "-D", data, "-k", socket, "-p", fmt.Sprint(port),
		"-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	cmd.Dir = dir
	p := &process{cmd: cmd, out: &syncBuffer{}, done: make(chan struct{})}
	cmd.SysProcAttr, cmd.Stdout, cmd.Stderr = davicalAsNobody(ownGroup()), p.out, p.out
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: start postgres: %v", app, err)
	}
	go func() { _ = cmd.Wait(); close(p.done) }()
	t.Cleanup(p.Kill)
	if why := Eventually(30*time.Second, func() string {
		select {
		case <-p.done:
			return "postgres stopped"
		default:
		}
		if err := ready(port); err != nil {
			return err.Error()
		}
		return ""
	}); why != "" {
		t.Fatalf("%s: postgres did not start: %s\n%s", app, why, p.out.String())
	}
	return port
}

// psqlRows runs one query in the database db of the cluster on socket and port, as its
// superuser, and returns its rows, each a line of tab-separated fields.
func psqlRows(socket string, port int, db, query string) ([]string, error) {
	cmd := exec.Command("psql", "-h", socket, "-p", fmt.Sprint(port), "-U", "postgres", "-d", db,
		"-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-F", "\t", "-c", query)
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return nil, fmt.Errorf("psql: %v: %s", err, ee.Stderr)
		}
		return nil, fmt.Errorf("psql: %v", err)
	}
	text := strings.TrimRight(string(out), "\n")
	if text == "" {
		return nil, nil
	}
	return strings.Split(text, "\n"), nil
}
