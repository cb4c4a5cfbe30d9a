package browser

import (
	"log/slog"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/internal/testenv"
)

// poolWith is a real browser pool holding a blank session for each id.
func poolWith(t *testing.T, ids ...string) *driver.Pool {
	t.Helper()
	p, err := driver.NewPool(driver.Config{DriverDir: testenv.DriverDir(t), ExecutablePath: testenv.Chromium(t), Headless: true, Internal: testenv.Loopback()},
		slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Shutdown)
	for _, id := range ids {
		if _, _, err := p.Open(t.Context(), id, driver.OpenOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// TestDrained: a draining worker waits for its runs' browsers to be handed on while its
// steps go on, and stops waiting once no browser is left, or none has been used for the
// grace with no step under way, or its limit passes.
func TestDrained(t *testing.T) {
	p := poolWith(t, "a/1")
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
	if _, err := p.Close("a/1"); err != nil {
		t.Fatal(err)
	}
	if left := a.Drained(time.Minute); left != 0 {
		t.Fatalf("%d left", left)
	}
	if a.Free() != 0 {
		t.Error("a draining worker has no browser free")
	}
}
