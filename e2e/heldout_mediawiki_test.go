//go:build heldout

package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/secret"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

// The held-out check on MediaWiki: Debian's wiki engine, installed fresh for every run,
// signed into with a password the worker grants. Its tests build only with -tags heldout,
// so that they run at the end, against an agent nobody tuned to them.

// mwGrant grants the wiki's password on the loopback host, any port: every run has a
// fresh wiki on a port of its own.
const mwGrant = `{"wiki_password": {"from": "env:WEBAGENT_TEST_WIKI_PASSWORD", "sites": ["127.0.0.1"]}}`

// mwSignIn is how each phrasing signs in, from the page it starts on; the goal follows.
var mwSignIn = [3]string{
	`click "Log in", type "Admin" into "Username", type "{{secret:wiki_password}}" into "Password", click the "Log in" button, `,
	`Click Log in, type Admin into the Username field and type "{{secret:wiki_password}}" into the Password field, then press the "Log in" button. `,
	`press "Log in"; enter "Admin" in the field labelled "Username"; enter "{{secret:wiki_password}}" in the field labelled "Password"; click the button "Log in"; `,
}

// mwGoal is one everyday goal: the page it starts on (a title), three phrasings of what
// follows signing in, the judge that reads the wiki's database ("" when the goal's effect
// is stored, and nothing else changed), and the same effect done through the wiki's API.
type mwGoal struct {
	name  string
	start string
	says  [3]string
	done  func(t testing.TB, w *testenv.MediaWiki) string
	do    map[string]string
}

// changed says why the pages changed since seeding are not exactly want ("" when they are).
func changed(t testing.TB, w *testenv.MediaWiki, want ...string) string {
	if got := w.ChangedPages(t); !slices.Equal(got, want) {
		return fmt.Sprintf("the pages changed are %q, want %q", got, want)
	}
	return ""
}

