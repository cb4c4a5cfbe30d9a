package e2e

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

// twSeed is the wiki every goal starts from: a few everyday notes, and a packing list of
// checkboxes that tag the things packed "done" and count them.
var twSeed = []testenv.Tiddler{
	{Title: "Shopping list", Tags: "errands", Text: "milk"},
	{Title: "Meeting notes", Text: "Agenda: budget, hiring."},
	{Title: "Trip ideas", Text: "Lisbon in May."},
	{Title: "Old draft", Text: "Nothing worth keeping."},
	{Title: "Passport", Tags: testenv.Tags("packing", "done")},
	{Title: "Sunscreen", Tags: "packing"},
	{Title: "Charger", Tags: "packing"},
	{Title: "Packing list", Text: `<$list filter="[tag[packing]sort[title]]">

<$checkbox tag="done"> <$text text=<<currentTiddler>>/></$checkbox>

</$list>

Packed: <$count filter="[tag[packing]tag[done]]"/> of 3`},
}

// TestTiddlyWiki drives TiddlyWiki — a real application nobody here wrote, installed from
// the npm registry — with everyday goals written as a person would, and no model: write a
// note, edit one, tag one, tick and untick checkboxes, delete, rename, import a file. Each
// goal runs against a fresh wiki; a run's status must be success and the wiki's own .tid
// files must hold what the goal asked for.
func TestTiddlyWiki(t *testing.T) {
	if testenv.TiddlyWikiDir() == "" {
		t.Skip("TiddlyWiki is not installed: run deploy/setup.sh")
	}
	s := newStack(t)
	s.worker(t)
	open := func(w *testenv.TiddlyWiki, title string) string {
		return w.URL + "/#" + url.PathEscape(title)
	}
	// goal runs one goal on a fresh wiki and judges it two ways: the run's own status, and
	// the wiki's saved tiddlers (saved is checked whatever the status, and waited for: the
	// browser saves to the server a moment after a change).
	goal := func(t *testing.T, start func(*testenv.TiddlyWiki) string, text func(*testenv.TiddlyWiki) string, saved func(map[string]testenv.Tiddler) string, files ...activities.RunFile) {
		t.Helper()
		w := testenv.StartTiddlyWiki(t, twSeed...)
		g := text(w)
		res := s.result(t, s.start(t, workflows.GoalInput{Goal: g, StartURL: start(w), Files: files}))
		var why string
		w.Eventually(10*time.Second, func(all map[string]testenv.Tiddler) bool { why = saved(all); return why == "" })
		if res.Execution.Status != workflows.StatusSuccess || !res.Validation.Verified {
			t.Errorf("goal %q: status %s (verified %v): %s; errors %v", g, res.Execution.Status, res.Validation.Verified, res.Validation.Reason, res.Errors)
		}
		if why != "" {
			for _, st := range res.Steps {
				t.Logf("step %s %s: %v", st.Step, st.Status, st.Actions)
			}
			for title, td := range w.All() {
				t.Logf("saved %q: %q", title, td.Text[:min(len(td.Text), 200)])
			}
			t.Errorf("goal %q: the wiki's files disagree: %s", g, why)
		}
		if why != "" && res.Execution.Status == workflows.StatusSuccess {
			t.Errorf("the run claimed success but the wiki did not change as asked")
		}
	}
	fixed := func(g string) func(*testenv.TiddlyWiki) string { return func(*testenv.TiddlyWiki) string { return g } }
	home := func(w *testenv.TiddlyWiki) string { return w.URL + "/" }
	at := func(title string) func(*testenv.TiddlyWiki) string {
		return func(w *testenv.TiddlyWiki) string { return open(w, title) }
	}

	t.Run("write a new note", func(t *testing.T) {
		goal(t, home, fixed(`click "Create a new tiddler", type "Groceries" into "New Tiddler", type "bread and cheese" into "Type the text for this tiddler", click "Confirm changes to this tiddler", then check that "bread and cheese" is visible`),
			func(all map[string]testenv.Tiddler) string {
				if td, ok := all["Groceries"]; !ok || strings.TrimSpace(td.Text) != "bread and cheese" {
					return "no tiddler \"Groceries\" holding \"bread and cheese\"; saved: " + twTitles(all)
				}
				return ""
			})
	})
	t.Run("edit a note", func(t *testing.T) {
		goal(t, at("Shopping list"), fixed(`click "Edit this tiddler", type "milk, eggs and flour" into the text area, click "Confirm changes to this tiddler", then check that "milk, eggs and flour" is visible`),
			func(all map[string]testenv.Tiddler) string {
				if got := strings.TrimSpace(all["Shopping list"].Text); got != "milk, eggs and flour" {
					return "\"Shopping list\" holds " + twQuote(got)
				}
				return ""
			})
	})
	// The editor's toolbar buttons are icons; "bold" names one by its purpose. The words
	// are selected in the editor's text as a person drags over them, once they are found
	// there once; the wiki writes bold as ''budget''.
	t.Run("make a word bold", func(t *testing.T) {
		goal(t, at("Meeting notes"), fixed(`click "Edit this tiddler", select the text "budget" in the text editor, click the bold button, click "Confirm changes to this tiddler", then check that "budget" is visible`),
			func(all map[string]testenv.Tiddler) string {
				if got := strings.TrimSpace(all["Meeting notes"].Text); got != "Agenda: ''budget'', hiring." {
					return "\"Meeting notes\" holds " + twQuote(got)
				}
				return ""
			})
	})
	t.Run("tag a note", func(t *testing.T) {
		goal(t, at("Meeting notes"), fixed(`click "Edit this tiddler", type "urgent" into "tag name", press Enter, click "Confirm changes to this tiddler", then check that "urgent" is visible`),
			func(all map[string]testenv.Tiddler) string {
				if td := all["Meeting notes"]; !td.HasTag("urgent") || strings.TrimSpace(td.Text) != "Agenda: budget, hiring." {
					return "\"Meeting notes\" has tags " + twQuote(td.Tags) + " and text " + twQuote(td.Text)
				}
				return ""
			})
	})
	t.Run("tick an item", func(t *testing.T) {
		goal(t, at("Packing list"), fixed(`tick "Sunscreen", then check that "Packed: 2 of 3" is visible`),
			func(all map[string]testenv.Tiddler) string {
				if !all["Sunscreen"].HasTag("done") || !all["Passport"].HasTag("done") || all["Charger"].HasTag("done") {
					return "tags: Sunscreen " + twQuote(all["Sunscreen"].Tags) + ", Passport " + twQuote(all["Passport"].Tags) + ", Charger " + twQuote(all["Charger"].Tags)
				}
				return ""
			})
	})
	t.Run("untick an item", func(t *testing.T) {
		goal(t, at("Packing list"), fixed(`uncheck "Passport", then check that "Packed: 0 of 3" is visible`),
			func(all map[string]testenv.Tiddler) string {
				if all["Passport"].HasTag("done") || !all["Passport"].HasTag("packing") {
					return "Passport's tags are " + twQuote(all["Passport"].Tags)
				}
				return ""
			})
	})
	// "the Delete button" is two buttons in the editor (the note's, and its content type's):
	// the run refuses to choose, says which two, and nothing is deleted. The goal waits for
	// the editor's second one: before it has rendered the page shows one "Delete", which a
	// step then rightly takes.
	t.Run("an ambiguous delete is refused", func(t *testing.T) {
		w := testenv.StartTiddlyWiki(t, twSeed...)
		res := s.result(t, s.start(t, workflows.GoalInput{Goal: `click "Edit this tiddler", wait for "delete content type", click the "Delete" button, then check that "Nothing worth keeping." is not visible`, StartURL: at("Old draft")(w)}))
		if res.Execution.Status == workflows.StatusSuccess {
			t.Errorf("an ambiguous target ended success: %+v", res.Steps)
		}
		if fb := res.Steps[2].Feedback; len(fb) == 0 || !strings.Contains(fb[0].Details, "equally well") {
			t.Errorf("step 3 should say which buttons tie: %+v", fb)
		}
		time.Sleep(time.Second)
		if _, ok := w.Tiddler("Old draft"); !ok {
			t.Error("\"Old draft\" was deleted")
		}
	})
	// The same, by the buttons' own tooltips: the wiki asks "Do you wish to delete the
	// tiddler?" in the browser's own confirmation dialog, which the goal says to accept.
	t.Run("delete a note by its tooltips", func(t *testing.T) {
		goal(t, at("Old draft"), fixed(`click "Edit this tiddler", click "Delete this tiddler" and confirm, then check that "Nothing worth keeping." is not visible`),
			func(all map[string]testenv.Tiddler) string {
				if _, ok := all["Old draft"]; ok {
					return "\"Old draft\" is still saved"
				}
				return ""
			})
	})
	t.Run("rename a note", func(t *testing.T) {
		goal(t, at("Trip ideas"), fixed(`click "Edit this tiddler", type "Holiday ideas" into "Trip ideas", press Tab, click "Confirm changes to this tiddler", then check that "Holiday ideas" is visible`),
			func(all map[string]testenv.Tiddler) string {
				td, ok := all["Holiday ideas"]
				if _, old := all["Trip ideas"]; !ok || old || strings.TrimSpace(td.Text) != "Lisbon in May." {
					return "saved: " + twTitles(all)
				}
				return ""
			})
	})
	// The wiki's import button is a file field laid transparent over a button; the file
	// given to the run goes in, and the wiki asks to confirm in an "$:/Import" note, with its
	// "Import" button above the list of notes and below it (the goal says which).
	t.Run("import a note from a file", func(t *testing.T) {
		note := activities.RunFile{Name: "pancakes.tid", Data: []byte("title: Pancakes\ntags: recipes\n\nFlour, milk and eggs.\n")}
		goal(t, home, fixed(`click the "Tools" tab, upload "pancakes.tid" with the "import" button, click the first "Import" button in "$:/Import", then check that "The following tiddlers were imported" is visible`),
			func(all map[string]testenv.Tiddler) string {
				if td := all["Pancakes"]; !td.HasTag("recipes") || strings.TrimSpace(td.Text) != "Flour, milk and eggs." {
					return "\"Pancakes\" has tags " + twQuote(td.Tags) + " and text " + twQuote(td.Text) + "; saved: " + twTitles(all)
				}
				return ""
			}, note)
	})
	// A tag's menu lists its notes, and dragging one onto another puts it before that one:
	// the wiki saves the order in the tag's own note ("list" field).
	t.Run("reorder a tag's notes by drag", func(t *testing.T) {
		// No text on the page says the order, so the goal states no check: the run says
		// unverified (done, not confirmed), never success, and the wiki is the judge.
		w := testenv.StartTiddlyWiki(t, twSeed...)
		res := s.result(t, s.start(t, workflows.GoalInput{Goal: `click "packing", drag "Sunscreen" onto "Charger"`, StartURL: at("Passport")(w)}))
		if res.Execution.Status != workflows.StatusUnverified {
			t.Errorf("status %s: %s; errors %v", res.Execution.Status, res.Validation.Reason, res.Errors)
		}
		var got string
		if !w.Eventually(10*time.Second, func(all map[string]testenv.Tiddler) bool {
			got = all["packing"].Fields["list"]
			return strings.HasPrefix(got, "Sunscreen")
		}) {
			t.Errorf("the tag \"packing\" lists %q, want Sunscreen first", got)
		}
	})
	// Two notes are open then (the wiki opens GettingStarted at first): the edit button
	// meant is the found note's.
	t.Run("find a note and tag it", func(t *testing.T) {
		goal(t, home, fixed(`type "Lisbon" into the search box, click "Trip ideas", click the "Edit this tiddler" button in "Trip ideas", type "travel" into "tag name", press Enter, click "Confirm changes to this tiddler", then check that "travel" is visible`),
			func(all map[string]testenv.Tiddler) string {
				if td := all["Trip ideas"]; !td.HasTag("travel") || strings.TrimSpace(td.Text) != "Lisbon in May." {
					return "\"Trip ideas\" has tags " + twQuote(td.Tags) + " and text " + twQuote(td.Text)
				}
				return ""
			})
	})
}

func twTitles(all map[string]testenv.Tiddler) string {
	var out []string
	for title := range all {
		if !strings.HasPrefix(title, "$:/") {
			out = append(out, twQuote(title))
		}
	}
	return strings.Join(out, ", ")
}

func twQuote(s string) string { return `"` + s + `"` }
