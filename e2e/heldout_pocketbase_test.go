//go:build heldout

package e2e

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

// The held-out check: PocketBase's tests build only with -tags heldout, so that they are
// run at the end, against an agent nobody tuned to them.

// pbSignIn are three ways a person writes signing in to PocketBase's dashboard with the
// password the worker grants (phrasing i of every goal begins with pbSignIn[i]).
var pbSignIn = [3]string{
	`type "` + testenv.PocketBaseEmail + `" into "Email", type "{{secret:pocketbase_password}}" into "Password", click "Login"`,
	`fill "Email" with "` + testenv.PocketBaseEmail + `", fill "Password" with "{{secret:pocketbase_password}}" and press "Login"`,
	`type "` + testenv.PocketBaseEmail + `" into the field labelled Email, type "{{secret:pocketbase_password}}" into the field labelled Password, then click the Login button`,
}

// pbGoal is one everyday goal on PocketBase's dashboard: three phrasings of it (after
// signing in), what the books collection must then hold, and the same effect made
// directly through PocketBase's API for the judge's own test.
type pbGoal struct {
	name      string
	phrasings [3]string
	// books is what the "books" collection holds once the goal is done, from its seed.
	books func([]testenv.Book) []testenv.Book
	// collections are the collections (besides the system's) once it is done.
	collections []string
	// extra says what else is not as the goal asked ("" when it is), nil for nothing.
	extra func(*testenv.PocketBase) string
	// effect does the goal directly, as the dashboard would, through PocketBase's API.
	effect func(*testing.T, *testenv.PocketBase)
}