var mwGoals = []mwGoal{
	{name: "create a page found missing by search", start: "Main_Page", says: [3]string{
		`type "Apollo program" into "Search", press Enter, click the link "Apollo program", type "The Apollo program landed people on the Moon." into the text area, click "Save page", then check that "The Apollo program landed people on the Moon." is visible`,
		`Type Apollo program into the Search field and press Enter. Click the link "Apollo program", type "The Apollo program landed people on the Moon." into the text area and click the "Save page" button. Check that "The Apollo program landed people on the Moon." is visible.`,
		`enter "Apollo program" in the field labelled "Search"; press Enter; click on "Apollo program"; write "The Apollo program landed people on the Moon." in the text area; press "Save page"; verify that "The Apollo program landed people on the Moon." is visible`,
	}, done: func(t testing.TB, w *testenv.MediaWiki) string {
		if p := w.Page(t, "Apollo program"); strings.TrimSpace(p.Text) != "The Apollo program landed people on the Moon." {
			return fmt.Sprintf("Apollo program holds %q (exists %v)", p.Text, p.Exists)
		}
		return changed(t, w, "Apollo program")
	}, do: map[string]string{"action": "edit", "title": "Apollo program", "text": "The Apollo program landed people on the Moon.", "createonly": "1"}},

	{name: "edit a page with a summary", start: "Lunch_menu", says: [3]string{
		`click "Edit", clear the text area, type "Soup on Monday, salad on Tuesday, pasta on Wednesday." into the text area, type "Added Wednesday" into "Summary", click "Save changes", then check that "pasta on Wednesday" is visible`,
		`Click Edit and clear the text area. Type "Soup on Monday, salad on Tuesday, pasta on Wednesday." into the text area, then type Added Wednesday into the Summary field and press the "Save changes" button. Make sure "pasta on Wednesday" is visible.`,
		`press "Edit"; clear the text in the text area; enter "Soup on Monday, salad on Tuesday, pasta on Wednesday." in the text area; enter "Added Wednesday" in the field labelled "Summary"; click the "Save changes" button; verify that "pasta on Wednesday" is visible`,
	}, done: func(t testing.TB, w *testenv.MediaWiki) string {
		p := w.Page(t, "Lunch menu")
		if strings.TrimSpace(p.Text) != "Soup on Monday, salad on Tuesday, pasta on Wednesday." || p.Summary != "Added Wednesday" {
			return fmt.Sprintf("Lunch menu holds %q, summary %q", p.Text, p.Summary)
		}
		return changed(t, w, "Lunch menu")
	}, do: map[string]string{"action": "edit", "title": "Lunch menu", "text": "Soup on Monday, salad on Tuesday, pasta on Wednesday.", "summary": "Added Wednesday"}},

	{name: "add a page to a category", start: "Pancakes", says: [3]string{
		`click "Edit", clear the text area, type "Flour, eggs and milk. [[Category:Recipes]]" into the text area, click "Save changes", then check that "Recipes" is visible`,
		`Click Edit, clear the text area and type "Flour, eggs and milk. [[Category:Recipes]]" into the text area. Then click the "Save changes" button and check that "Recipes" is visible.`,
		`press "Edit"; clear the text in the text area; enter "Flour, eggs and milk. [[Category:Recipes]]" in the text area; click the button "Save changes"; verify that "Recipes" is visible`,
	}, done: func(t testing.TB, w *testenv.MediaWiki) string {
		p := w.Page(t, "Pancakes")
		if cats := w.Categories(t, "Pancakes"); !slices.Equal(cats, []string{"Recipes"}) || !strings.Contains(p.Text, "Flour, eggs and milk.") {
			return fmt.Sprintf("Pancakes holds %q, in the categories %q", p.Text, cats)
		}
		return changed(t, w, "Pancakes")
	}, do: map[string]string{"action": "edit", "title": "Pancakes", "text": "Flour, eggs and milk. [[Category:Recipes]]"}},

	{name: "rename a page", start: "Team_meeting", says: [3]string{
		`click "More", click "Move", type "Weekly meeting" into "New title", click "Move page", then check that "Move succeeded" is visible`,
		`Click More and then click Move. Type Weekly meeting into the New title field, press the "Move page" button, then check that "Move succeeded" is visible.`,
		`press "More"; press "Move"; enter "Weekly meeting" in the field labelled "New title"; click the button "Move page"; verify that "Move succeeded" is visible`,
	}, done: func(t testing.TB, w *testenv.MediaWiki) string {
		moved, old := w.Page(t, "Weekly meeting"), w.Page(t, "Team meeting")
		if moved.Redirect || strings.TrimSpace(moved.Text) != "We meet on Mondays at ten." || (old.Exists && !old.Redirect) {
			return fmt.Sprintf("Weekly meeting holds %q (exists %v), Team meeting %q (redirect %v)", moved.Text, moved.Exists, old.Text, old.Redirect)
		}
		return changed(t, w, "Team meeting", "Weekly meeting")
	}, do: map[string]string{"action": "move", "from": "Team meeting", "to": "Weekly meeting", "movetalk": "1"}},

	{name: "watch a page", start: "Lunch_menu", says: [3]string{
		`click "Watch", click "Watchlist", then check that "Lunch menu" is visible`,
		`Click Watch. Click Watchlist, then make sure "Lunch menu" is visible.`,
		`press "Watch"; press "Watchlist"; verify that "Lunch menu" is visible`,
	}, done: func(t testing.TB, w *testenv.MediaWiki) string {
		if wl := w.Watchlist(t); !slices.Contains(wl, "Lunch menu") {
			return fmt.Sprintf("the watchlist holds %q", wl)
		}
		return changed(t, w)
	}, do: map[string]string{"action": "watch", "titles": "Lunch menu"}},

	{name: "change the signature", start: "Main_Page", says: [3]string{
		`click "Preferences", type "Ann the Admin" into "New signature", click "Save", then check that "Your preferences have been saved." is visible`,
		`Click Preferences, type "Ann the Admin" into the New signature field and click the Save button. Then check that "Your preferences have been saved." is visible.`,
		`press "Preferences"; enter "Ann the Admin" in the field labelled "New signature"; press "Save"; verify that "Your preferences have been saved." is visible`,
	}, done: func(t testing.TB, w *testenv.MediaWiki) string {
		if sig, fancy := w.Preference(t, "nickname"), w.Preference(t, "fancysig"); sig != "Ann the Admin" || fancy == "1" {
			return fmt.Sprintf("the signature is %q (as wikitext: %q)", sig, fancy)
		}
		return changed(t, w)
	}, do: map[string]string{"action": "options", "optionname": "nickname", "optionvalue": "Ann the Admin"}},

	{name: "start a topic on a discussion page", start: "Lunch_menu", says: [3]string{
		`click "Discussion", click "Add topic", type "Soup on Fridays" into "Subject", type "Could we have soup on Fridays too? ~~~~" into the text area, click "Save changes", then check that "Could we have soup on Fridays too?" is visible`,
		`Click Discussion, then click Add topic. Type Soup on Fridays into the Subject field, type "Could we have soup on Fridays too? ~~~~" into the text area and press the "Save changes" button, then check that "Could we have soup on Fridays too?" is visible.`,
		`press "Discussion"; press "Add topic"; enter "Soup on Fridays" in the field labelled "Subject"; write "Could we have soup on Fridays too? ~~~~" in the text area; click the button "Save changes"; verify that "Could we have soup on Fridays too?" is visible`,
	}, done: func(t testing.TB, w *testenv.MediaWiki) string {
		p := w.Page(t, "Talk:Lunch menu")
		for _, want := range []string{"== Fridays ==", "Fish on Fridays, please.", "== Soup on Fridays ==", "Could we have soup on Fridays too? [[User:Admin|"} {
			if !strings.Contains(p.Text, want) {
				return fmt.Sprintf("the discussion page holds %q, without %q", p.Text, want)
			}
		}
		return changed(t, w, "Talk:Lunch menu")
	}, do: map[string]string{"action": "edit", "title": "Talk:Lunch menu", "section": "new", "sectiontitle": "Soup on Fridays", "text": "Could we have soup on Fridays too? ~~~~"}},

	{name: "delete a page", start: "Old_draft", says: [3]string{
		`click "More", click "Delete", type "No longer needed" into "Other/additional reason", click "Delete page", then check that "has been deleted" is visible`,
		`Click More, then click Delete. Type No longer needed into the Other/additional reason field and press the "Delete page" button. Check that "has been deleted" is visible.`,
		`press "More"; press "Delete"; enter "No longer needed" in the field labelled "Other/additional reason"; click the button "Delete page"; verify that "has been deleted" is visible`,
	}, done: func(t testing.TB, w *testenv.MediaWiki) string {
		reason, archived := w.Deletion(t, "Old draft")
		if p := w.Page(t, "Old draft"); p.Exists || !archived || !strings.Contains(reason, "No longer needed") {
			return fmt.Sprintf("Old draft exists %v, archived %v, deletion reason %q", p.Exists, archived, reason)
		}
		return changed(t, w, "Old draft")
	}, do: map[string]string{"action": "delete", "title": "Old draft", "reason": "No longer needed"}},
}

