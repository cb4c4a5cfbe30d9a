package testenv

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// sendForm sends method to target through c, with form (nil for none) as its url-encoded
// body and header's fields set, as an app's own page would send it. It returns the status,
// the Location resolved against the request's address ("" for none) and the body. app
// names the app in a failure.
func sendForm(t testing.TB, c *http.Client, app, method, target string, form url.Values, header map[string]string) (int, string, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s: %s %s: %v", app, method, target, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	loc := resp.Header.Get("Location")
	if loc != "" {
		if u, err := req.URL.Parse(loc); err == nil {
			loc = u.String()
		}
	}
	return resp.StatusCode, loc, string(out)
}
