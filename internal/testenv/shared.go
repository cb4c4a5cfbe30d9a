package testenv

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"

	"github.com/webagent-dev/webagent/activities/store"
)

// Stack is where a test's processes find Temporal and MinIO: a server's address and the
// namespace on it, and a MinIO's address and the bucket in it, each the test's own.
type Stack struct {
	TemporalAddr string
	Namespace    string
	MinIOAddr    string
	Bucket       string
}

// TemporalEnv is the stack's Temporal as the worker and the starter read it.
func (s Stack) TemporalEnv() []string {
	return []string{"TEMPORAL_ADDRESS=" + s.TemporalAddr, "TEMPORAL_NAMESPACE=" + s.Namespace}
}

// MinIOEnv is the stack's MinIO as the worker and the starter read it.
func (s Stack) MinIOEnv() []string {
	return []string{"MINIO_ENDPOINT=" + s.MinIOAddr, "MINIO_ACCESS_KEY=" + MinIOUser, "MINIO_SECRET_KEY=" + MinIOPassword, "MINIO_BUCKET=" + s.Bucket}
}

// Store opens the stack's bucket.
func (s Stack) Store(t testing.TB) *store.MinIO {
	t.Helper()
	st, err := store.Open(context.Background(), store.Config{Endpoint: s.MinIOAddr, AccessKey: MinIOUser, SecretKey: MinIOPassword, Bucket: s.Bucket})
	if err != nil {
		t.Fatalf("open the store: %v", err)
	}
	return st
}

// Client dials the stack's namespace; the client is closed when the test ends.
func (s Stack) Client(t testing.TB) client.Client {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: s.TemporalAddr, Namespace: s.Namespace, Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		t.Fatalf("dial temporal: %v", err)
	}
	t.Cleanup(c.Close)
	return c
}

// namespacesPerServer is how many namespaces a shared dev server creates as it starts:
// the search attributes are registered in those alone, so a namespace cannot be added
// later; a package whose tests take more gets a second server.
const namespacesPerServer = 64

// Shared is one Temporal dev server and one MinIO that the tests of a package share: each
// test takes a namespace and a bucket of its own (Stack), so that tests stay apart — their
// runs, task queues, schedules, searches and objects — without paying for servers of
// their own. The servers start on the first Stack and stop when main is closed (a
// TestMain's MainTB). Tests that kill or restart Temporal or MinIO start their own
// (RestartableTemporal, RestartableMinIO).
type Shared struct {
	main  testing.TB
	attrs []SearchAttribute

	mu       sync.Mutex
	temporal string   // the address of the server whose namespaces are being given
	free     []string // its namespaces not given yet
	made     int      // namespaces created so far, on every server
	minio    string
	buckets  int
}

// NewShared returns the servers a package's tests share, with the search attributes
// attrs in each namespace (the caller's: workflows.SearchAttributes). Nothing starts yet.
func NewShared(main testing.TB, attrs []SearchAttribute) *Shared {
	return &Shared{main: main, attrs: attrs}
}

// Stack gives the test a fresh namespace on the shared Temporal and a fresh bucket in the
// shared MinIO, starting them if they are not yet.
func (sh *Shared) Stack(t testing.TB) Stack {
	t.Helper()
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if len(sh.free) == 0 {
		var args []string
		for range namespacesPerServer {
			sh.made++
			ns := fmt.Sprintf("test-%d", sh.made)
			sh.free = append(sh.free, ns)
			args = append(args, "--namespace", ns)
		}
		sh.temporal, _ = Temporal(sh.main, sh.attrs, args...)
	}
	if sh.minio == "" {
		sh.minio, _ = MinIO(sh.main)
	}
	sh.buckets++
	at := Stack{TemporalAddr: sh.temporal, Namespace: sh.free[0], MinIOAddr: sh.minio, Bucket: fmt.Sprintf("test-%d", sh.buckets)}
	sh.free = sh.free[1:]
	return at
}