// mwOutcome is what became of one phrasing of one goal.
type mwOutcome struct {
	goal, outcome, status, reason string
	phrasing                      int
}

// TestHeldOutMediaWiki drives MediaWiki — a real wiki engine nobody here wrote, Debian's
// package — with everyday goals written three ways each, and no model: create a page found
// missing by search, edit one with a summary, add one to a category, rename one, watch
// one, change the signature, start a topic on a discussion page, delete a page. Every
// phrasing runs on a fresh wiki, signs in with the password the worker grants, and is
// judged by its status and by the wiki's database. The table at the end says, for each,
// done and said, false success (said success, the database disagrees) or not done; the
// test fails on any false success or when under 90% are done and said.
// go test -tags heldout -run 'TestHeldOutMediaWiki$' ./e2e/
func TestHeldOutMediaWiki(t *testing.T) {
	if !testenv.MediaWikiInstalled() {
		t.Skip("MediaWiki is not installed: run deploy/setup.sh heldout")
	}
	s := newStack(t)
	s.poolWorker(t, "WEBAGENT_TEST_WIKI_PASSWORD="+testenv.MediaWikiPassword, "WEBAGENT_SECRETS="+mwGrant)
	var outcomes []mwOutcome
	for _, g := range mwGoals {
		for i, says := range g.says {
			t.Run(fmt.Sprintf("%s/%d", g.name, i+1), func(t *testing.T) {
				outcomes = append(outcomes, runMWGoal(t, s, g, i, mwSignIn[i]+says))
			})
		}
	}
	said, falseSuccess := 0, 0
	var table strings.Builder
	fmt.Fprintf(&table, "%-40s %-3s %-14s %-8s %s\n", "goal", "#", "outcome", "status", "reason")
	for _, o := range outcomes {
		fmt.Fprintf(&table, "%-40s %-3d %-14s %-8s %s\n", o.goal, o.phrasing, o.outcome, o.status, o.reason)
		switch o.outcome {
		case "done-and-said":
			said++
		case "false success":
			falseSuccess++
		}
	}
	t.Logf("MediaWiki, held out: %d of %d done and said, %d false successes\n%s", said, len(outcomes), falseSuccess, table.String())
	if falseSuccess > 0 {
		t.Errorf("%d runs said success where the wiki's database disagrees", falseSuccess)
	}
	if len(outcomes) == 0 || said*10 < len(outcomes)*9 {
		t.Errorf("%d of %d runs done and said, under 90%%", said, len(outcomes))
	}
}

