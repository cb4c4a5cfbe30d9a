// Package deploy_test checks the container files statically: there is no Docker engine
// where the tests run, so what can be checked without one is checked here — the compose
// file loads under the Compose specification, its services are configured with names
// the worker reads (the Environment table of docs/configuration.md), its build contexts
// and Dockerfile targets exist, its ports agree with the local stack and the README, no
// credential is written in it, and the images build and start the binaries the way
// deploy/up.sh does.
package deploy_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"

	"github.com/webagent-dev/webagent/workflows"
)

const root = ".."

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// dotenv reads .env.example as docker compose reads .env.
func dotenv(t *testing.T) map[string]string {
	env := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(read(t, ".env.example")))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf(".env.example: %q is not NAME=value", line)
		}
		env[k] = v
	}
	return env
}

func load(t *testing.T) *types.Project {
	t.Helper()
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	p, err := loader.LoadWithContext(context.Background(), types.ConfigDetails{
		WorkingDir:  abs,
		ConfigFiles: []types.ConfigFile{{Filename: filepath.Join(abs, "docker-compose.yml")}},
		Environment: dotenv(t),
	}, func(o *loader.Options) { o.SetProjectName("webagent", true) })
	if err != nil {
		t.Fatalf("docker-compose.yml does not load: %v", err)
	}
	return p
}

// envDoc is the documentation page whose Environment section lists the worker's
// environment variables (the README links it).
const envDoc = "docs/configuration.md"

// workerNames are the environment variables the worker reads: the names in the
// Environment table of envDoc that also appear in its code.
func workerNames(t *testing.T) map[string]bool {
	t.Helper()
	doc := read(t, envDoc)
	i := strings.Index(doc, "## Environment")
	if i < 0 {
		t.Fatalf("%s has no Environment section", envDoc)
	}
	table := doc[i:]
	if j := strings.Index(table[3:], "\n## "); j >= 0 {
		table = table[:j+3]
	}
	var code strings.Builder
	for _, dir := range []string{"workers", "internal", "activities"} {
		_ = filepath.Walk(filepath.Join(root, dir), func(path string, info os.FileInfo, err error) error {
			if err == nil && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
				b, _ := os.ReadFile(path)
				code.Write(b)
			}
			return nil
		})
	}
	names := map[string]bool{}
	for _, m := range regexp.MustCompile("`([A-Z][A-Z0-9_]+)`").FindAllStringSubmatch(table, -1) {
		if strings.Contains(code.String(), `"`+m[1]+`"`) {
			names[m[1]] = true
		}
	}
	return names
}

func TestComposeFile(t *testing.T) {
	p := load(t)
	for _, name := range []string{"postgresql", "temporal", "temporal-setup", "temporal-ui", "minio", "weaviate", "demoapp", "worker"} {
		if _, err := p.GetService(name); err != nil {
			t.Errorf("service %s: %v", name, err)
		}
	}

	// The worker is configured only with names it reads, and can be scaled.
	w, err := p.GetService("worker")
	if err != nil {
		t.Fatal(err)
	}
	known := workerNames(t)
	for name := range w.Environment {
		if !known[name] {
			t.Errorf("the worker service sets %s, which the worker does not read (not in the Environment table of %s and its code)", name, envDoc)
		}
	}
	for _, name := range []string{"TEMPORAL_ADDRESS", "MINIO_ENDPOINT", "MINIO_ACCESS_KEY", "MINIO_SECRET_KEY", "WEAVIATE_URL"} {
		if _, ok := w.Environment[name]; !ok {
			t.Errorf("the worker service does not set %s", name)
		}
	}
	if w.ContainerName != "" || len(w.Ports) > 0 {
		t.Error("the worker must scale (docker compose up --scale worker=4): no container_name, no host ports")
	}

	// Build contexts and Dockerfile targets exist.
	dockerfile := read(t, "deploy/Dockerfile")
	for _, s := range p.Services {
		if s.Build == nil {
			continue
		}
		if _, err := os.Stat(s.Build.Context); err != nil {
			t.Errorf("service %s: build context %s: %v", s.Name, s.Build.Context, err)
		}
		if _, err := os.Stat(filepath.Join(s.Build.Context, s.Build.Dockerfile)); err != nil {
			t.Errorf("service %s: Dockerfile %s: %v", s.Name, s.Build.Dockerfile, err)
		}
		if !regexp.MustCompile(`(?m)^FROM .* AS ` + regexp.QuoteMeta(s.Build.Target) + `$`).MatchString(dockerfile) {
			t.Errorf("service %s: the Dockerfile has no stage %q", s.Name, s.Build.Target)
		}
	}

	// Health checks and volumes for what must survive a restart.
	for _, name := range []string{"postgresql", "temporal", "minio", "weaviate", "demoapp"} {
		if s, _ := p.GetService(name); s.HealthCheck == nil || len(s.HealthCheck.Test) == 0 {
			t.Errorf("service %s has no health check", name)
		}
	}
	for name, path := range map[string]string{"postgresql": "/var/lib/postgresql/data", "minio": "/data", "weaviate": "/var/lib/weaviate"} {
		s, _ := p.GetService(name)
		if !slices.ContainsFunc(s.Volumes, func(v types.ServiceVolumeConfig) bool { return v.Type == "volume" && v.Target == path }) {
			t.Errorf("service %s keeps %s in no named volume", name, path)
		}
	}

	// Host ports: the local stack's defaults (deploy/stack.sh), as the README says.
	stack, readme := read(t, "deploy/stack.sh"), read(t, "README.md")
	for service, port := range map[string]string{"temporal": "TEMPORAL_PORT", "temporal-ui": "TEMPORAL_UI_PORT", "minio": "MINIO_PORT", "weaviate": "WEAVIATE_PORT", "demoapp": "DEMOAPP_PORT"} {
		m := regexp.MustCompile(regexp.QuoteMeta(port) + `:=(\d+)`).FindStringSubmatch(stack)
		if m == nil {
			t.Fatalf("deploy/stack.sh has no default for %s", port)
		}
		s, _ := p.GetService(service)
		if len(s.Ports) != 1 || s.Ports[0].Published != m[1] {
			t.Errorf("service %s publishes %v, want %s (%s)", service, s.Ports, m[1], port)
		}
		if !strings.Contains(readme, ":"+m[1]) {
			t.Errorf("the README never mentions port %s (%s)", m[1], port)
		}
	}

	// Every search attribute is registered at start.
	setup, _ := p.GetService("temporal-setup")
	cmd := strings.Join(setup.Command, " ")
	for _, a := range workflows.SearchAttributes {
		if !strings.Contains(cmd, a.Name+"="+a.Type) {
			t.Errorf("temporal-setup does not register %s (%s)", a.Name, a.Type)
		}
	}
}

