//go:build heldout

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// gititGoal is an everyday goal on Gitit's pages, written three ways as a person writes it
// from what the pages show ({signin} is the phrasing's way of signing in; a goal that
// needs no account, signedOut, has none); done reads the wiki's git repository and its
// users file and says "" when the goal's effect is there and nothing else the pages change
// did, else what it found; do makes the effect through the pages along the goal's path,
// and miss a near miss the judge must not take for it (a neighbouring page, revision or
// name).
type gititGoal struct {
	name      string
	signedOut bool
	phrasings [3]string
	done      func(t testing.TB, w *testenv.Gitit) string
	do, miss  func(t testing.TB, b *testenv.GititBrowser)
}

const (
	gititWiFi        = "Visitor Wi-Fi"
	gititWiFiText    = "The guest network is called Harbor-Guest. Ask the front desk for today's password."
	gititHoliday     = "* 26 December"
	gititHolidayNote = "Add Boxing Day"
	gititNewUser     = "lucas"
	gititNewEmail    = "lucas@example.org"
	gititNewPassword = "Lucas-Wiki-77"
)

var gititGoals = []gititGoal{
	{
		name: "create a page",
		phrasings: [3]string{
			`{signin}, click "Front page", click "Visitor Wi-Fi", click "Create the page 'Visitor Wi-Fi'", type "The guest network is called Harbor-Guest. Ask the front desk for today's password." into the text box, type "Guest network" into "Description of changes", click "Save"`,
			`{signin}, then on the Front page follow the Visitor Wi-Fi link (that page doesn't exist yet), choose Create the page 'Visitor Wi-Fi', write "The guest network is called Harbor-Guest. Ask the front desk for today's password." as its text, Guest network as the description of changes, and hit Save`,
			`{signin} Then go to the Front page (in the menu on the left) and click the link Visitor Wi-Fi in its list. That page does not exist yet, so click "Create the page 'Visitor Wi-Fi'", type the text "The guest network is called Harbor-Guest. Ask the front desk for today's password." into the big text box, put Guest network in the field labelled Description of changes and press the Save button.`,
		},
		done: func(t testing.TB, w *testenv.Gitit) string {
			return gititEdited(t, w, gititWiFi, gititWiFiText, "Guest network")
		},
		do: func(t testing.TB, b *testenv.GititBrowser) {
			b.Open(t, "/")
			b.ClickText(t, gititWiFi)
			b.EditHere(t, gititWiFiText, "Guest network")
		},
		miss: func(t testing.TB, b *testenv.GititBrowser) {
			b.SavePage(t, "Visitor WiFi", gititWiFiText, "Guest network")
		},
	},
	{
		name: "edit a page with a description of the change",
		phrasings: [3]string{
			`{signin}, click "Front page", click "Holiday Schedule 2025", click "edit", add the line "* 26 December" at the end of the text box, type "Add Boxing Day" into "Description of changes", click "Save"`,
			`{signin} then open Holiday Schedule 2025 from the Front page and edit it: add a new last line * 26 December to the list, put Add Boxing Day as the Description of changes and Save`,
			`{signin} After that, go to the page "Holiday Schedule 2025" (it's linked on the Front page; not the 2024 one) and click the edit tab at the top. At the end of the list in the text box add one more line, "* 26 December", leaving the other lines alone. Write Add Boxing Day in the field labelled Description of changes and hit Save.`,
		},
		done: func(t testing.TB, w *testenv.Gitit) string {
			want := gititSeedText("Holiday Schedule 2025") + gititHoliday + "\n"
			return gititEdited(t, w, "Holiday Schedule 2025", want, gititHolidayNote)
		},
		do:   func(t testing.TB, b *testenv.GititBrowser) { gititAddHoliday(t, b, "Holiday Schedule 2025") },
		miss: func(t testing.TB, b *testenv.GititBrowser) { gititAddHoliday(t, b, "Holiday Schedule 2024") },
	},
	{
		name: "delete a page",
		phrasings: [3]string{
			`{signin}, click "Front page", click "Old Onboarding Checklist", click "Delete this page", click "Yes, delete it!"`,
			`{signin}, then delete the page Old Onboarding Checklist (open it from the Front page, Delete this page in the This page box on the left, confirm with Yes, delete it!)`,
			`{signin} We don't need the outdated checklist any more: open "Old Onboarding Checklist" from the list on the Front page, click Delete this page under "This page" in the menu on the left and confirm with the "Yes, delete it!" button. Keep the page Onboarding Checklist.`,
		},
		done: func(t testing.TB, w *testenv.Gitit) string {
			return gititExactly(t, w, func(s testenv.GititState) { delete(s["file"], testenv.PageFile("Old Onboarding Checklist")) })
		},
		do:   func(t testing.TB, b *testenv.GititBrowser) { gititDelete(t, b, "Old Onboarding Checklist") },
		miss: func(t testing.TB, b *testenv.GititBrowser) { gititDelete(t, b, "Onboarding Checklist") },
	},
	{
		name: "revert a page to an earlier revision",
		phrasings: [3]string{
			`{signin}, click "Front page", click "Coffee Machine", click "history", click "Drip tray", click "revert", click "Save"`,
			`{signin}; open Coffee Machine from the Front page, go to its history, open the revision described Drip tray and revert the page to it (revert tab, then Save)`,
			`{signin} Someone emptied the Coffee Machine page. Open that page (it is linked on the Front page), click the history tab, and in the list of changes click the one called "Drip tray". On that old revision click the revert tab at the top and then press Save, so that the page is back to how it was in that revision.`,
		},
		done: func(t testing.TB, w *testenv.Gitit) string { return gititReverted(t, w, "Drip tray") },
		do:   func(t testing.TB, b *testenv.GititBrowser) { gititRevert(t, b, "Drip tray") },
		miss: func(t testing.TB, b *testenv.GititBrowser) { gititRevert(t, b, "Cleaning instructions") },
	},
	{
		name: "add a category to a page",
		phrasings: [3]string{
			`{signin}, click "Front page", click "Travel Expenses", click "edit", change the line "categories: Finance" in the text box to "categories: Finance, Travel", type "Add the Travel category" into "Description of changes", click "Save"`,
			`{signin}, then edit the Travel Expenses page (from the Front page) so it is in the category Travel too: in the text box make the categories line read categories: Finance, Travel, describe the change as Add the Travel category and hit Save`,
			`{signin} Next, the Travel Expenses page should also show up under the Travel category. Open it from the Front page, click edit, and in the header at the top of the text box add Travel to the categories line so that it says "categories: Finance, Travel" (keep Finance). Type "Add the Travel category" as the Description of changes, then press Save.`,
		},
		done: func(t testing.TB, w *testenv.Gitit) string {
			return gititCategorized(t, w, "Travel Expenses", "Add the Travel category")
		},
		do:   func(t testing.TB, b *testenv.GititBrowser) { gititAddCategory(t, b, "Travel Expenses") },
		miss: func(t testing.TB, b *testenv.GititBrowser) { gititAddCategory(t, b, "Travel Policy") },
	},
	{
		name: "search for a page and edit it",
		phrasings: [3]string{
			`{signin}, type "badge reader" into the box next to "Search" in the menu on the left, click "Search", click "Building Access", click "edit", change "4711" to "5820" in the text box, type "New door code" into "Description of changes", click "Save"`,
			`{signin} then search the wiki for badge reader (search box on the left), open the page it finds and change its door code 4711 to 5820 with the description New door code, then Save`,
			`{signin} Afterwards, use the Search box in the menu on the left to look for "badge reader". Open the page that comes up in the results, click edit and replace the door code 4711 with 5820 in its text, leaving the rest as it is. Put New door code in the Description of changes field and hit Save.`,
		},
		done: func(t testing.TB, w *testenv.Gitit) string {
			want := strings.Replace(gititSeedText("Building Access"), "4711", "5820", 1)
			return gititEdited(t, w, "Building Access", want, "New door code")
		},
		do: func(t testing.TB, b *testenv.GititBrowser) { gititSearchAndRecode(t, b, "Building Access") },
		miss: func(t testing.TB, b *testenv.GititBrowser) {
			b.SavePage(t, "Server Room", strings.Replace(gititSeedText("Server Room"), "4711", "5820", 1), "New door code")
		},
	},
	{
		name:      "register an account",
		signedOut: true,
		phrasings: [3]string{
			`click "Login / Get an account", click "click here to get one.", type "lucas" into "Username (at least 3 letters or digits):", type "lucas@example.org" into "Email (optional, will not be displayed on the Wiki):", type "Lucas-Wiki-77" into "Password (at least 6 characters, including at least one non-letter):", type "Lucas-Wiki-77" into "Confirm Password:", click "Register"`,
			`get an account on this wiki for lucas: Login / Get an account, then "click here to get one.", username lucas, email lucas@example.org, password Lucas-Wiki-77 (and again under Confirm Password), Register`,
			`Our new colleague Lucas needs a wiki account. Click Login / Get an account at the top of the page, then follow the link "click here to get one." on the login page. Fill in lucas as the Username and lucas@example.org as the Email, type Lucas-Wiki-77 both in the Password field and in Confirm Password, then press the Register button.`,
		},
		done: func(t testing.TB, w *testenv.Gitit) string { return gititRegistered(t, w, gititNewUser) },
		do: func(t testing.TB, b *testenv.GititBrowser) {
			b.Register(t, gititNewUser, gititNewEmail, gititNewPassword)
		},
		miss: func(t testing.TB, b *testenv.GititBrowser) { b.Register(t, "lukas", gititNewEmail, gititNewPassword) },
	},
}

