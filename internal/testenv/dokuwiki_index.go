package testenv

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// WaitIndexed waits until the wiki's search finds the page id by its name, running the
// wiki's own task runner for it as a browser does. DokuWiki indexes a saved page in the
// background: an image at the bottom of each page it shows calls lib/exe/taskrunner.php.
// A run that ends as the page loads may close its browser before that request is served,
// and until another view of the page runs it, the search says "Nothing was found" — to a
// person as to the agent.
func (w *DokuWiki) WaitIndexed(t testing.TB, id string) {
	t.Helper()
	name := id[strings.LastIndex(id, ":")+1:]
	get := func(path string) string {
		resp, err := http.Get(w.URL + path)
		if err != nil {
			return ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if strings.Contains(get("/doku.php?do=search&q="+url.QueryEscape(name)), `data-wiki-id="`+id+`"`) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("DokuWiki's search does not find %s after 30s of running its task runner", id)
		}
		get("/lib/exe/taskrunner.php?id=" + url.QueryEscape(id))
		time.Sleep(200 * time.Millisecond)
	}
}