// No credential is written in the compose file: every password, secret or key comes from
// the environment (.env), and .env.example says what to set.
func TestNoCredentialsBakedIn(t *testing.T) {
	secretName := regexp.MustCompile(`(?i)(PASSWORD|PASSWD|PWD|SECRET|_KEY|_KEYS|ROOT_USER)\s*:`)
	for i, line := range strings.Split(read(t, "docker-compose.yml"), "\n") {
		if secretName.MatchString(line) && !strings.Contains(line, "${") {
			t.Errorf("docker-compose.yml:%d writes a credential: %s", i+1, strings.TrimSpace(line))
		}
	}
	if strings.Contains(read(t, "deploy/Dockerfile"), "PASSWORD") {
		t.Error("the Dockerfile mentions a password")
	}
}

// The images run what the local stack runs: the same packages built, Chromium and the
// driver installed by the same script at the pinned version, as a non-root user.
func TestDockerfileMatchesTheLocalStack(t *testing.T) {
	df, up, versions := read(t, "deploy/Dockerfile"), read(t, "deploy/up.sh"), read(t, "deploy/versions.sh")
	for _, pkg := range []string{"./workers", "./demoapp/cmd/demoapp"} {
		if !strings.Contains(up, pkg) || !strings.Contains(df, pkg) {
			t.Errorf("%s: built by up.sh %v, by the Dockerfile %v", pkg, strings.Contains(up, pkg), strings.Contains(df, pkg))
		}
	}
	for _, step := range []string{"setup.sh chromium", "setup.sh playwright"} {
		if !strings.Contains(df, step) {
			t.Errorf("the worker image does not run deploy/%s", step)
		}
	}
	pin := regexp.MustCompile(`PLAYWRIGHT_CORE_VERSION:=([0-9.]+)`).FindStringSubmatch(versions)
	if pin == nil || !strings.Contains(df, "playwright-driver-"+pin[1]) {
		t.Errorf("the worker image's driver is not the pinned %v", pin)
	}
	stage := df[strings.Index(df, "AS worker"):]
	stage = stage[:strings.Index(stage, "\nFROM ")]
	if !regexp.MustCompile(`(?m)^USER webagent$`).MatchString(stage) {
		t.Error("the worker image does not run as a non-root user")
	}
	// The weaviate service is configured as up.sh starts it.
	p := load(t)
	wv, _ := p.GetService("weaviate")
	for _, name := range []string{"AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED", "DEFAULT_VECTORIZER_MODULE", "DISABLE_TELEMETRY", "PERSISTENCE_DATA_PATH"} {
		if !strings.Contains(up, name) {
			t.Fatalf("up.sh no longer sets %s: update this test", name)
		}
		if _, ok := wv.Environment[name]; !ok {
			t.Errorf("the weaviate service does not set %s as up.sh does", name)
		}
	}
}
