package testenv

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"

	"github.com/webagent-dev/webagent/activities/store"
	"github.com/webagent-dev/webagent/internal/sites"
)

// Temporal starts an in-memory Temporal dev server of the test's own on free ports, with
// the search attributes attrs (the caller's: workflows.SearchAttributes), and returns its
// address and a client of its default namespace; both are closed when the test ends.
// extra are more arguments of `temporal server start-dev`. Tests that share one server
// take a namespace of it from Shared instead.
func Temporal(t testing.TB, attrs []SearchAttribute, extra ...string) (string, client.Client) {
	t.Helper()
	addr := Addr(FreePort(t))
	srv, err := testsuite.StartDevServer(context.Background(), testsuite.DevServerOptions{
		ExistingPath:  TemporalBin(t),
		ClientOptions: &client.Options{HostPort: addr, Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))},
		LogLevel:      "error",
		ExtraArgs:     append(SearchAttributeArgs(attrs), extra...),
		Stdout:        &bytes.Buffer{},
		Stderr:        &bytes.Buffer{},
	})
	if err != nil {
		t.Fatalf("start the Temporal dev server: %v", err)
	}
	t.Cleanup(func() { _ = srv.Stop() })
	return addr, srv.Client()
}

// TemporalWithUI is Temporal with its Web UI, whose address it returns too.
func TemporalWithUI(t testing.TB, attrs []SearchAttribute) (string, client.Client, string) {
	t.Helper()
	return TemporalWithUIIn(t, "default", attrs)
}

// TemporalWithUIIn is TemporalWithUI with the namespace namespace made at launch (its
// client is that namespace's) and extra, more arguments of `temporal server start-dev`.
func TemporalWithUIIn(t testing.TB, namespace string, attrs []SearchAttribute, extra ...string) (string, client.Client, string) {
	t.Helper()
	port := FreePort(t)
	ui := FreePort(t)
	srv, err := testsuite.StartDevServer(context.Background(), testsuite.DevServerOptions{
		ExistingPath: TemporalBin(t),
		ClientOptions: &client.Options{HostPort: Addr(port), Namespace: namespace,
			Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))},
		LogLevel:  "error",
		EnableUI:  true,
		UIPort:    strconv.Itoa(ui),
		ExtraArgs: append(SearchAttributeArgs(attrs), extra...),
		Stdout:    &bytes.Buffer{},
		Stderr:    &bytes.Buffer{},
	})
	if err != nil {
		t.Fatalf("start the Temporal dev server: %v", err)
	}
	t.Cleanup(func() { _ = srv.Stop() })
	return Addr(port), srv.Client(), "http://" + Addr(ui)
}

// MinIOCredentials are the test server's root credentials.
const (
	MinIOUser     = "webagent-test"
	MinIOPassword = "webagent-test-secret"
	MinIOBucket   = "webagent"
)

// MinIO starts a MinIO server with a fresh data folder on a free port and returns its
// endpoint and a store client for it.
func MinIO(t testing.TB) (string, *store.MinIO) {
	t.Helper()
	addr := Addr(FreePort(t))
	console := Addr(FreePort(t))
	cmd := exec.Command(MinIOBin(t), "server", t.TempDir(), "--address", addr, "--console-address", console, "--quiet")
	cmd.Env = append(os.Environ(), "MINIO_ROOT_USER="+MinIOUser, "MINIO_ROOT_PASSWORD="+MinIOPassword, "MINIO_BROWSER=off")
	p := start(t, "minio", cmd)
	waitHTTP(t, "minio", "http://"+addr+"/minio/health/ready", 60*time.Second, p)
	st, err := store.Open(context.Background(), store.Config{Endpoint: addr, AccessKey: MinIOUser, SecretKey: MinIOPassword, Bucket: MinIOBucket})
	if err != nil {
		t.Fatalf("open the store: %v", err)
	}
	return addr, st
}

