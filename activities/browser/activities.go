package browser

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/activities/dataset"
	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/internal/codec"
	"github.com/webagent-dev/webagent/internal/secret"
)

// Store is what the browser activities need of the object store.
type Store interface {
	Put(ctx context.Context, key, contentType string, data []byte) error
	Get(ctx context.Context, key string) ([]byte, error)
}

// Dataset records a run's distinct UI states.
type Dataset interface {
	Capture(ctx context.Context, prefix string, step int, action string, png []byte, obs page.Observation) (*dataset.State, error)
	Forget(prefix string)
}

// Activities are the activities that need this process's browser. OpenBrowser runs on the
// shared task queue (any worker may take a new run); the others run on TaskQueue, this
// process's own, so that a run's steps reach the browser that holds its page. Register
// them under the names in the activities package.
type Activities struct {
	Pool  *driver.Pool
	Store Store
	// Dataset records every distinct UI state of each run; nil records none.
	Dataset Dataset
	// TaskQueue is this worker process's own queue.
	TaskQueue string
	// StateSealer encrypts the cookies and storage saved after each step; nil stores them
	// as they are.
	StateSealer *codec.Sealer
	// Secrets are the secrets this worker's operator grants; nil grants none.
	Secrets *secret.Vault
	// Notify tells a run begun before the intent object, durably, that an attempt is
	// about to act (ActingSignal), and returns once the server has it; nil tells nobody.
	// A run since records it in Store (intent.go).
	Notify func(ctx context.Context, workflowID, runID string, n activities.ActingNotice) error

	// cleanup counts the deletions of ended runs' state still under way (Wait).
	cleanup sync.WaitGroup
	// queues are each run's work done beside its steps (by key prefix): the last one's
	// done channel, which the next one waits for.
	queuesMu sync.Mutex
	queues   map[string]chan struct{}
	// draining says the worker is stopping (Drain); inflight counts the browser
	// activities under way, and lastUsed is when one last ended (unix nanoseconds).
	draining atomic.Bool
	inflight atomic.Int64
	lastUsed atomic.Int64
	// sessions are the runs' key prefixes by the session that holds their browser, for
	// the dataset's memory (forget.go); under queuesMu.
	sessions map[string]string
}

// behind runs f beside the run's steps, after the run's earlier work of this kind.
func (a *Activities) behind(prefix string, f func(ctx context.Context)) {
	a.queuesMu.Lock()
	if a.queues == nil {
		a.queues = map[string]chan struct{}{}
	}
	prev, done := a.queues[prefix], make(chan struct{})
	a.queues[prefix] = done
	a.queuesMu.Unlock()
	a.cleanup.Add(1)
	go func() {
		defer a.cleanup.Done()
		defer close(done)
		if prev != nil {
			<-prev
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		f(ctx)
	}()
}

// caughtUp waits, up to limit, for the run's work done beside its steps.
func (a *Activities) caughtUp(prefix string, limit time.Duration) {
	a.queuesMu.Lock()
	last := a.queues[prefix]
	a.queuesMu.Unlock()
	if last == nil {
		return
	}
	select {
	case <-last:
	case <-time.After(limit):
	}
	a.queuesMu.Lock()
	if a.queues[prefix] == last {
		delete(a.queues, prefix)
	}
	a.queuesMu.Unlock()
}

// Wait waits for the background clean-up of ended runs (the worker's graceful stop).
func (a *Activities) Wait() { a.cleanup.Wait() }

// putState stores a run's cookies and local storage: sealed with the workers' state key,
// and tagged so that the bucket deletes them after a day if the run's end does not.
func (a *Activities) putState(ctx context.Context, key string, state []byte) error {
	data, ct := state, "application/json"
	if a.StateSealer != nil {
		var err error
		if data, err = a.StateSealer.Seal(state); err != nil {
			return err
		}
		ct = "application/octet-stream"
	}
	if e, ok := a.Store.(interface {
		PutExpiring(ctx context.Context, key, contentType string, data []byte) error
	}); ok {
		return e.PutExpiring(ctx, key, ct, data)
	}
	return a.Store.Put(ctx, key, ct, data)
}

func (a *Activities) session(id string) (*driver.Session, error) {
	s, err := a.Pool.Get(id)
	if errors.Is(err, driver.ErrSessionNotFound) {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), activities.ErrSessionLost, err)
	}
	return s, err
}
