package e2e

import (
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/workflows"
)

// TestThePageSaysSo runs goals that end with a click and state no check, on a page that
// answers each click in its own words: a run is verified when a line the page did not
// show before the click says, in a past form of the click's verb, that it was done to
// what the goal named ("OK - Stopped application at context path [/inventory]"); never
// when the page says it failed, when its answer names nothing the goal named, or when the
// words were on the page before the click (its log). The server's state says what was
// done, whatever the run says.
func TestThePageSaysSo(t *testing.T) {
	const why = "the page says so"
	runEvidence(t, "said.html", "said", []evidenceCase{
		{"the page names what was stopped", `click "Show applications", click "Stop" in the row "/inventory"`, `{"stopped":"/inventory"}`, true, why},
		{"the page says it failed", `click "Show applications", click "Stop" in the row "/reports"`, ``, false, why},
		{"the page names nothing", `click "Show applications", click "Stop" in the row "/invoices"`, `{"stopped":"/invoices"}`, false, why},
		{"the page said it before the click", `click "Show applications", click "Stop" in the row "/archive"`, `{"stopped":"/archive"}`, false, why},
	})
}

// TestTheRowSaysSo runs goals that end with a command on an item and state no check, on
// a page that answers only in the item's own row: a run is verified when the item's line,
// alone on the page, now says the state the command is for ("running" after Start,
// "Stopped" after Stop Torrent) where it did not before the click, even when the click is
// the goal's first step; never when the row is unchanged (the command failed without a
// word), when it said so already (a restart), or when another item changed (the near
// miss the page started instead). The server's state says what was done.
func TestTheRowSaysSo(t *testing.T) {
	runEvidence(t, "rowstate.html", "rowstate", []evidenceCase{
		{"its row says running", `click "Start" in the row "report-weekly"`, `{"started":"report-weekly"}`, true, "the item's own line now says"},
		// The row's new line holds the verb's past form: the page's own word as well.
		{"selected, then stopped", `click "family-recipes", click "Stop Torrent"`, `{"stopped":"family-recipes"}`, true, `"family-recipes Stopped 0 B/s"`},
		{"the command failed", `click "Start" in the row "billing"`, ``, false, ""},
		{"running before and after", `click "Restart" in the row "api-gateway"`, `{"restarted":"api-gateway"}`, false, ""},
		{"another row changed", `click "Start" in the row "report-weekly-2"`, `{"started":"report-weekly"}`, false, ""},
	})
}

// TestTheFormKeptAndStored runs goals that end by storing a form that stays on the page
// (a settings page, an editor), with no check: a run is verified when the fields hold the
// values the goal gave and a line the page did not show before says, in its own words,
// that it was stored ("Settings saved"); never when the page says it could not, says
// nothing, stored another value than the one typed (the field shows the page's), or only
// saved a draft after a Publish. The server's state says what was stored.
func TestTheFormKeptAndStored(t *testing.T) {
	const why = "the page says it was stored"
	runEvidence(t, "kept.html", "kept", []evidenceCase{
		{"saved, and it says so", `type "Green Thumb Journal" into "Site title", click "Save"`, `{"title":"Green Thumb Journal"}`, true, why},
		{"refused", `type "Green Thumb Journal of the Northern Allotments" into "Site title", click "Save"`, ``, false, why},
		{"no answer", `type "Quiet Garden" into "Site title", click "Save"`, ``, false, why},
		{"stored in another spelling", `type "green thumb journal" into "Site title", click "Save"`, `{"title":"Green Thumb Journal"}`, false, why},
		{"a draft saved, not published", `type "Spring Garden Open Day" into "Post title", click "Publish"`, ``, false, why},
		{"published from its menu, where it is", `type "Opening hours" into "Page title", click "Publish", click "Publish now"`, `{"page":"Opening hours"}`, true, why},
	})
}

// evidenceCase is a goal run on a lab page with no check of its own: what the page's
// server holds after it (state) and whether the run is verified, by the evidence its
// reason names (why).
type evidenceCase struct {
	name, goal, state string
	verified          bool
	why               string
}

// runEvidence runs each case on a fresh worker's lab page (file), whose server state is
// kept under key.
func runEvidence(t *testing.T, file, key string, cases []evidenceCase) {
	s := newStack(t)
	s.worker(t)
	url := strings.TrimSuffix(s.appURL, "/projects") + "/static/lab/" + file
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			s.app.ResetLabStates()
			res := s.result(t, s.start(t, workflows.GoalInput{Goal: tt.goal, StartURL: url}))
			if got := string(s.app.LabState(key)); got != tt.state {
				t.Errorf("the server's state is %q, want %q", got, tt.state)
			}
			verifiedBy(t, res, tt.verified, tt.why)
		})
	}
}

// TestTheListShowsItNoMore runs goals that open an item from a list and delete it, with
// no check: a run is verified when the final page is that list again without the item;
// never when the item is still listed (its delete failed without a word), nor when the
// run ends on another page. The server's state says what was deleted.
func TestTheListShowsItNoMore(t *testing.T) {
	s := newStack(t)
	s.worker(t)
	url := strings.TrimSuffix(s.appURL, "/projects") + "/static/lab/gone.html"
	for _, tt := range []struct {
		name, list, book, state string
		verified                bool
	}{
		{"the list without it", "Books", "Gardening for Small Spaces", `{"deleted":["Gardening for Small Spaces"]}`, true},
		{"covers named by their links", "Covers", "A Short History of Tunnels", `{"deleted":["A Short History of Tunnels"]}`, true},
		{"still listed", "Books", "Winter Crossing", ``, false},
		{"another page at the end", "Books", "The Quiet Harbour", `{"deleted":["The Quiet Harbour"]}`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s.app.ResetLabStates()
			goal := `click "` + tt.list + `", click "` + tt.book + `", click "Delete this book", click "OK"`
			res := s.result(t, s.start(t, workflows.GoalInput{Goal: goal, StartURL: url}))
			if got := string(s.app.LabState("gone")); got != tt.state {
				t.Errorf("the server's state is %q, want %q", got, tt.state)
			}
			verifiedBy(t, res, tt.verified, "shows it no more")
		})
	}
}