// gititSeedText is page's text as the seed last saved it.
func gititSeedText(page string) string {
	text := ""
	for _, e := range testenv.GititSeedEdits {
		if e.Page == page {
			text = e.Text
		}
	}
	return text
}

// gititNorm is a page's text as the judges compare it: its lines trimmed, blank lines
// dropped (a browser's text box sends CRLF line ends and may add or drop a blank line).
func gititNorm(text string) string {
	var lines []string
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r", ""), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// gititExactly says whether the storage holds the seed changed by change and nothing
// else.
func gititExactly(t testing.TB, w *testenv.Gitit, change func(testenv.GititState)) string {
	want := w.Seed()
	change(want)
	return w.Differs(t, want)
}

// gititEdited says whether page's text is want (as gititNorm compares them), its last
// change is nora's (and, unless message is "", described by message), and nothing else
// changed.
func gititEdited(t testing.TB, w *testenv.Gitit, page, want, message string) string {
	got := w.State(t)
	file := testenv.PageFile(page)
	text, ok := got["file"][file]
	if !ok {
		return "no page " + page
	}
	if gititNorm(text) != gititNorm(want) {
		return fmt.Sprintf("the page %s reads %q, not %q", page, text, want)
	}
	if c := w.Changes(t, file)[0]; c.Author != w.User || (message != "" && c.Message != message) {
		return fmt.Sprintf("the last change of %s is %s's, described %q", page, c.Author, c.Message)
	}
	seed := w.Seed()
	got["file"][file] = seed["file"][file]
	if _, was := seed["file"][file]; !was {
		delete(got["file"], file)
	}
	return got.Diff(seed)
}

// gititAddHoliday opens page from the Front page and saves it with the goal's line added
// at its end, described as the goal says.
func gititAddHoliday(t testing.TB, b *testenv.GititBrowser, page string) {
	t.Helper()
	b.Open(t, "/")
	b.ClickText(t, page)
	b.EditHere(t, gititSeedText(page)+gititHoliday+"\n", gititHolidayNote)
}

// gititDelete opens page from the Front page, follows "Delete this page" and confirms.
func gititDelete(t testing.TB, b *testenv.GititBrowser, page string) {
	t.Helper()
	b.Open(t, "/")
	b.ClickText(t, page)
	b.ClickText(t, "Delete this page")
	b.Send(t, b.Form(t, `action=""`), "confirm")
}

// gititRevisionText is the text Coffee Machine had in its seed revision described summary.
func gititRevisionText(summary string) string {
	for _, e := range testenv.GititSeedEdits {
		if e.Page == "Coffee Machine" && e.Summary == summary {
			return e.Text
		}
	}
	return ""
}

// gititReverted says whether Coffee Machine reads as its seed revision described summary
// again, by a change of nora's made after the seed, and nothing else changed.
func gititReverted(t testing.TB, w *testenv.Gitit, summary string) string {
	const page = "Coffee Machine"
	if n, seeded := len(w.Changes(t, testenv.PageFile(page))), 3; n <= seeded {
		return fmt.Sprintf("the page %s has its %d changes of the seed and no more", page, n)
	}
	return gititEdited(t, w, page, gititRevisionText(summary), "")
}

// gititRevert opens Coffee Machine's history from the Front page, the revision described
// summary, its revert tab, and saves.
func gititRevert(t testing.TB, b *testenv.GititBrowser, summary string) {
	t.Helper()
	b.Open(t, "/")
	b.ClickText(t, "Coffee Machine")
	b.ClickText(t, "history")
	b.ClickText(t, summary)
	b.ClickText(t, "revert")
	b.Send(t, b.Form(t, `id="editform"`), "update")
}

// gititMeta splits a page's text into its metadata (the block between "---" and "..." at
// its top, as Gitit reads it: key → value) and the rest.
func gititMeta(text string) (map[string]string, string) {
	text = strings.ReplaceAll(text, "\r", "")
	meta := map[string]string{}
	if !strings.HasPrefix(text, "---\n") {
		return meta, text
	}
	head, body, ok := strings.Cut(text[4:], "\n...\n")
	if !ok {
		return meta, text
	}
	for _, l := range strings.Split(head, "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok {
			if _, dup := meta[strings.TrimSpace(k)]; !dup {
				meta[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
	}
	return meta, body
}

// gititCategorized says whether page's categories are Finance and Travel (Gitit splits the
// categories line at commas, semicolons and spaces), its text is otherwise the seed's, its
// last change is nora's, described by message, and nothing else changed.
func gititCategorized(t testing.TB, w *testenv.Gitit, page, message string) string {
	got := w.State(t)
	file := testenv.PageFile(page)
	meta, body := gititMeta(got["file"][file])
	seedMeta, seedBody := gititMeta(w.Seed()["file"][file])
	cats := strings.FieldsFunc(meta["categories"], func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\t' })
	slices.Sort(cats)
	if !slices.Equal(cats, []string{"Finance", "Travel"}) {
		return fmt.Sprintf("the page %s's categories are %q, not Finance and Travel", page, meta["categories"])
	}
	delete(meta, "categories")
	delete(seedMeta, "categories")
	if gititNorm(body) != gititNorm(seedBody) || len(meta) != len(seedMeta) {
		return fmt.Sprintf("the page %s's text is %q now", page, got["file"][file])
	}
	if c := w.Changes(t, file)[0]; c.Author != w.User || c.Message != message {
		return fmt.Sprintf("the last change of %s is %s's, described %q", page, c.Author, c.Message)
	}
	got["file"][file] = w.Seed()["file"][file]
	return got.Diff(w.Seed())
}

// gititAddCategory opens page from the Front page and saves it with Travel added to its
// categories line.
func gititAddCategory(t testing.TB, b *testenv.GititBrowser, page string) {
	t.Helper()
	b.Open(t, "/")
	b.ClickText(t, page)
	text := gititSeedText(page)
	cats := strings.SplitN(strings.SplitN(text, "categories: ", 2)[1], "\n", 2)[0]
	b.EditHere(t, strings.Replace(text, "categories: "+cats, "categories: "+cats+", Travel", 1), "Add the Travel category")
}

// gititSearchAndRecode searches for "badge reader" with the search box on the left, opens
// page from the results and saves it with the new door code.
func gititSearchAndRecode(t testing.TB, b *testenv.GititBrowser, page string) {
	t.Helper()
	b.Open(t, "/")
	f := b.Form(t, `id="searchform"`)
	f.Fields.Set("patterns", "badge reader")
	b.Open(t, f.Action+"?"+f.Fields.Encode()+"&search=Search")
	b.ClickInItem(t, page, page)
	b.EditHere(t, strings.Replace(gititSeedText(page), "4711", "5820", 1), "New door code")
}

// gititRegistered says whether the users file holds the seed's accounts and user's, with
// the goal's email and password, and nothing else changed.
func gititRegistered(t testing.TB, w *testenv.Gitit, user string) string {
	got := w.State(t)
	row, ok := got["user"][user]
	if !ok {
		return "no account " + user
	}
	if !strings.HasPrefix(row, "email="+gititNewEmail+";") {
		return fmt.Sprintf("the account %s is %q, not with the email %s", user, row, gititNewEmail)
	}
	if !w.PasswordIs(t, user, gititNewPassword) {
		return user + "'s password is not " + gititNewPassword
	}
	delete(got["user"], user)
	return got.Diff(w.Seed())
}
