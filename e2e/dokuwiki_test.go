package e2e

import (
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

// TestDokuWiki drives Debian's DokuWiki — a real application nobody here wrote — with
// explicit goals and no model: sign in, create a page, edit it, find it by search and from
// the sitemap, signing in with a password the worker grants. What really happened is read
// from the wiki's own page files; the password is in no history.
func TestDokuWiki(t *testing.T) {
	w := testenv.StartDokuWiki(t)
	s := newStack(t)
	// The password is the operator's: granted by name, for the wiki's origin only.
	s.worker(t, "WEBAGENT_TEST_WIKI_PASSWORD="+w.Password,
		`WEBAGENT_SECRETS={"wiki_password": {"from": "env:WEBAGENT_TEST_WIKI_PASSWORD", "sites": ["`+w.URL+`"]}}`)
	login := w.URL + "/doku.php?id=start&do=login"
	signIn := `type "` + w.User + `" into "Username", type "{{secret:wiki_password}}" into "Password", click the "Log In" button`
	run := func(t *testing.T, start, goal string) workflows.GoalResult {
		t.Helper()
		res := s.result(t, s.start(t, workflows.GoalInput{Goal: goal, StartURL: start}))
		if res.Execution.Status != workflows.StatusSuccess || !res.Validation.Verified {
			t.Fatalf("status %s (verified %v): %s; errors %v", res.Execution.Status, res.Validation.Verified, res.Validation.Reason, res.Errors)
		}
		return res
	}
	steps := func(t *testing.T, ok bool) {
		if !ok {
			t.FailNow()
		}
	}

	steps(t, t.Run("sign in", func(t *testing.T) {
		run(t, login, signIn+`, then check that "Log Out" is visible`)
	}))
	steps(t, t.Run("create a page", func(t *testing.T) {
		run(t, login, signIn+`, go to `+w.URL+`/doku.php?id=playground:apollo&do=edit, type "Apollo launch notes" into the text area, click "Save", then check that "Apollo launch notes" is visible`)
		if got := strings.TrimSpace(w.Page("playground:apollo")); got != "Apollo launch notes" {
			t.Fatalf("the saved page holds %q", got)
		}
	}))
	steps(t, t.Run("edit it", func(t *testing.T) {
		run(t, login, signIn+`, go to `+w.URL+`/doku.php?id=playground:apollo, click "Edit this page", type "Apollo notes, edited" into the text area, click "Save", then check that "Apollo notes, edited" is visible`)
		if got := strings.TrimSpace(w.Page("playground:apollo")); got != "Apollo notes, edited" {
			t.Fatalf("the saved page holds %q", got)
		}
	}))
	// The wiki's search finds a page once its background indexer has run (WaitIndexed);
	// before that it says "Nothing was found", and the run must not claim the page.
	t.Run("search before the wiki indexed it", func(t *testing.T) {
		w.WritePage(t, "playground:zeus", "Zeus notes")
		res := s.result(t, s.start(t, workflows.GoalInput{Goal: `type "zeus" into "Search", press Enter, click the link "zeus", then check that "Zeus notes" is visible`, StartURL: w.URL + "/doku.php?id=start"}))
		if res.Execution.Status == workflows.StatusSuccess || res.Validation.Verified {
			t.Fatalf("status %s (verified %v) for a page the search cannot find yet: %s", res.Execution.Status, res.Validation.Verified, res.Validation.Reason)
		}
	})
	t.Run("search for it", func(t *testing.T) {
		w.WaitIndexed(t, "playground:apollo")
		run(t, w.URL+"/doku.php?id=start", `type "apollo" into "Search", press Enter, click the link "apollo", then check that "Apollo notes, edited" is visible`)
	})
	t.Run("open it from the sitemap", func(t *testing.T) {
		run(t, w.URL+"/doku.php?id=start&do=index", `click "playground", click "apollo", then check that "Apollo notes, edited" is visible`)
	})
	s.eachHistory(t, func(id, text string) {
		if strings.Contains(text, w.Password) {
			t.Errorf("the wiki's password is in the history of %s", id)
		}
	})
}
