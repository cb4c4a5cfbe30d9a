package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/dataset"
	"github.com/webagent-dev/webagent/internal/lab"
	"github.com/webagent-dev/webagent/workflows"
)

// TestDataset runs a goal through a dialog and a row menu — UI states without a URL of
// their own — and exports its visual dataset with the starter.
func TestDataset(t *testing.T) {
	s := newStack(t)
	// The demo app's late "Import" button is a new state wherever it lands in the run, and
	// a run that fast can meet it between the menu's opening and the next step (the menu
	// seen again, with one more button). This test is about the dialog and the menu.
	s.app = lab.New()
	s.app.ControlDelay = time.Hour
	s.serveApp(t)
	s.worker(t)
	goal := `Click "New project", type "Apollo" into "Project name", select "High" from "Priority", click "Create", ` +
		`click "Project actions" in the row "Apollo", press Escape, then check that "Apollo" is visible`
	run := s.start(t, workflows.GoalInput{Goal: goal, StartURL: s.appURL})
	if res := s.result(t, run); res.Execution.Status != workflows.StatusSuccess {
		t.Fatalf("status %s: %+v", res.Execution.Status, res.Errors)
	}

	dir := t.TempDir()
	cmd := []string{"dataset", "export", run.GetID(), dir}
	stdout, stderr, code := s.starterWithStore(t, cmd...)
	if code != 0 {
		t.Fatalf("export: exit %d\n%s\n%s", code, stdout, stderr)
	}
	var m dataset.Manifest
	data, err := os.ReadFile(filepath.Join(dir, dataset.ManifestName))
	if err != nil || json.Unmarshal(data, &m) != nil {
		t.Fatalf("manifest: %v", err)
	}
	var names []string
	files := map[string]int{}
	dialog, menu := 0, 0
	for _, st := range m.States {
		names = append(names, st.File)
		if !st.Revisit {
			files[st.File]++
		}
		if _, err := os.Stat(filepath.Join(dir, st.File)); err != nil {
			t.Errorf("state %s was not exported: %v", st.File, err)
		}
		if strings.HasPrefix(st.Name, "dialog-new-project") {
			dialog++
		}
		if strings.Contains(st.Name, "menu-project-actions") {
			menu++
			if st.Action != `click "\"Project actions\" in the row \"Apollo\""` || len(st.Elements) == 0 || st.Previous == "" {
				t.Errorf("the menu state should say how it was reached: %+v", st)
			}
		}
	}
	if dialog == 0 || menu != 1 {
		t.Fatalf("want the dialog states and one menu state; states: %v", names)
	}
	for f, n := range files {
		if n != 1 {
			t.Errorf("%s stored %d times", f, n)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(files)+1 {
		t.Errorf("the folder holds %d files; want %d images and the manifest", len(entries), len(files))
	}
	t.Logf("states: %s", strings.Join(names, ", "))
}

// starterWithStore runs the starter with the test's Temporal and MinIO.
func (s *stack) starterWithStore(t *testing.T, args ...string) (string, string, int) {
	for _, kv := range s.MinIOEnv() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	return s.starter(t, args...)
}
