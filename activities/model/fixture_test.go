package model

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"testing"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/activities/store"
	"github.com/webagent-dev/webagent/internal/geminitest"
)

// memStore is the object store in memory, with the fixture's way to store a page.
type memStore struct{ store.Memory }

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// stored puts an observation, a 1280×800 screenshot and the page's text in the store
// under name, and returns its snapshot.
func (m *memStore) stored(t *testing.T, name string, obs page.Observation, text string) activities.Snapshot {
	t.Helper()
	b, err := json.Marshal(obs)
	if err != nil {
		t.Fatal(err)
	}
	snap := activities.Snapshot{URL: obs.URL, Title: obs.Title, ElementsKey: name + ".json", ScreenshotKey: name + ".png", Elements: len(obs.Elements)}
	_ = m.Put(context.Background(), snap.ElementsKey, "", b)
	_ = m.Put(context.Background(), snap.ScreenshotKey, "", pngOf(t, 1280, 800))
	if text != "" {
		snap.TextKey = name + ".txt"
		_ = m.Put(context.Background(), snap.TextKey, "", []byte(text))
	}
	return snap
}

// projects is the projects page: two rows with a menu button each, a new-project button.
var projects = page.Observation{URL: "http://app.test/projects", Title: "Projects", Elements: []page.Element{
	{Index: 0, Tag: "button", Role: "button", Name: "New project", Box: page.Box{X: 20, Y: 20, W: 100, H: 30}},
	{Index: 1, Tag: "button", Role: "button", Name: "Project actions", Row: "Website relaunch 12 open", Box: page.Box{X: 900, Y: 100, W: 30, H: 30}},
	{Index: 2, Tag: "button", Role: "button", Name: "Project actions", Row: "Q4-bugs 3 open", Box: page.Box{X: 900, Y: 140, W: 30, H: 30}},
	{Index: 3, Tag: "a", Role: "link", Name: "Q4-bugs", Row: "Q4-bugs 3 open", Box: page.Box{X: 40, Y: 140, W: 80, H: 20}},
}}

// newActivities is the model activities over a stand-in answering with script, and a
// store holding the projects page.
func newActivities(t *testing.T, script geminitest.Script) (*Activities, *geminitest.Server, *memStore, activities.Snapshot) {
	t.Helper()
	c, s := newClient(t, script)
	st := &memStore{}
	snap := st.stored(t, "projects", projects, "Projects\nWebsite relaunch 12 open\nQ4-bugs 3 open")
	return &Activities{Client: c, Store: st}, s, st, snap
}