// waitHTTP waits until the process p answers url with 200 OK, and fails the test with
// what it printed when it does not within limit, or stops first.
func waitHTTP(t testing.TB, name, url string, limit time.Duration, p *process) {
	t.Helper()
	if !p.ready(url, limit) {
		t.Fatalf("%s did not become healthy in %s:\n%s", name, limit, p.out.String())
	}
}

// ready reports whether the process answers url with 200 OK within limit; a process that
// stops meanwhile never will.
func (p *process) ready(url string, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case <-p.done:
			return false
		default:
		}
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return true
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return false
}

// Build builds one of the project's commands ("workers", "starter") into dir, with the
// given build tags if any (the fault tests' worker: fault.Tag), and returns the binary's
// path: dir/command, or dir/command-tag1-tag2 with tags.
func Build(dir, command string, tags ...string) (string, error) {
	bin := filepath.Join(dir, strings.Join(append([]string{command}, tags...), "-"))
	args := []string{"build", "-o", bin}
	if len(tags) > 0 {
		args = append(args, "-tags="+strings.Join(tags, ","))
	}
	cmd := exec.Command("go", append(args, "github.com/webagent-dev/webagent/"+command)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build %s: %v\n%s", command, err, out)
	}
	return bin, nil
}

// process is a server or worker a test started, in a process group of its own so that a
// kill takes what it started with it (a browser, a driver), as when a machine dies. It is
// also killed when the test binary dies, however it dies (a killed `go test` leaves no
// Temporal server, MinIO or worker behind).
type process struct {
	cmd  *exec.Cmd
	out  *syncBuffer
	done chan struct{}
}

