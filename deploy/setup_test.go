package deploy_test

import (
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// testOnly are the tools only the tests use: the linters `make test` runs and the
// applications the end-to-end tests drive.
var testOnly = []string{"staticcheck", "workflowcheck", "dokuwiki", "tiddlywiki", "node-red", "todomvc"}

// plan is what `setup.sh --plan what` says it would install, one tool a line.
func plan(t *testing.T, what string) []string {
	t.Helper()
	out, err := exec.Command("bash", "setup.sh", "--plan", what).Output()
	if err != nil {
		t.Fatalf("setup.sh --plan %s: %v", what, err)
	}
	return strings.Fields(string(out))
}

// A newcomer's `make demo` installs what the demo's stack runs and nothing only the
// tests use; `make test` installs all of it.
func TestSetupInstallsOnlyWhatTheDemoNeeds(t *testing.T) {
	demo, all := plan(t, "demo"), plan(t, "test")
	for _, tool := range testOnly {
		if slices.Contains(demo, tool) {
			t.Errorf("the demo's setup installs %s, which only the tests use", tool)
		}
		if !slices.Contains(all, tool) {
			t.Errorf("the tests' setup does not install %s", tool)
		}
	}
	// What up.sh refuses to start without, and what the worker's browsers need.
	for _, tool := range []string{"go", "temporal", "minio", "weaviate", "chromium", "playwright"} {
		if !slices.Contains(demo, tool) {
			t.Errorf("the demo's setup does not install %s", tool)
		}
		if !slices.Contains(all, tool) {
			t.Errorf("the tests' setup does not install %s", tool)
		}
	}
	for _, bin := range regexp.MustCompile(`"\$([A-Z]+)_BIN"`).FindAllStringSubmatch(read(t, "deploy/up.sh"), -1) {
		if tool := strings.ToLower(bin[1]); !slices.Contains(demo, tool) {
			t.Errorf("up.sh needs %s, which the demo's setup does not install", tool)
		}
	}
	if err := exec.Command("bash", "setup.sh", "--plan", "no-such-thing").Run(); err == nil {
		t.Error("setup.sh --plan accepts a purpose it does not know")
	}
}

// The Makefile's demo path runs the demo's setup, and its test path the tests'.
func TestMakefileSetsUpForItsPurpose(t *testing.T) {
	mk := read(t, "Makefile")
	for _, rule := range []string{
		"setup:\n\t@deploy/setup.sh demo\n",
		"setup-test:\n\t@deploy/setup.sh test\n",
		"up: setup\n",
		"demo: up\n",
		"test: setup-test\n",
	} {
		if !strings.Contains(mk, rule) {
			t.Errorf("the Makefile has no rule %q", rule)
		}
	}
}