var pbGoals = []pbGoal{
	{
		name: "create a collection with a text field",
		phrasings: [3]string{
			`click "New collection", type "recipes" into "Name", click "New field", click "Plain text", type "name", click "Create", then check that "recipes" is visible`,
			`press the "New collection" button, enter "recipes" in the Name field, press "New field", press "Plain text", then type "name", press "Create" and check that "recipes" is visible`,
			`click New collection, type "recipes" into the field labelled Name, click New field, then click Plain text, type "name", click the Create button, then make sure "recipes" is visible`,
		},
		books:       pbSame,
		collections: []string{"books", "recipes", "users"},
		extra:       func(pb *testenv.PocketBase) string { return pbHasField(pb, "recipes", "name", "text") },
		effect: func(t *testing.T, pb *testenv.PocketBase) {
			pb.API(t, "POST", "/api/collections", map[string]any{"name": "recipes", "type": "base", "fields": []map[string]any{
				{"name": "name", "type": "text"},
				{"name": "created", "type": "autodate", "onCreate": true},
				{"name": "updated", "type": "autodate", "onCreate": true, "onUpdate": true},
			}}, nil)
		},
	},
	{
		name: "add a record",
		phrasings: [3]string{
			`click "books", click "New record", type "Dune" into "title", type "Frank Herbert" into "author", type "1965" into "year", click "Create", then check that "Dune" is visible`,
			`click books, click the "New record" button, fill "title" with "Dune", fill "author" with "Frank Herbert", fill "year" with "1965", press "Create" and verify that "Dune" is visible`,
			`click "books", then click New record, enter Dune into the title field, enter "Frank Herbert" into the author field, enter 1965 into the year field, then click Create, then make sure Dune is visible`,
		},
		books: func(b []testenv.Book) []testenv.Book {
			return append(b, testenv.Book{Title: "Dune", Author: "Frank Herbert", Year: 1965})
		},
		effect: func(t *testing.T, pb *testenv.PocketBase) {
			pb.API(t, "POST", "/api/collections/books/records", map[string]any{"title": "Dune", "author": "Frank Herbert", "year": 1965}, nil)
		},
	},
	{
		name: "rename a record",
		phrasings: [3]string{
			`click "books", click "The Hobbit", type "The Hobbit, or There and Back Again" into "title", click "Save changes", then check that "There and Back Again" is visible`,
			`click books, open "The Hobbit", clear the "title" field, type "The Hobbit, or There and Back Again" into "title", press "Save changes" and check that "There and Back Again" is visible`,
			`click "books", then click the record "The Hobbit", enter "The Hobbit, or There and Back Again" into the field labelled title, then click the Save changes button, then make sure "There and Back Again" is visible`,
		},
		books: pbEdit("The Hobbit", func(b *testenv.Book) { b.Title = "The Hobbit, or There and Back Again" }),
		effect: func(t *testing.T, pb *testenv.PocketBase) {
			pb.API(t, "PATCH", "/api/collections/books/records/"+pbFind(t, pb, `title = "The Hobbit"`), map[string]any{"title": "The Hobbit, or There and Back Again"}, nil)
		},
	},
	{
		name: "delete a record",
		phrasings: [3]string{
			`click "books", tick the checkbox for "Moby Dick", click "Delete selected", click "Yes", then check that "Moby Dick" is not visible`,
			`click books, check the box in the row "Moby Dick", press "Delete selected" and then press "Yes", and verify that "Moby Dick" is not visible`,
			`click "books", then tick Moby Dick, then click the "Delete selected" button, then click the Yes button, then make sure "Moby Dick" is not visible`,
		},
		books: func(b []testenv.Book) []testenv.Book {
			return slices.DeleteFunc(b, func(b testenv.Book) bool { return b.Title == "Moby Dick" })
		},
		effect: func(t *testing.T, pb *testenv.PocketBase) {
			pb.API(t, "DELETE", "/api/collections/books/records/"+pbFind(t, pb, `title = "Moby Dick"`), nil, nil)
		},
	},
	{
		name: "add a field to a collection",
		phrasings: [3]string{
			`click "books", click "Edit collection", click "New field", click "Number", type "pages", click "Save changes", then check that "pages" is visible`,
			`click books, press the "Edit collection" button, press "New field", press "Number", then type "pages", press "Save changes" and check that "pages" is visible`,
			`click "books", then click the Edit collection button, click New field, click Number, type "pages", then click the Save changes button, then make sure "pages" is visible`,
		},
		books: pbSame,
		extra: func(pb *testenv.PocketBase) string { return pbHasField(pb, "books", "pages", "number") },
		effect: func(t *testing.T, pb *testenv.PocketBase) {
			var c struct{ Fields []map[string]any }
			pb.API(t, "GET", "/api/collections/books", nil, &c)
			fields := append(c.Fields, map[string]any{"name": "pages", "type": "number"})
			pb.API(t, "PATCH", "/api/collections/books", map[string]any{"fields": fields}, nil)
		},
	},
	{
		name: "search for a record and correct it",
		phrasings: [3]string{
			`click "books", type "Gatsby" into the search box, press Enter, click "The Great Gatsby", type "1925" into "year", click "Save changes", then check that "1925" is visible`,
			`click books, enter Gatsby in the search field, press Enter, open "The Great Gatsby", clear "year", type "1925" into "year", press "Save changes" and verify that "1925" is visible`,
			`click "books", then type "Gatsby" into "Search term or filter" and press Enter, then click the record "The Great Gatsby", enter 1925 into the year field, then click the Save changes button, then make sure "1925" is visible`,
		},
		books: pbEdit("The Great Gatsby", func(b *testenv.Book) { b.Year = 1925 }),
		effect: func(t *testing.T, pb *testenv.PocketBase) {
			// The dashboard's search box asks the API for the records whose text holds the term.
			pb.API(t, "PATCH", "/api/collections/books/records/"+pbFind(t, pb, `title ~ "Gatsby" || author ~ "Gatsby"`), map[string]any{"year": 1925}, nil)
		},
	},
	{
		name: "rename the application in the settings",
		phrasings: [3]string{
			`click "Settings", type "Bookshelf" into "Application name", click "Save changes", then check that "Successfully saved application settings" is visible`,
			`click Settings, clear the "Application name" field, enter "Bookshelf" in "Application name", press "Save changes" and verify that the page contains "Successfully saved"`,
			`click the Settings icon, then fill the field labelled Application name with "Bookshelf", then click the Save changes button, then make sure "Successfully saved application settings" is visible`,
		},
		books: pbSame,
		extra: func(pb *testenv.PocketBase) string {
			if name, err := pb.AppName(); err != nil || name != "Bookshelf" {
				return fmt.Sprintf("the application's name is %q (%v)", name, err)
			}
			return ""
		},
		effect: func(t *testing.T, pb *testenv.PocketBase) {
			pb.API(t, "PATCH", "/api/settings", map[string]any{"meta": map[string]any{"appName": "Bookshelf"}}, nil)
		},
	},
}

func pbSame(b []testenv.Book) []testenv.Book { return b }