// start starts cmd and kills it when the test ends.
func start(t testing.TB, name string, cmd *exec.Cmd) *process {
	t.Helper()
	cmd.SysProcAttr = ownGroup()
	p := &process{cmd: cmd, out: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.out, p.out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	go func() { _ = cmd.Wait(); close(p.done) }()
	t.Cleanup(p.Kill)
	return p
}

// Kill ends the process and everything it started with SIGKILL: no clean shutdown.
func (p *process) Kill() {
	select {
	case <-p.done:
		return
	default:
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.done
}

// Worker is a worker process started by a test.
type Worker struct{ *process }

// StartWorker starts the worker binary against the test's Temporal namespace and MinIO
// bucket and waits until it says it is ready. It is stopped when the test ends. It has
// no Gemini credentials and no skills library unless env gives them (GEMINI_API_KEY=...,
// GOOGLE_GEMINI_BASE_URL=..., WEAVIATE_URL=...).
func StartWorker(t testing.TB, bin string, at Stack, env ...string) *Worker {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = WorkerEnv(t, at, env...)
	w := &Worker{start(t, "the worker", cmd)}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("worker %d output:\n%s", cmd.Process.Pid, w.out.String())
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(w.out.String(), "worker ready") {
		select {
		case <-w.done:
			t.Fatalf("the worker exited:\n%s", w.out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the worker did not get ready:\n%s", w.out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	return w
}

// WorkerEnv is the environment StartWorker gives the worker: the test's stack, no Gemini
// credentials, no skills library, no secrets granted, loopback granted (the test's pages
// are served there), and a model-check cache of the test's own, then env.
func WorkerEnv(t testing.TB, at Stack, env ...string) []string {
	out := append(os.Environ(), "GEMINI_API_KEY=", "GOOGLE_API_KEY=", "GOOGLE_GENAI_USE_VERTEXAI=", "WEAVIATE_URL=off",
		"WEBAGENT_SECRETS=", "WEBAGENT_INTERNAL_ADDRESSES=loopback")
	out = append(out, at.TemporalEnv()...)
	out = append(out, at.MinIOEnv()...)
	out = append(out,
		"PLAYWRIGHT_DRIVER_DIR="+DriverDir(t), "CHROMIUM_PATH="+Chromium(t),
		"WEBAGENT_LOG_LEVEL=info", "WEBAGENT_MODEL_CHECK_CACHE="+filepath.Join(t.TempDir(), "models.json"),
	)
	return append(out, env...)
}

// Terminate asks the worker to stop as a deploy does: SIGTERM to the worker's process
// alone, which stops what it started itself. Exited says when it has.
func (w *Worker) Terminate() { _ = w.cmd.Process.Signal(syscall.SIGTERM) }

// Exited is closed when the worker's process has ended.
func (w *Worker) Exited() <-chan struct{} { return w.done }

// Output is what the worker has logged.
func (w *Worker) Output() string { return w.out.String() }

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// WeaviateBin is the Weaviate server.
func WeaviateBin(t testing.TB) string {
	return Tool(t, "WEAVIATE_BIN", filepath.Join("weaviate-"+WeaviateVersion, "weaviate-server"))
}

// WeaviateServer is a Weaviate process started by a test.
type WeaviateServer struct {
	// Addr is host:port of the REST API.
	Addr string
	*process
}

// Weaviate starts Weaviate with a fresh data folder on free ports (REST, gRPC, gossip,
// data, Raft) and waits until it is ready (~10 s). It is stopped when the test ends. A
// free port can be taken by another process between the asking and the binding (Weaviate
// asks for six): a start that fails so is tried again on other ports.
func Weaviate(t testing.TB) *WeaviateServer {
	t.Helper()
	for try := 1; ; try++ {
		w, ok := startWeaviate(t)
		if ok {
			return w
		}
		if try == 3 || !strings.Contains(w.out.String(), "address already in use") {
			t.Fatalf("weaviate did not become healthy:\n%s", w.out.String())
		}
		w.Kill()
		t.Logf("weaviate lost a port to another process (try %d); starting it again on other ports", try)
	}
}

// startWeaviate is one start of Weaviate; ok says it became ready.
func startWeaviate(t testing.TB) (*WeaviateServer, bool) {
	t.Helper()
	port := func() string { return fmt.Sprint(FreePort(t)) }
	rest := FreePort(t)
	cmd := exec.Command(WeaviateBin(t), "--host", "127.0.0.1", "--port", fmt.Sprint(rest), "--scheme", "http")
	cmd.Env = append(os.Environ(),
		"PERSISTENCE_DATA_PATH="+t.TempDir(), "AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED=true",
		"DEFAULT_VECTORIZER_MODULE=none", "DISABLE_TELEMETRY=true", "LOG_LEVEL=warning",
		"CLUSTER_HOSTNAME=node1", "CLUSTER_ADVERTISE_ADDR=127.0.0.1",
		"CLUSTER_GOSSIP_BIND_PORT="+port(), "CLUSTER_DATA_BIND_PORT="+port(),
		"RAFT_PORT="+port(), "RAFT_INTERNAL_RPC_PORT="+port(), "RAFT_JOIN=node1", "RAFT_BOOTSTRAP_EXPECT=1",
		"GRPC_PORT="+port(),
	)
	w := &WeaviateServer{Addr: Addr(rest), process: start(t, "weaviate", cmd)}
	return w, w.ready("http://"+w.Addr+"/v1/.well-known/ready", 90*time.Second)
}

// SearchAttribute is a custom search attribute a dev server registers: workflows'
// SearchAttributes are a list of them, which the tests pass in (testenv does not import
// the workflows it serves).
type SearchAttribute = struct{ Name, Type string }

// SearchAttributeArgs register the search attributes attrs on a dev server (in each
// namespace it creates).
func SearchAttributeArgs(attrs []SearchAttribute) []string {
	var args []string
	for _, a := range attrs {
		args = append(args, "--search-attribute", a.Name+"="+a.Type)
	}
	return args
}

// Loopback is the grant of internal addresses the tests' workers and pools run with: the
// pages the tests serve are on loopback, which a worker reaches only when its operator
// grants it (WEBAGENT_INTERNAL_ADDRESSES=loopback).
func Loopback() sites.Internal {
	g, err := sites.ParseInternal("loopback")
	if err != nil {
		panic(err)
	}
	return g
}
