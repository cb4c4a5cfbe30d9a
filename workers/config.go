package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/activities/model"
	"github.com/webagent-dev/webagent/activities/skills"
	"github.com/webagent-dev/webagent/activities/store"
	"github.com/webagent-dev/webagent/internal/codec"
	"github.com/webagent-dev/webagent/internal/config"
	"github.com/webagent-dev/webagent/internal/secret"
	"github.com/webagent-dev/webagent/internal/sites"
	"github.com/webagent-dev/webagent/workflows"
)

// Config is everything the worker reads from its environment.
type Config struct {
	Temporal  config.Temporal
	TaskQueue string // WEBAGENT_TASK_QUEUE
	Store     store.Config
	Browser   driver.Config
	// Model is used when Gemini credentials are configured (model.Configured).
	Model model.Config
	// ModelCheckCache remembers the models the API said exist, for a day
	// (WEBAGENT_MODEL_CHECK_CACHE; "off" asks at every start).
	ModelCheckCache string
	// Weaviate holds the skills library.
	Weaviate WeaviateConfig
	// ModelRate caps model activities per second across all workers (WEBAGENT_MODEL_RATE).
	ModelRate float64
	// StateThreshold is the share of pixels that makes a new UI state in the dataset when
	// the page's structure did not change (WEBAGENT_STATE_THRESHOLD, default 0.02).
	StateThreshold float64
	LogLevel       slog.Level // WEBAGENT_LOG_LEVEL
	// StopTimeout is how long a stopping worker waits for the steps it is running to
	// finish (WEBAGENT_STOP_TIMEOUT): at least a step's time limit, so that a deploy
	// stops no step halfway.
	StopTimeout time.Duration
	// MetricsAddr is where the worker serves its Prometheus metrics, host:port
	// (WEBAGENT_METRICS_ADDR); "" serves none.
	MetricsAddr string
	// StateKey seals the browser's cookies and storage in MinIO: WEBAGENT_STATE_KEY, else
	// the first key of WEBAGENT_CODEC_KEYS, else one derived from MinIO's secret key
	// (StateKeyFrom says which).
	StateKey     []byte
	StateKeyFrom string
	// Secrets are the secrets the operator grants runs, by name, each with the sites it
	// may be typed on (WEBAGENT_SECRETS: a JSON file, or the JSON itself).
	Secrets *secret.Vault
	// Notify are the webhooks runs may name, and the key that signs the posts
	// (WEBAGENT_NOTIFY_URLS, WEBAGENT_NOTIFY_KEY).
	Notify NotifyConfig
}

// DefaultStopTimeout is a browser step's longest time limit: two minutes, and a wait
// budget of up to a minute.
const DefaultStopTimeout = 3 * time.Minute

// WeaviateConfig says where the skills library is.
type WeaviateConfig struct {
	// Host is host:port of Weaviate's REST API (WEAVIATE_URL); "" (WEAVIATE_URL=off)
	// runs without skills.
	Host string
	// Threshold is the similarity above which a skill is reused (WEBAGENT_SKILL_THRESHOLD).
	Threshold float64
}

// FromEnv reads the configuration; the error names every variable that is wrong. Each
// section reads its own variables and joins its own errors, and the sections run in an
// order that keeps the errors in the order of the variables below.
func FromEnv() (Config, error) {
	var errs []error
	keep := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	c := Config{
		Temporal:  config.TemporalFromEnv(),
		TaskQueue: config.Get("WEBAGENT_TASK_QUEUE", workflows.TaskQueue),
	}
	internal, err := sites.ParseInternal(os.Getenv(sites.InternalEnv))
	keep(err)
	c.Secrets, err = secret.FromEnv()
	keep(err)
	c.Model, err = model.ConfigFromEnv(os.Getenv)
	keep(err)
	c.ModelCheckCache = modelCheckCacheFromEnv()
	c.Store, err = storeFromEnv()
	keep(err)
	c.Browser, err = browserFromEnv(internal)
	keep(err)
	c.Weaviate, err = weaviateFromEnv()
	keep(err)
	c.StateKey, c.StateKeyFrom, err = stateKeyFromEnv(c.Store.SecretKey)
	keep(err)
	c.StateThreshold, err = config.Float("WEBAGENT_STATE_THRESHOLD", 0.02)
	keep(err)
	if c.StateThreshold <= 0 || c.StateThreshold >= 1 {
		errs = append(errs, fmt.Errorf("WEBAGENT_STATE_THRESHOLD=%v: a share between 0 and 1, e.g. 0.02", c.StateThreshold))
	}
	rate, err := config.Int("WEBAGENT_MODEL_RATE", 10)
	keep(err)
	c.ModelRate = float64(rate)
	c.MetricsAddr = config.Get("WEBAGENT_METRICS_ADDR", "")
	c.StopTimeout, err = config.Duration("WEBAGENT_STOP_TIMEOUT", DefaultStopTimeout)
	keep(err)
	if c.StopTimeout < time.Second {
		errs = append(errs, fmt.Errorf("WEBAGENT_STOP_TIMEOUT=%v: at least 1s, and a step's time limit (%v) to stop no step halfway", c.StopTimeout, DefaultStopTimeout))
	}
	if err := c.LogLevel.UnmarshalText([]byte(config.Get("WEBAGENT_LOG_LEVEL", "info"))); err != nil {
		errs = append(errs, fmt.Errorf("WEBAGENT_LOG_LEVEL: %w (debug, info, warn or error)", err))
	}
	keep(checkBrowser(c.Browser))
	c.Notify, err = notifyFromEnv()
	keep(err)
	return c, errors.Join(errs...)
}

