package browser

import (
	"context"
	"slices"
	"testing"

	"github.com/webagent-dev/webagent/activities/dataset"
	"github.com/webagent-dev/webagent/activities/page"
)

// forgetful is a dataset that records what it was told to forget.
type forgetful struct{ forgot []string }

func (f *forgetful) Capture(context.Context, string, int, string, []byte, page.Observation) (*dataset.State, error) {
	return nil, nil
}
func (f *forgetful) Forget(prefix string) { f.forgot = append(f.forgot, prefix) }

// TestDatasetMemoryLeavesWithTheRun: a run's dataset memory is freed once its browser is
// no longer here, however it left (closed, released, handed on, reaped), and not while a
// capture of it is still under way.
func TestDatasetMemoryLeavesWithTheRun(t *testing.T) {
	d := &forgetful{}
	p := poolWith(t, "a/1", "b/1", "c/1")
	a := &Activities{Pool: p, Dataset: d}
	a.uses("a/1", "runs/a")
	a.uses("b/1", "runs/b")
	a.uses("c/1", "runs/c")
	a.forgetGone()
	if len(d.forgot) != 0 {
		t.Fatalf("forgot runs whose browsers are here: %v", d.forgot)
	}
	capturing := make(chan struct{})
	a.queues = map[string]chan struct{}{"runs/c": capturing}
	for _, id := range []string{"a/1", "c/1"} { // reaped, released or handed on
		if _, err := p.Close(id); err != nil {
			t.Fatal(err)
		}
	}
	a.forgetGone()
	if !slices.Equal(d.forgot, []string{"runs/a"}) {
		t.Fatalf("forgot %v, want runs/a alone (runs/c is still capturing)", d.forgot)
	}
	close(capturing)
	a.forgetGone()
	if !slices.Equal(d.forgot, []string{"runs/a", "runs/c"}) || len(a.sessions) != 1 {
		t.Fatalf("forgot %v, still tracked %v", d.forgot, a.sessions)
	}
}
