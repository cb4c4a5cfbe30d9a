package dataset

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/activities/store"
)

type memStore struct{ store.Memory }

func (m *memStore) pngs() []string {
	var out []string
	for _, k := range m.Keys() {
		if strings.HasSuffix(k, ".png") {
			out = append(out, filepath.Base(k))
		}
	}
	sort.Strings(out)
	return out
}

func shot(t *testing.T, name string) []byte {
	b, err := os.ReadFile(filepath.Join("..", "visual", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var (
	yes  = true
	list = page.Observation{URL: "http://app/projects", Title: "Projects · Tracker", Elements: []page.Element{
		{Index: 0, Role: "button", Name: "New project"}, {Index: 1, Role: "button", Name: "Project actions", Row: "Apollo"},
	}}
	dialog = page.Observation{URL: "http://app/projects", Title: "Projects · Tracker", Elements: []page.Element{
		{Index: 0, Tag: "input", Type: "text", Role: "textbox", Name: "Project name", Container: "dialog New project"},
		{Index: 1, Role: "button", Name: "Create", Container: "dialog New project"},
	}}
	menu = page.Observation{URL: "http://app/projects", Title: "Projects · Tracker", Elements: []page.Element{
		{Index: 0, Role: "button", Name: "Project actions", Expanded: &yes},
		{Index: 1, Role: "menuitem", Name: "Archive", Container: "menu"},
	}}
)

func filled(o page.Observation, v string) page.Observation {
	o.Elements = append([]page.Element{}, o.Elements...)
	o.Elements[0].Value = v
	return o
}

func TestName(t *testing.T) {
	for want, obs := range map[string]page.Observation{
		"projects-tracker":                      list,
		"dialog-new-project":                    dialog,
		"dialog-new-project-filled":             filled(dialog, "Apollo"),
		"projects-tracker-menu-project-actions": menu,
		"page":                                  {},
	} {
		if got := Name(obs); got != want {
			t.Errorf("Name = %q, want %q", got, want)
		}
	}
}

func TestCapture(t *testing.T) {
	ctx := context.Background()
	st := &memStore{}
	r := &Recorder{Store: st}
	const prefix = "runs/w/r"
	type capture struct {
		png       string
		obs       page.Observation
		wantNew   bool
		why, file string
		revisit   bool
	}
	steps := []capture{
		{"list.png", list, true, "first", "001-00-projects-tracker.png", false},
		{"list.png", list, false, "", "", false},                                                                      // the same frame
		{"list-1pct.png", list, false, "", "", false},                                                                 // 1% < 2%, same structure
		{"list-1pct.png", filled(dialog, ""), true, "structure", "002-03-dialog-new-project.png", false},              // the controls changed
		{"list-5pct.png", filled(dialog, "Apollo"), true, "structure", "003-04-dialog-new-project-filled.png", false}, // a value changed
		{"list-1pct.png", filled(dialog, "Apollo"), true, "pixels", "002-03-dialog-new-project.png", true},            // 5% > 2%, and the screenshot was seen before: stored once
		{"list.png", list, true, "structure", "001-00-projects-tracker.png", true},
	}
	for i, c := range steps {
		s, err := r.Capture(ctx, prefix, i, "step", shot(t, c.png), c.obs)
		if err != nil {
			t.Fatal(err)
		}
		if (s != nil) != c.wantNew {
			t.Fatalf("capture %d (%s): new state %v, want %v", i, c.png, s != nil, c.wantNew)
		}
		if s != nil && (s.Why != c.why || s.File != c.file || s.Revisit != c.revisit) {
			t.Fatalf("capture %d: %+v", i, s)
		}
	}
	if got := st.pngs(); len(got) != 3 {
		t.Fatalf("want 3 images stored once each, got %v", got)
	}
	var m Manifest
	manifest, err := st.Get(context.Background(), prefix+"/dataset/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(manifest, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.States) != 5 || m.States[4].Previous != "002-03-dialog-new-project.png" || len(m.States[1].Elements) != 2 || m.Threshold != DefaultThreshold {
		t.Fatalf("manifest: %+v", m)
	}

	// A run that moves to another worker picks its dataset up where it was.
	r2 := &Recorder{Store: st}
	if s, err := r2.Capture(ctx, prefix, 7, "step", shot(t, "list.png"), list); err != nil || s != nil {
		t.Fatalf("the same state as the manifest's last: want no new state, got %+v %v", s, err)
	}
	if s, err := r2.Capture(ctx, prefix, 7, "step", shot(t, "list-1pct.png"), list); err != nil || s != nil {
		t.Fatalf("1%% of the pixels of the manifest's last state: want no new state, got %+v %v", s, err)
	}
	s, err := r2.Capture(ctx, prefix, 8, "step", shot(t, "modal.png"), filled(dialog, ""))
	if err != nil || s == nil || s.Seq != 6 || s.File != "006-08-dialog-new-project.png" {
		t.Fatalf("after a move: %+v %v", s, err)
	}
}
