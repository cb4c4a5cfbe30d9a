package testenv

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// EthercalcBrowser sends what EtherCalc's own pages send, and its REST API: a sheet's page
// and the scripts it loads, and each edit as the SocialCalc command the page sends when a
// person types into a cell, presses Delete, clicks a toolbar button, saves the Format tab
// or sorts (the page sends it over its socket; POST /_/NAME with the command as text is the
// server's same path for it: it logs the command and applies it to the sheet). PUT /_/NAME
// replaces a sheet with a SocialCalc save, GET /_/NAME reads the server's save of it and
// GET /NAME.csv its values. There is no sign-in. It is how the harness's own test does each
// goal's effect without the agent.
type EthercalcBrowser struct {
	w *Ethercalc
	c *http.Client
}

// Browser is a browser on no page yet.
func (w *Ethercalc) Browser() *EthercalcBrowser {
	return &EthercalcBrowser{w: w, c: &http.Client{}}
}

// Open fetches a page or an asset (a path from the app's root) and returns its body. An
// answer of 400 or more fails the test.
func (b *EthercalcBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return b.send(t, http.MethodGet, path, "", "")
}

// Execute sends the sheet name one edit: a SocialCalc command, as the page sends it
// ("set B3 value n 90", "erase D6 formulas", "insertrow A4", "sort A2:C7 C down").
func (b *EthercalcBrowser) Execute(t testing.TB, name, command string) {
	t.Helper()
	b.send(t, http.MethodPost, "/_/"+url.PathEscape(name), "text/plain", command)
}

// PutSave replaces the sheet name (or makes it) with a SocialCalc save.
func (b *EthercalcBrowser) PutSave(t testing.TB, name, save string) {
	t.Helper()
	b.send(t, http.MethodPut, "/_/"+url.PathEscape(name), "text/x-socialcalc", save)
}

// Save is the server's SocialCalc save of the sheet name, with every edit it applied.
func (b *EthercalcBrowser) Save(t testing.TB, name string) string {
	t.Helper()
	return b.send(t, http.MethodGet, "/_/"+url.PathEscape(name), "", "")
}

// CSV is the sheet's values as CSV.
func (b *EthercalcBrowser) CSV(t testing.TB, name string) string {
	t.Helper()
	return b.send(t, http.MethodGet, "/"+url.PathEscape(name)+".csv", "", "")
}

// send sends method to path with body (of type kind; none when kind is "") and returns the
// answer's body; an answer of 400 or more fails the test.
func (b *EthercalcBrowser) send(t testing.TB, method, path, kind, body string) string {
	t.Helper()
	var in io.Reader
	if kind != "" {
		in = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, b.w.Base+path, in)
	if err != nil {
		t.Fatal(err)
	}
	if kind != "" {
		req.Header.Set("Content-Type", kind)
	}
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatalf("ethercalc: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 400 {
		t.Fatalf("ethercalc: %s %s answered %d: %s", method, path, resp.StatusCode, out)
	}
	return string(out)
}
