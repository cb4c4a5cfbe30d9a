// Package testenv finds the tools the integration tests run for real — the Temporal dev
// server, MinIO, Chromium and the Playwright driver — where `make setup` installed them,
// and starts them on free ports of their own: a package's tests share one Temporal and
// one MinIO (Shared), each test in a namespace and a bucket of its own.
package testenv

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/webagent-dev/webagent/internal/config"
)

// Pinned versions (config holds them; deploy/versions.sh holds the same for the scripts).
const (
	TemporalCLIVersion    = config.TemporalCLIVersion
	MinIOVersion          = config.MinIOVersion
	PlaywrightCoreVersion = config.PlaywrightCoreVersion
	WeaviateVersion       = config.WeaviateVersion
)

// Tool returns the path of an installed tool from its environment variable or the cache,
// and fails the test with what to run when it is missing.
func Tool(t testing.TB, envVar, cached string) string {
	t.Helper()
	p := os.Getenv(envVar)
	if p == "" {
		p = filepath.Join(config.ToolsDir(), cached)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s is not installed at %s: run `make setup` (or set %s)", filepath.Base(cached), p, envVar)
	}
	return p
}

// TemporalBin is the temporal CLI.
func TemporalBin(t testing.TB) string {
	return Tool(t, "TEMPORAL_BIN", filepath.Join("temporal-"+TemporalCLIVersion, "temporal"))
}

// MinIOBin is the MinIO server.
func MinIOBin(t testing.TB) string {
	return Tool(t, "MINIO_BIN", filepath.Join("minio-"+MinIOVersion, "minio"))
}

// DriverDir is the playwright-core driver layout.
func DriverDir(t testing.TB) string {
	return Tool(t, "PLAYWRIGHT_DRIVER_DIR", "playwright-driver-"+PlaywrightCoreVersion)
}

// Chromium is the Chromium binary.
func Chromium(t testing.TB) string {
	p := os.Getenv("CHROMIUM_PATH")
	if p == "" {
		p = config.ChromiumHeadlessShell
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("chromium is not installed at %s: run `make setup` (or set CHROMIUM_PATH)", p)
	}
	return p
}

// FreePort returns a TCP port on 127.0.0.1 that nothing listens on now.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Addr returns 127.0.0.1:port.
func Addr(port int) string { return fmt.Sprintf("127.0.0.1:%d", port) }
