package testenv

import (
	"fmt"
	"os"
	"sync"
	"testing"
)

// MainTB lets a TestMain start servers with this package's functions, which take a
// testing.TB: its cleanups run at Close, and Fatalf prints, cleans up and exits 1. A
// package's Example tests need it, since no test is running while they are.
type MainTB struct {
	testing.TB // nil: only the methods below may be called
	mu         sync.Mutex
	cleanups   []func()
	failed     bool
}

// Helper does nothing: there is no test to attribute lines to.
func (m *MainTB) Helper() {}

// Cleanup registers f to run at Close, the last registered first.
func (m *MainTB) Cleanup(f func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cleanups = append(m.cleanups, f)
}

// Logf prints to the standard error.
func (m *MainTB) Logf(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }

// Fatalf prints, runs the cleanups and exits 1.
func (m *MainTB) Fatalf(format string, args ...any) {
	m.mu.Lock()
	m.failed = true
	m.mu.Unlock()
	m.Logf(format, args...)
	m.Close()
	os.Exit(1)
}

// Failed reports whether Fatalf was called.
func (m *MainTB) Failed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.failed
}

// TempDir is a new folder removed at Close.
func (m *MainTB) TempDir() string {
	dir, err := os.MkdirTemp("", "webagent-main-")
	if err != nil {
		m.Fatalf("temp dir: %v", err)
	}
	m.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// Close runs the cleanups, the last registered first.
func (m *MainTB) Close() {
	m.mu.Lock()
	fs := m.cleanups
	m.cleanups = nil
	m.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}
