// Package config reads the settings the worker and the starter share from the
// environment, with defaults that match the local stack `make up` starts.
package config

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"

	"github.com/webagent-dev/webagent/internal/codec"
)

// Pinned tool versions, where `make setup` caches them; deploy/versions.sh holds the same
// pins for the scripts.
const (
	TemporalCLIVersion    = "v1.5.1"
	MinIOVersion          = "v0.0.0-20260212201848-7aac2a2c5b7c"
	PlaywrightCoreVersion = "1.52.0"
	WeaviateVersion       = "v1.35.2"
)

// Debian's Chromium builds (deploy/versions.sh and deploy/setup.sh name the same): the
// headless shell the workers run by default — a page opened in it costs a sixth of the CPU
// of the full browser's headless mode — and the full browser a headed worker needs.
const (
	ChromiumHeadlessShell = "/usr/lib/chromium/chromium-headless-shell"
	ChromiumFull          = "/usr/lib/chromium/chromium"
)

// Chromium is the default Chromium binary for a headless or a headed browser.
func Chromium(headless bool) string {
	if headless {
		return ChromiumHeadlessShell
	}
	return ChromiumFull
}

// Temporal says where the Temporal service is.
type Temporal struct {
	Address   string // TEMPORAL_ADDRESS
	Namespace string // TEMPORAL_NAMESPACE
	// UIURL is the Web UI's base URL, for links to runs.
	UIURL string // TEMPORAL_UI_URL
	// APIKey authenticates to Temporal Cloud (or any server that takes API keys); it
	// implies TLS.
	APIKey string // TEMPORAL_API_KEY
	// TLS turns TLS on; TLSCert and TLSKey are a client certificate and its key for mTLS
	// (Temporal Cloud's other way in), TLSCA the server's CA when it is not a public one,
	// TLSServerName the name to verify when it differs from the address's host.
	TLS           bool   // TEMPORAL_TLS
	TLSCert       string // TEMPORAL_TLS_CERT (a PEM file)
	TLSKey        string // TEMPORAL_TLS_KEY (a PEM file)
	TLSCA         string // TEMPORAL_TLS_CA (a PEM file)
	TLSServerName string // TEMPORAL_TLS_SERVER_NAME
	// Metrics receives the SDK's metrics and the runs' own; nil drops them.
	Metrics client.MetricsHandler
}

// TemporalFromEnv reads Temporal's settings.
func TemporalFromEnv() Temporal {
	return Temporal{
		Address:   Get("TEMPORAL_ADDRESS", "127.0.0.1:7233"),
		Namespace: Get("TEMPORAL_NAMESPACE", "default"),
		UIURL:     strings.TrimRight(Get("TEMPORAL_UI_URL", "http://127.0.0.1:8233"), "/"),
		APIKey:    os.Getenv("TEMPORAL_API_KEY"),
		TLS:       strings.EqualFold(os.Getenv("TEMPORAL_TLS"), "true"),
		TLSCert:   os.Getenv("TEMPORAL_TLS_CERT"), TLSKey: os.Getenv("TEMPORAL_TLS_KEY"),
		TLSCA: os.Getenv("TEMPORAL_TLS_CA"), TLSServerName: os.Getenv("TEMPORAL_TLS_SERVER_NAME"),
	}
}

// tlsConfig is the TLS the settings ask for, or nil for a plain connection.
func (t Temporal) tlsConfig() (*tls.Config, error) {
	if !t.TLS && t.APIKey == "" && t.TLSCert == "" && t.TLSCA == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: t.TLSServerName}
	if (t.TLSCert == "") != (t.TLSKey == "") {
		return nil, errors.New("TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together: set both (a client certificate and its key, PEM files) or neither")
	}
	if t.TLSCert != "" {
		pair, err := tls.LoadX509KeyPair(t.TLSCert, t.TLSKey)
		if err != nil {
			return nil, fmt.Errorf("TEMPORAL_TLS_CERT/TEMPORAL_TLS_KEY: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	if t.TLSCA != "" {
		pem, err := os.ReadFile(t.TLSCA)
		if err != nil {
			return nil, fmt.Errorf("TEMPORAL_TLS_CA: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("TEMPORAL_TLS_CA: %s holds no PEM certificate", t.TLSCA)
		}
		cfg.RootCAs = pool
	}
	return cfg, nil
}

// Dial connects to Temporal within timeout, logging to log (nil: nowhere). The error
// says where it looked and how to start the local stack.
func (t Temporal) Dial(ctx context.Context, timeout time.Duration, log *slog.Logger) (client.Client, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	opts := client.Options{HostPort: t.Address, Namespace: t.Namespace, Logger: tlog.NewStructuredLogger(log), MetricsHandler: t.Metrics}
	tc, err := t.tlsConfig()
	if err != nil {
		return nil, err
	}
	opts.ConnectionOptions.TLS = tc
	if t.APIKey != "" {
		opts.Credentials = client.NewAPIKeyStaticCredentials(t.APIKey)
	}
	// With WEBAGENT_CODEC_KEYS set, everything written into the history is encrypted.
	cd, err := codec.FromEnv()
	if err != nil {
		return nil, err
	}
	if cd != nil {
		opts.DataConverter, opts.FailureConverter = cd.DataConverter(), cd.FailureConverter()
	}
	c, err := client.DialContext(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("cannot reach Temporal at %s: %w (start the local stack with `make up`, or set TEMPORAL_ADDRESS)", t.Address, err)
	}
	return c, nil
}

// RunURL is the Web UI page of a workflow run.
func (t Temporal) RunURL(workflowID, runID string) string {
	return fmt.Sprintf("%s/namespaces/%s/workflows/%s/%s/history", t.UIURL, t.Namespace, workflowID, runID)
}

// ToolsDir is where `make setup` caches the tools it builds (WEBAGENT_TOOLS).
func ToolsDir() string {
	if d := os.Getenv("WEBAGENT_TOOLS"); d != "" {
		return d
	}
	return filepath.Join(CacheDir(), "tools")
}

// CacheDir is the project's cache (WEBAGENT_CACHE): the tools, and what the worker
// learned at its last start.
func CacheDir() string {
	if cache := os.Getenv("WEBAGENT_CACHE"); cache != "" {
		return cache
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = filepath.Join(os.Getenv("HOME"), ".cache")
	}
	return filepath.Join(base, "webagent")
}

// Get returns the environment variable, or def when it is unset or empty.
func Get(name, def string) string {
	if v := strings.TrimSpace(os.Getenv(name)); v != "" {
		return v
	}
	return def
}

// Int reads an integer variable.
func Int(name string, def int) (int, error) {
	v := os.Getenv(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%q is not a whole number", name, v)
	}
	return n, nil
}

// Float reads a decimal number variable.
func Float(name string, def float64) (float64, error) {
	v := os.Getenv(name)
	if v == "" {
		return def, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, fmt.Errorf("%s=%q is not a number", name, v)
	}
	return f, nil
}

// Bool reads a boolean variable (1/0, true/false, yes/no).
func Bool(name string, def bool) (bool, error) {
	switch strings.ToLower(os.Getenv(name)) {
	case "":
		return def, nil
	case "1", "true", "yes", "on":
		return true, nil
	case "0", "false", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("%s=%q is not a boolean (true or false)", name, os.Getenv(name))
}

// Duration reads a duration variable ("30s", "5m").
func Duration(name string, def time.Duration) (time.Duration, error) {
	v := os.Getenv(name)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%q is not a duration (e.g. 30s, 5m)", name, v)
	}
	return d, nil
}
