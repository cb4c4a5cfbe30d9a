package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

// TestMendedFossil drives Debian's Fossil, which was in the held-out pool: run blind, it
// did none of its goals — every one stopped at `click "Login"`, the sign-in form's button
// tied with the menu's "Login" link — and the failures it showed were mended. It is in
// make test since: sign in through that form with a password the worker grants, then
// create a wiki page whose name field is named only by the words before it in its
// paragraph. Judged by the repository file; the pool's three phrasings of every goal run
// with `make heldout HELDOUT=Fossil`.
func TestMendedFossil(t *testing.T) {
	f := testenv.StartFossil(t)
	s := newStack(t)
	s.worker(t, "WEBAGENT_TEST_FOSSIL_PASSWORD="+testenv.FossilPassword,
		`WEBAGENT_SECRETS={"fossil_password": {"from": "env:WEBAGENT_TEST_FOSSIL_PASSWORD", "sites": ["`+f.URL+`"]}}`)
	const text = "Ship version 2 in May."
	goal := `type "admin" into "User ID", type "{{secret:fossil_password}}" into "Password", click "Login", click "Wiki", ` +
		`click "new wiki page", type "Release Plan" into "Name of new wiki page", click "Create", ` +
		`type "` + text + `" into the text area, click "Save & Close", then check that "` + text + `" is visible`
	res := s.result(t, s.start(t, workflows.GoalInput{Goal: goal, StartURL: f.URL + "/login"}))
	why := testenv.Eventually(10*time.Second, func() string {
		if got, ok := f.WikiPage(t, "Release Plan"); !ok || strings.TrimSpace(got) != text {
			return "the repository has no page \"Release Plan\" holding the text (pages " + strings.Join(f.WikiPages(t), ", ") + ")"
		}
		return ""
	})
	if res.Execution.Status != workflows.StatusSuccess || !res.Validation.Verified {
		t.Errorf("status %s (verified %v): %s; errors %v", res.Execution.Status, res.Validation.Verified, res.Validation.Reason, res.Errors)
	}
	if why != "" {
		t.Errorf("%s", why)
		if res.Execution.Status == workflows.StatusSuccess {
			t.Errorf("FALSE SUCCESS: the run said success")
		}
	}
}