// pbEdit is the seed with the book titled title changed by fn.
func pbEdit(title string, fn func(*testenv.Book)) func([]testenv.Book) []testenv.Book {
	return func(books []testenv.Book) []testenv.Book {
		for i := range books {
			if books[i].Title == title {
				fn(&books[i])
			}
		}
		return books
	}
}

// pbWhyNot says what of the goal is not in PocketBase's data.db, "" when all of it is
// and nothing else changed: the books, the collections, and the goal's own extra.
func pbWhyNot(pb *testenv.PocketBase, g pbGoal) string {
	want := g.books(slices.Clone(testenv.PocketBaseBooks))
	rows, err := pb.Records("books")
	if err != nil {
		return "reading the books: " + err.Error()
	}
	var got []testenv.Book
	for _, r := range rows {
		title, _ := r["title"].(string)
		author, _ := r["author"].(string)
		year, _ := r["year"].(float64)
		got = append(got, testenv.Book{Title: title, Author: author, Year: int(year)})
	}
	var missing, extra []testenv.Book
	for _, b := range want {
		if !slices.Contains(got, b) {
			missing = append(missing, b)
		}
	}
	for _, b := range got {
		if !slices.Contains(want, b) {
			extra = append(extra, b)
		}
	}
	if len(missing) > 0 || len(extra) > 0 || len(got) != len(want) {
		return fmt.Sprintf("the books lack %v and hold %v besides (%d books, want %d)", missing, extra, len(got), len(want))
	}
	wantCols := g.collections
	if wantCols == nil {
		wantCols = []string{"books", "users"}
	}
	if cols, err := pb.Collections(); err != nil || !slices.Equal(cols, wantCols) {
		return fmt.Sprintf("the collections are %v (%v), want %v", cols, err, wantCols)
	}
	if g.extra != nil {
		return g.extra(pb)
	}
	return ""
}

// pbHasField says "" when the collection has a field of that name and type, and every
// field it was seeded with.
func pbHasField(pb *testenv.PocketBase, collection, name, typ string) string {
	fields, ok, err := pb.Fields(collection)
	if err != nil || !ok {
		return fmt.Sprintf("no collection %q (%v)", collection, err)
	}
	var have []string
	for _, f := range fields {
		have = append(have, f.Name+":"+f.Type)
	}
	if !slices.Contains(have, name+":"+typ) {
		return fmt.Sprintf("collection %q has no %s field %q: %v", collection, typ, name, have)
	}
	if collection == "books" {
		for _, f := range []string{"title:text", "author:text", "year:number"} {
			if !slices.Contains(have, f) {
				return fmt.Sprintf("the books lost their field %s: %v", f, have)
			}
		}
	}
	return ""
}

// pbFind is the id of the one book the filter (PocketBase's filter syntax) finds.
func pbFind(t *testing.T, pb *testenv.PocketBase, filter string) string {
	t.Helper()
	var page struct{ Items []struct{ ID string } }
	pb.API(t, "GET", "/api/collections/books/records?filter="+url.QueryEscape(filter), nil, &page)
	if len(page.Items) != 1 {
		t.Fatalf("filter %s found %d books, want 1", filter, len(page.Items))
	}
	return page.Items[0].ID
}

// pbOutcome is what became of one phrasing of one goal.
type pbOutcome struct {
	goal, outcome, status, reason string
	phrasing                      int
}

// TestHeldOutPocketBase drives PocketBase's admin dashboard — a real application nobody
// here wrote, built from the Go module proxy — with everyday goals and no model: create a
// collection, add, rename, delete and find-then-correct a record, add a field, rename the
// application. Each goal is written three ways, each run on a fresh PocketBase, signing in
// with a password the worker grants; each is judged by the run's status and by what
// PocketBase saved in its data.db. go test -tags heldout -run 'TestHeldOutPocketBase$' ./e2e/
func TestHeldOutPocketBase(t *testing.T) {
	if testenv.PocketBaseBin() == "" {
		t.Skip("PocketBase is not installed: run deploy/setup.sh heldout")
	}
	s := newStack(t)
	// One grant for every instance: each is on 127.0.0.1, on a port of its own.
	s.poolWorker(t, "WEBAGENT_TEST_POCKETBASE_PASSWORD="+testenv.PocketBasePassword,
		`WEBAGENT_SECRETS={"pocketbase_password": {"from": "env:WEBAGENT_TEST_POCKETBASE_PASSWORD", "sites": ["127.0.0.1"]}}`)
	var outcomes []pbOutcome
	for _, g := range pbGoals {
		for i, p := range g.phrasings {
			t.Run(fmt.Sprintf("%s/%d", g.name, i+1), func(t *testing.T) {
				outcomes = append(outcomes, pbRun(t, s, g, i, pbSignIn[i]+", "+p))
			})
		}
	}
	pbReport(t, outcomes)
}

