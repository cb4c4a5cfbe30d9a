package main

import (
	"os"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/sites"
)

func TestFromEnvNamesEveryWrongVariable(t *testing.T) {
	t.Setenv("CHROMIUM_PATH", "/nowhere/chromium")
	t.Setenv("PLAYWRIGHT_DRIVER_DIR", "/nowhere/driver")
	t.Setenv("WEBAGENT_MAX_BROWSERS", "many")
	t.Setenv("WEBAGENT_HEADLESS", "perhaps")
	t.Setenv("WEBAGENT_SKILL_THRESHOLD", "2")
	t.Setenv("WEBAGENT_LOG_LEVEL", "loud")
	t.Setenv("WEBAGENT_STOP_TIMEOUT", "10ms")
	t.Setenv("WEBAGENT_INTERNAL_ADDRESSES", "loopback, everything here")
	t.Setenv("WEBAGENT_SECRETS", `{"pw": {"from": "env:WEBAGENT_NO_SUCH_VARIABLE", "sites": ["shop.example.com"]}}`)
	_, err := FromEnv()
	if err == nil {
		t.Fatal("want an error")
	}
	for _, name := range []string{"CHROMIUM_PATH", "PLAYWRIGHT_DRIVER_DIR", "WEBAGENT_MAX_BROWSERS", "WEBAGENT_HEADLESS", "WEBAGENT_SKILL_THRESHOLD", "WEBAGENT_LOG_LEVEL", "WEBAGENT_STOP_TIMEOUT", "WEBAGENT_INTERNAL_ADDRESSES", "WEBAGENT_SECRETS"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("the error should name %s:\n%v", name, err)
		}
	}
}

func TestFromEnvDefaults(t *testing.T) {
	t.Setenv("CHROMIUM_PATH", "/bin/sh") // any file that exists
	t.Setenv("PLAYWRIGHT_DRIVER_DIR", t.TempDir())
	t.Setenv("WEAVIATE_URL", "off")
	c, err := FromEnv()
	if err == nil || !strings.Contains(err.Error(), "PLAYWRIGHT_DRIVER_DIR") || strings.Contains(err.Error(), "CHROMIUM_PATH") {
		t.Fatalf("only the driver should be missing: %v", err)
	}
	if c.Temporal.Address != "127.0.0.1:7233" || c.TaskQueue != "webagent" || c.Store.Bucket != "webagent" || c.Weaviate.Host != "" ||
		c.Browser.MaxSessions != 4 || !c.Browser.Headless || c.Weaviate.Threshold != 0.95 ||
		c.Browser.Internal.String() != "none" || len(c.Secrets.Names()) != 0 || c.StopTimeout != DefaultStopTimeout {
		t.Fatalf("defaults: %+v", c)
	}
}

func TestUnsafeDefaults(t *testing.T) {
	var c Config
	c.Store.Endpoint, c.Store.AccessKey, c.Store.SecretKey = "127.0.0.1:9000", "minioadmin", "minioadmin"
	c.Weaviate.Host = "localhost:8080"
	if w := unsafeDefaults(c); len(w) != 0 {
		t.Errorf("defaults on loopback are fine: %v", w)
	}
	c.Store.Endpoint, c.Weaviate.Host = "minio.internal:9000", "http://10.0.0.7:8080"
	if w := unsafeDefaults(c); len(w) != 2 {
		t.Errorf("want two warnings off loopback, got %v", w)
	}
	c.Browser.Internal, _ = sites.ParseInternal("link-local")
	if w := unsafeDefaults(c); len(w) != 3 || !strings.Contains(w[2], "cloud metadata") {
		t.Errorf("granting link-local addresses should warn of the metadata service: %v", w)
	}
}

func TestFromEnvPicksTheChromiumForTheMode(t *testing.T) {
	t.Setenv("CHROMIUM_PATH", "")
	t.Setenv("WEAVIATE_URL", "off")
	c, _ := FromEnv()
	if c.Browser.ExecutablePath != "/usr/lib/chromium/chromium-headless-shell" {
		t.Errorf("headless: %s, want the headless shell", c.Browser.ExecutablePath)
	}
	t.Setenv("WEBAGENT_HEADLESS", "false")
	if c, _ = FromEnv(); c.Browser.ExecutablePath != "/usr/lib/chromium/chromium" {
		t.Errorf("headed: %s, want the full browser", c.Browser.ExecutablePath)
	}
	shell := t.TempDir() + "/chromium-headless-shell"
	if err := os.WriteFile(shell, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CHROMIUM_PATH", shell)
	if _, err := FromEnv(); err == nil || !strings.Contains(err.Error(), "WEBAGENT_HEADLESS=false") || !strings.Contains(err.Error(), "headless shell") {
		t.Errorf("a headed worker on the headless shell should be refused with a reason: %v", err)
	}
}