// modelCheckCacheFromEnv is the file that remembers which models the API said exist, or
// "" when WEBAGENT_MODEL_CHECK_CACHE is "off".
func modelCheckCacheFromEnv() string {
	file := config.Get("WEBAGENT_MODEL_CHECK_CACHE", filepath.Join(config.CacheDir(), "models.json"))
	if strings.EqualFold(file, "off") {
		return ""
	}
	return file
}

// browserFromEnv reads the browsers' settings, with the internal addresses runs are
// granted; the Chromium it picks by default is the one for the mode, headless or not.
// checkBrowser says later whether what it names is there.
func browserFromEnv(internal sites.Internal) (driver.Config, error) {
	b := driver.Config{
		DriverDir: config.Get("PLAYWRIGHT_DRIVER_DIR", filepath.Join(config.ToolsDir(), "playwright-driver-"+config.PlaywrightCoreVersion)),
		Width:     1280,
		Height:    800,
		Internal:  internal,
	}
	var headless, sessions, idle error
	b.Headless, headless = config.Bool("WEBAGENT_HEADLESS", true)
	b.ExecutablePath = config.Get("CHROMIUM_PATH", config.Chromium(b.Headless))
	b.MaxSessions, sessions = config.Int("WEBAGENT_MAX_BROWSERS", 4)
	b.IdleTimeout, idle = config.Duration("WEBAGENT_BROWSER_IDLE_TIMEOUT", 30*time.Minute)
	return b, errors.Join(headless, sessions, idle)
}

// checkBrowser says what keeps the browser settings from starting a browser: no room for
// one, no Chromium where they say, the headless shell for a headed browser, or no
// Playwright driver.
func checkBrowser(b driver.Config) error {
	var errs []error
	if b.MaxSessions < 1 {
		errs = append(errs, fmt.Errorf("WEBAGENT_MAX_BROWSERS=%d: at least 1", b.MaxSessions))
	}
	if _, err := os.Stat(b.ExecutablePath); err != nil {
		errs = append(errs, fmt.Errorf("CHROMIUM_PATH=%s: no such file (run `make setup`, or point it at Chromium)", b.ExecutablePath))
	} else if !b.Headless && driver.IsHeadlessShell(b.ExecutablePath) {
		errs = append(errs, fmt.Errorf("WEBAGENT_HEADLESS=false: CHROMIUM_PATH=%s is the headless shell, which shows no window; point it at the full browser (%s; `apt-get install chromium`)", b.ExecutablePath, config.ChromiumFull))
	}
	if _, err := os.Stat(filepath.Join(b.DriverDir, "package", "cli.js")); err != nil {
		errs = append(errs, fmt.Errorf("PLAYWRIGHT_DRIVER_DIR=%s: no playwright-core driver there (run `make setup`)", b.DriverDir))
	}
	return errors.Join(errs...)
}

// weaviateFromEnv reads where the skills library is and the similarity at which a skill
// is reused.
func weaviateFromEnv() (WeaviateConfig, error) {
	w := WeaviateConfig{Host: strings.TrimPrefix(config.Get("WEAVIATE_URL", "127.0.0.1:8080"), "http://")}
	if strings.EqualFold(w.Host, "off") {
		w.Host = ""
	}
	var err error
	w.Threshold, err = config.Float("WEBAGENT_SKILL_THRESHOLD", skills.DefaultThreshold)
	if w.Threshold <= 0 || w.Threshold > 1 {
		err = errors.Join(err, fmt.Errorf("WEBAGENT_SKILL_THRESHOLD=%v: a similarity between 0 and 1, e.g. 0.95", w.Threshold))
	}
	return w, err
}

// stateKeyFromEnv picks the key that seals the browser's saved state, and says where it
// came from: WEBAGENT_STATE_KEY, else the first codec key, else one derived from MinIO's
// secret key, so that every worker of a deployment finds the same one.
func stateKeyFromEnv(minioSecret string) ([]byte, string, error) {
	if k := strings.TrimSpace(os.Getenv("WEBAGENT_STATE_KEY")); k != "" {
		key, err := codec.KeyFromBase64(k)
		if err != nil {
			err = fmt.Errorf("WEBAGENT_STATE_KEY: %w", err)
		}
		return key, "WEBAGENT_STATE_KEY", err
	}
	if key, ok := codec.FirstKey(os.Getenv(codec.Env)); ok {
		return key, codec.Env, nil
	}
	return codec.DeriveKey(minioSecret, "browser-state"), "MINIO_SECRET_KEY", nil
}

// storeFromEnv reads the object store's settings.
func storeFromEnv() (store.Config, error) {
	ssl, err := config.Bool("MINIO_USE_SSL", false)
	return store.Config{
		Endpoint:  config.Get("MINIO_ENDPOINT", "127.0.0.1:9000"),
		AccessKey: config.Get("MINIO_ACCESS_KEY", "minioadmin"),
		SecretKey: config.Get("MINIO_SECRET_KEY", "minioadmin"),
		Bucket:    config.Get("MINIO_BUCKET", "webagent"),
		UseSSL:    ssl,
	}, err
}
