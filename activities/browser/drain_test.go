package browser

import (
	"log/slog"
	"testing"
	"time"
)

// TestDrained: a draining worker waits for its runs' browsers to be handed on while its
// steps go on, and stops waiting once no browser is left, or none has been used for the
// grace with no step under way, or its limit passes.
func TestDrained(t *testing.T) {
	p := &Pool{sessions: map[string]*Session{"a/1": nil}, log: slog.New(slog.DiscardHandler)}
	a := &Activities{Pool: p}
	a.Drain()
	done := a.busy() // a step under way
	start := time.Now()
	if left := a.Drained(300 * time.Millisecond); left != 1 || time.Since(start) < 300*time.Millisecond {
		t.Fatalf("with a step under way it should wait out its limit: %d left after %s", left, time.Since(start))
	}
	done()
	a.lastUsed.Store(time.Now().Add(-drainGrace).UnixNano())
	start = time.Now()
	if left := a.Drained(time.Minute); left != 1 || time.Since(start) > time.Second {
		t.Fatalf("quiet for the grace, it should stop waiting: %d left after %s", left, time.Since(start))
	}
	delete(p.sessions, "a/1")
	if left := a.Drained(time.Minute); left != 0 {
		t.Fatalf("%d left", left)
	}
	if a.Free() != 0 {
		t.Error("a draining worker has no browser free")
	}
}