// runMWGoal runs one phrasing on a fresh wiki and says what became of it; it records a
// failure rather than stopping.
func runMWGoal(t *testing.T, s *stack, g mwGoal, i int, goal string) mwOutcome {
	w := testenv.StartMediaWiki(t)
	o := mwOutcome{goal: g.name, phrasing: i + 1}
	in := workflows.GoalInput{Goal: goal, StartURL: w.URL + "/index.php/" + g.start}
	res, err := mwResult(s.start(t, in))
	why := testenv.Eventually(10*time.Second, func() string { return g.done(t, w) })
	o.status = string(res.Execution.Status)
	said := err == nil && res.Execution.Status == workflows.StatusSuccess && res.Validation.Verified
	switch {
	case said && why == "":
		o.outcome = "done-and-said"
	case err == nil && res.Execution.Status == workflows.StatusSuccess && why != "":
		o.outcome, o.reason = "false success", "the database: "+why
	default:
		o.outcome = "not done"
		o.reason = fmt.Sprintf("%s (verified %v): %s; errors %v; the database: %s", res.Execution.Status, res.Validation.Verified, res.Validation.Reason, res.Errors, orDone(why))
		if err != nil {
			o.reason = "the run: " + err.Error()
		}
	}
	if o.outcome != "done-and-said" {
		for _, st := range res.Steps {
			t.Logf("step %s %s: %v", st.Step, st.Status, st.Actions)
		}
		t.Logf("goal %q: %s: %s", goal, o.outcome, o.reason)
	}
	return o
}

func orDone(why string) string {
	if why == "" {
		return "done"
	}
	return why
}

// mwResult waits for a run's result as s.result does, but returns a failure to read it
// instead of ending the test.
func mwResult(run interface {
	Get(context.Context, any) error
}) (workflows.GoalResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var res workflows.GoalResult
	err := workflows.ResultOf(&res, run.Get(ctx, &res))
	return res, err
}

// TestHeldOutMediaWikiJudge checks the harness without the agent: the grant covers a
// fresh wiki's sign-in page, every goal's start page is there for a visitor, with a Log in
// link; every judge says "not done" on a fresh wiki, "done" once the goal's effect is made
// through the wiki's own API (as its pages make it), and "not done" again once another
// page is edited besides.
func TestHeldOutMediaWikiJudge(t *testing.T) {
	for _, g := range mwGoals {
		t.Run(g.name, func(t *testing.T) {
			w := testenv.StartMediaWiki(t)
			t.Setenv("WEBAGENT_TEST_WIKI_PASSWORD", w.Password)
			vault, err := secret.Parse([]byte(mwGrant))
			if err != nil {
				t.Fatal(err)
			}
			if v, err := vault.Reveal(secret.Use{Name: "wiki_password"}, w.URL+"/index.php?title=Special:UserLogin"); err != nil || v != w.Password {
				t.Fatalf("the grant does not give the wiki's password on its sign-in page: %v", err)
			}
			resp, err := http.Get(w.URL + "/index.php/" + g.start)
			if err != nil {
				t.Fatalf("the start page %s: %v", g.start, err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), ">Log in<") {
				t.Fatalf("the start page %s: %s, with no Log in link for a visitor", g.start, resp.Status)
			}
			if why := g.done(t, w); why == "" {
				t.Fatal("the judge says done on a fresh wiki")
			}
			session := w.SignIn(t)
			session.Do(t, g.do)
			if why := testenv.Eventually(10*time.Second, func() string { return g.done(t, w) }); why != "" {
				t.Fatalf("the judge says not done after the effect: %s", why)
			}
			// A change the goal did not ask for is caught too.
			session.Do(t, map[string]string{"action": "edit", "title": "Main Page", "appendtext": "\nA stray line."})
			why := g.done(t, w)
			if why == "" {
				t.Fatal("the judge says done after an edit of another page")
			}
			t.Logf("after a stray edit the judge says: %s", why)
		})
	}
}