// verifiedBy fails t unless res is verified as want says, by the evidence its reason
// names (why), and is never a success when it should not be verified.
func verifiedBy(t *testing.T, res workflows.GoalResult, want bool, why string) {
	t.Helper()
	if res.Validation.Verified != want {
		t.Errorf("verified %v, want %v: status %s: %s", res.Validation.Verified, want, res.Execution.Status, res.Validation.Reason)
	}
	if want && (res.Execution.Status != workflows.StatusSuccess || !strings.Contains(res.Validation.Reason, why)) {
		t.Errorf("status %s: %s", res.Execution.Status, res.Validation.Reason)
	}
	if !want && res.Execution.Status == workflows.StatusSuccess {
		t.Errorf("FALSE SUCCESS: status %s: %s", res.Execution.Status, res.Validation.Reason)
	}
}

// TestAppliedAfterTheDialog runs goals that set a value in a dialog whose OK lists it among
// the changes, then apply them, with no check: verified when the page the apply leads to
// shows the value, outside every field; never when the apply fails and the page stays,
// listing the value; nor when the click after the form was a search whose box still
// holds the words.
func TestAppliedAfterTheDialog(t *testing.T) {
	s := newStack(t)
	s.worker(t)
	url := strings.TrimSuffix(s.appURL, "/projects") + "/static/lab/apply.html"
	for _, tt := range []struct {
		name, goal, state string
		verified          bool
	}{
		{"applied", `click "Edit the metadata for this book", click "Title", type "The Long Winter Crossing" into "Title", click "OK", click "Apply changes"`,
			`{"title":"The Long Winter Crossing"}`, true},
		{"the apply failed", `click "Edit the metadata for this book", click "Title", type "Winter Crossing Draft" into "Title", click "OK", click "Apply changes"`,
			``, false},
		{"a search, then a result", `click "Search", type "Winter" into "Search", click "Search" button, click "Winter Crossing" in "results"`, ``, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s.app.ResetLabStates()
			res := s.result(t, s.start(t, workflows.GoalInput{Goal: tt.goal, StartURL: url}))
			if got := string(s.app.LabState("apply")); got != tt.state {
				t.Errorf("the server's state is %q, want %q", got, tt.state)
			}
			verifiedBy(t, res, tt.verified, "outside any field")
		})
	}
}

// TestTheOppositeStandsInItsPlace runs goals that end with a command on an item and state
// no check, on a page that answers only by what it offers next: a run is verified when
// the control clicked is gone and its opposite stands in its place ("Enable monitoring"
// where "Disable monitoring" stood; "Resume" in the job's row where "Pause" was); never
// when nothing changed (the command failed without a word), when the page offers the
// same controls whatever the item does (Start, Stop and Restart on every process), or
// when the control changed in another row (the near miss the page paused instead). The
// server's state says what was done.
func TestTheOppositeStandsInItsPlace(t *testing.T) {
	const why = "offers the opposite of the last click"
	runEvidence(t, "flip.html", "flip", []evidenceCase{
		{"monitoring disabled", `click "search-indexer", click "Disable monitoring"`, `{"disabled":"search-indexer"}`, true, why},
		{"a file's monitoring disabled", `click "nginx-config", click "Disable monitoring"`, `{"disabled":"nginx-config"}`, true, why},
		{"the toggle failed", `click "billing-sync", click "Disable monitoring"`, ``, false, ""},
		{"the same controls after", `click "search-indexer-2", click "Stop service"`, `{"stopped":"search-indexer-2"}`, false, ""},
		{"paused in its row", `click "Pause" in the row "backup-nightly"`, `{"paused":"backup-nightly"}`, true, why},
		{"another row paused", `click "Pause" in the row "backup-weekly"`, `{"paused":"backup-monthly"}`, false, ""},
	})
}

// TestAddedToTheListItSitsOn runs goals that fill a form on the page that lists what it
// adds (a ledger's journal, whose every transaction names its accounts), with no check: a
// run is verified when every value typed is shown and each one the page showed before
// shows on more of its lines than it did; never when the page refused the form without a
// word, nor when its line that repeats the values says it failed. The server's state says
// what was added.
func TestAddedToTheListItSitsOn(t *testing.T) {
	const why = "the final page shows what the last form was given"
	form := func(amount string) string {
		return `type "2026-11-26" into "Date", type "Transfer to savings" into "Description", type "assets:bank:savings" into "Account 1", ` +
			`type "` + amount + `" into "Amount 1", type "assets:bank:checking" into "Account 2", click "Add"`
	}
	runEvidence(t, "journal.html", "journal", []evidenceCase{
		{"one more transaction", form("500.00"), `{"added":["2026-11-26","Transfer to savings","assets:bank:savings","500.00","assets:bank:checking"]}`, true, why},
		{"refused without a word", form("0"), ``, false, ""},
		{"refused in a line that repeats it", form("five hundred"), ``, false, ""},
	})
}
