package lab

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// The lab serves its pages as they are on disk, its endpoints, and the demo app for the
// rest: one origin, as the pages expect (they link the demo app's stylesheet).
func TestServesPagesBesideTheDemoApp(t *testing.T) {
	srv := httptest.NewServer(New())
	defer srv.Close()
	want, err := os.ReadFile("pages/canvas.html")
	if err != nil {
		t.Fatal(err)
	}
	if code, got := get(t, srv.URL+"/static/lab/canvas.html"); code != http.StatusOK || got != string(want) {
		t.Errorf("the canvas page: %d, %d bytes, want its %d bytes", code, len(got), len(want))
	}
	for path, has := range map[string]string{
		"/projects":          "Project name",
		"/static/style.css":  "{",
		"/lab/invoice.csv":   Invoice,
		"/lab/slow?ms=1":     "Slow report",
		"/lab/chores":        "Buy milk",
		"/lab/state/nothing": "null",
	} {
		if code, got := get(t, srv.URL+path); code != http.StatusOK || !strings.Contains(got, has) {
			t.Errorf("%s: %d, %q", path, code, got)
		}
	}
}

// totp gives RFC 6238's test vector (SHA-1, at 59 s: 94287082, whose last six digits a
// six-digit code is).
func TestTOTP(t *testing.T) {
	if got := totp("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", 59/30); got != "287082" {
		t.Errorf("totp = %s, want 287082", got)
	}
}