// pbRun runs one phrasing on a fresh PocketBase and says what became of it; it records
// rather than fails, so that every phrasing runs.
func pbRun(t *testing.T, s *stack, g pbGoal, i int, goal string) pbOutcome {
	pb := testenv.StartPocketBase(t)
	res := s.result(t, s.start(t, workflows.GoalInput{Goal: goal, StartURL: pb.URL + "/_/"}))
	why := pb.Eventually(10*time.Second, func(pb *testenv.PocketBase) string { return pbWhyNot(pb, g) })
	o := pbOutcome{goal: g.name, phrasing: i + 1, status: fmt.Sprintf("%s (verified %v)", res.Execution.Status, res.Validation.Verified)}
	said := res.Execution.Status == workflows.StatusSuccess
	switch {
	case said && res.Validation.Verified && why == "":
		o.outcome, o.reason = "done-and-said", res.Validation.Reason
	case said && why != "":
		o.outcome, o.reason = "false success", why
	case why == "":
		o.outcome, o.reason = "not done", "saved as asked, but the run said "+o.status+": "+res.Validation.Reason
	default:
		o.outcome, o.reason = "not done", why+"; the run: "+res.Validation.Reason
	}
	if o.outcome != "done-and-said" {
		for _, st := range res.Steps {
			t.Logf("step %s %s: %v", st.Step, st.Status, st.Actions)
		}
		t.Logf("goal %q: %s: %s; errors %v", goal, o.outcome, o.reason, res.Errors)
	}
	return o
}

// pbReport logs the table of outcomes and fails on any false success, or when fewer than
// 90% of the phrasings were done and said.
func pbReport(t *testing.T, outcomes []pbOutcome) {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-42s %-3s %-14s %-28s %s\n", "goal", "#", "outcome", "status", "reason")
	done, falses := 0, 0
	for _, o := range outcomes {
		fmt.Fprintf(&b, "%-42s %-3d %-14s %-28s %s\n", o.goal, o.phrasing, o.outcome, o.status, o.reason)
		switch o.outcome {
		case "done-and-said":
			done++
		case "false success":
			falses++
		}
	}
	fmt.Fprintf(&b, "done-and-said %d of %d, false successes %d\n", done, len(outcomes), falses)
	t.Log(b.String())
	if falses > 0 {
		t.Errorf("%d false successes: the run said success but PocketBase's data.db disagrees", falses)
	}
	if len(outcomes) == 0 || done*10 < len(outcomes)*9 {
		t.Errorf("done-and-said %d of %d phrasings, under 90%%", done, len(outcomes))
	}
}

// TestHeldOutPocketBaseJudge checks the harness without the agent: on a fresh PocketBase
// every goal's judge says "not done"; after the goal's effect is made directly through
// PocketBase's own API, as its dashboard makes it, that goal's judge says "done" and every
// other goal's judge still says "not done".
func TestHeldOutPocketBaseJudge(t *testing.T) {
	started := time.Now()
	fresh := testenv.StartPocketBase(t)
	t.Logf("PocketBase %s started and seeded in %s", testenv.PocketBaseVersion, time.Since(started).Round(time.Millisecond))
	for _, g := range pbGoals {
		why := pbWhyNot(fresh, g)
		if why == "" {
			t.Errorf("%s: the judge says done on a fresh PocketBase", g.name)
		}
		t.Logf("fresh, %s: not done: %.160s", g.name, why)
	}
	if name, err := fresh.AppName(); err != nil || name == "" {
		t.Errorf("the fresh application's name reads %q (%v)", name, err)
	}
	for _, g := range pbGoals {
		t.Run(g.name, func(t *testing.T) {
			pb := testenv.StartPocketBase(t)
			g.effect(t, pb)
			if why := pb.Eventually(5*time.Second, func(pb *testenv.PocketBase) string { return pbWhyNot(pb, g) }); why != "" {
				t.Errorf("after the goal's effect the judge says not done: %s", why)
			}
			for _, other := range pbGoals {
				if other.name != g.name && pbWhyNot(pb, other) == "" {
					t.Errorf("after %q the judge of %q says done too", g.name, other.name)
				}
			}
		})
	}
}
