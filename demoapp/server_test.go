package demoapp

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func post(t *testing.T, url, body string) int {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestAPI(t *testing.T) {
	app := New(Project{Name: "Q4-bugs", Priority: "Medium"})
	srv := httptest.NewServer(app)
	defer srv.Close()

	for _, tt := range []struct {
		path, body string
		status     int
	}{
		{"/api/projects", `{"name": "Apollo", "priority": "High", "private": true}`, http.StatusCreated},
		{"/api/projects", `{"name": "  "}`, http.StatusUnprocessableEntity},
		{"/api/projects", `{"name": "X", "priority": "Urgent"}`, http.StatusUnprocessableEntity},
		{"/api/projects/archive", `{"name": "Q4-bugs"}`, http.StatusOK},
		{"/api/projects/archive", `{"name": "nope"}`, http.StatusNotFound},
		{"/api/projects/rename", `{"name": "Apollo", "newName": "Apollo 2"}`, http.StatusOK},
	} {
		if got := post(t, srv.URL+tt.path, tt.body); got != tt.status {
			t.Errorf("POST %s %s: %d, want %d", tt.path, tt.body, got, tt.status)
		}
	}
	resp, err := http.Get(srv.URL + "/api/state")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st State
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	want := []Project{{Name: "Q4-bugs", Priority: "Medium", Archived: true}, {Name: "Apollo 2", Priority: "High", Private: true}}
	if st.CreateRequests != 3 || len(st.Projects) != 2 || st.Projects[0] != want[0] || st.Projects[1] != want[1] {
		t.Fatalf("state %+v", st)
	}
	if post(t, srv.URL+"/api/reset", "") != http.StatusOK || len(app.Snapshot().Projects) != 0 || app.Snapshot().CreateRequests != 0 {
		t.Fatalf("reset should clear everything: %+v", app.Snapshot())
	}
	if post(t, srv.URL+"/api/reset", `{"projects": [{"name": "Zeus"}]}`) != http.StatusOK || app.Snapshot().Projects[0].Priority != "Medium" {
		t.Fatalf("reset with a seed: %+v", app.Snapshot())
	}
}

// The demo app serves the demo alone: the lab's pages and endpoints live with the tests
// (internal/lab).
func TestServesNoLab(t *testing.T) {
	srv := httptest.NewServer(New())
	defer srv.Close()
	for _, path := range []string{"/static/lab/canvas.html", "/lab/signin", "/lab/slow?ms=1", "/lab/invoice.csv"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, resp.StatusCode)
		}
	}
}
