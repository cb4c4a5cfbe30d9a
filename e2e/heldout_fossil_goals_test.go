//go:build heldout

package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// fossilGoal is an everyday goal on Fossil, written three ways as a person writes it from
// what the pages show ({signin} and {url} are filled in per phrasing and instance); done
// reads the repository and says "" when the goal's effect is there (and nothing else it
// checks changed), else what it found; do makes the effect through Fossil's own forms,
// and miss a near miss the judge must not take for it (what a run gone a little wrong
// leaves: another value, a field appended to rather than replaced, a step left out).
type fossilGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, f *testenv.Fossil) string
	do, miss  func(t testing.TB, f *testenv.Fossil, b *testenv.FossilBrowser)
}

const (
	fossilNewPageText  = "Ship version 2 in May."
	fossilEditedText   = "Agenda: budget, hiring and the summer party."
	fossilNewTicket    = "Crash when saving a file"
	fossilTicketText   = "The editor closes when I press Save."
	fossilCloseRemark  = "Fixed by caching the session."
	fossilNoteComment  = "Version 2 released"
	fossilNoteText     = "Release notes are on the wiki."
	fossilThreadTitle  = "Welcome to the team"
	fossilThreadText   = "Say hello here."
	fossilNewUser      = "alice"
	fossilNewUserPass  = "alice-pass-2"
	fossilUsersAfter   = "admin alice anonymous developer nobody reader" // sorted
	fossilSeedTicketsN = 2
)

var fossilGoals = []fossilGoal{
	{
		name: "create a wiki page",
		phrasings: [3]string{
			`{signin}, click "Wiki", click "new wiki page", type "Release Plan" into "Name of new wiki page", click "Create", type "Ship version 2 in May." into the text area, click "Save & Close", then check that "Ship version 2 in May." is visible`,
			`{signin}, then go to {url}/wikinew, enter "Release Plan" in "Name of new wiki page" and press "Create", then type "Ship version 2 in May." into the text area and press "Save & Close", and check that "Ship version 2 in May." is visible`,
			`{signin}. Click Wiki, then click the "new wiki page" link. Type "Release Plan" into the field labelled "Name of new wiki page" and click the Create button. Write "Ship version 2 in May." in the text area, click the "Save & Close" button, then make sure "Ship version 2 in May." is visible.`,
		},
		done: func(t testing.TB, f *testenv.Fossil) string {
			return fossilWiki(t, f, map[string]string{"Release Plan": fossilNewPageText, testenv.FossilSeedPage: testenv.FossilSeedPageText})
		},
		do: func(t testing.TB, f *testenv.Fossil, b *testenv.FossilBrowser) {
			fossilSaveWiki(t, b, "Release Plan", fossilNewPageText, true)
		},
		miss: func(t testing.TB, f *testenv.Fossil, b *testenv.FossilBrowser) {
			fossilSaveWiki(t, b, "Release plan", fossilNewPageText, true)
		},
	},
	{
		name: "edit a wiki page",
		phrasings: [3]string{
			`{signin}, go to {url}/wiki?name=Meeting+Notes, click "Edit", type "Agenda: budget, hiring and the summer party." into the text area, click "Save & Close", then check that "Agenda: budget, hiring and the summer party." is visible`,
			`{signin}, click "Wiki", click "List of All Wiki Pages", click "Meeting Notes", click "Edit", then fill the text area with "Agenda: budget, hiring and the summer party." and press "Save & Close", check that "Agenda: budget, hiring and the summer party." is visible`,
			`{signin}; open {url}/wiki?name=Meeting+Notes and press the Edit button. Write "Agenda: budget, hiring and the summer party." into the text area, then click "Save & Close" and verify that "Agenda: budget, hiring and the summer party." is visible`,
		},
		done: func(t testing.TB, f *testenv.Fossil) string {
			return fossilWiki(t, f, map[string]string{testenv.FossilSeedPage: fossilEditedText})
		},
		do: func(t testing.TB, f *testenv.Fossil, b *testenv.FossilBrowser) {
			fossilSaveWiki(t, b, testenv.FossilSeedPage, fossilEditedText, false)
		},
		miss: func(t testing.TB, f *testenv.Fossil, b *testenv.FossilBrowser) {
			fossilSaveWiki(t, b, testenv.FossilSeedPage, testenv.FossilSeedPageText+fossilEditedText, false)
		},
	},
	{
		name: "file a new ticket",
		phrasings: [3]string{
			`{signin}, click "Tickets", click "New ticket", type "Crash when saving a file" into "Enter a one-line summary of the ticket", select "Code_Defect" from "Type", select "Severe" from "Severity", type "The editor closes when I press Save." into the text area, click "Preview", click "Submit", then check that "Crash when saving a file" is visible`,
			`{signin}, then go to {url}/tktnew, fill "Enter a one-line summary of the ticket" with "Crash when saving a file", choose "Code_Defect" in "Type", choose "Severe" in "Severity", enter "The editor closes when I press Save." in the text area, press "Preview", press "Submit" and check that "Crash when saving a file" is visible`,
			`{signin}. Click Tickets and then click "New ticket". Type "Crash when saving a file" into the field labelled "Enter a one-line summary of the ticket", pick "Code_Defect" from the "Type" list, pick "Severe" from the "Severity" list, write "The editor closes when I press Save." in the text area. Press the "Preview" button, then press the "Submit" button, and make sure "Crash when saving a file" is visible.`,
		},
		done: fossilTicketFiled,
		do: func(t testing.TB, f *testenv.Fossil, b *testenv.FossilBrowser) {
			fossilSubmit(t, b, "/tktnew", "/tktnew", url.Values{"title": {fossilNewTicket}, "type": {"Code_Defect"}, "severity": {"Severe"},
				"foundin": {""}, "private_contact": {""}, "mutype": {"Markdown"}, "icomment": {fossilTicketText}, "submit": {"Submit"}})
		},
		miss: func(t testing.TB, f *testenv.Fossil, b *testenv.FossilBrowser) {
			fossilSubmit(t, b, "/tktnew", "/tktnew", url.Values{"title": {fossilNewTicket}, "type": {"Code_Defect"}, "severity": {"Critical"},
				"mutype": {"Markdown"}, "icomment": {fossilTicketText}, "submit": {"Submit"}})
		},
	},
	{
		name: "close a ticket with a remark",
		phrasings: [3]string{
			`{signin}, click "Tickets", click "All Tickets", click the "edit" link in the row "Login page is slow", select "Closed" from "Status", select "Fixed" from "Resolution", type "Fixed by caching the session." into the text area, click "Preview", click "Submit", then check that "Closed" is visible`,
			`{signin}, go to {url}/rptview/1 and click "edit" in the row "Login page is slow"; choose "Closed" in "Status", choose "Fixed" in "Resolution", enter "Fixed by caching the session." in the text area, press "Preview", press "Submit", and check that "Fixed by caching the session." is visible`,
			`{signin}. Open "Tickets", then click "All Tickets". Click the edit link in the row for "Login page is slow", pick Closed from the "Status" list, pick Fixed from the "Resolution" list, write "Fixed by caching the session." into the text area, then press the Preview button and the Submit button. Verify that "Closed" is visible.`,
		},
		done: fossilTicketClosed,
		do: func(t testing.TB, f *testenv.Fossil, b *testenv.FossilBrowser) {
			tk, _ := f.Ticket(t, testenv.FossilSlowTicket)
			// The form's lists with no value saved show their first option, which the
			// browser posts.
			fossilSubmit(t, b, "/tktedit/"+tk.UUID, "/tktedit", url.Values{"title": {tk.Title}, "status": {"Closed"}, "type": {tk.Type},
				"severity": {tk.Severity}, "priority": {"Immediate"}, "resolution": {"Fixed"}, "subsystem": {""}, "private_contact": {""},
				"foundin": {""}, "mutype": {"Markdown"}, "username": {""}, "icomment": {fossilCloseRemark}, "submit": {"Submit"}})
		},
		miss: func(t testing.TB, f *testenv.Fossil, b *testenv.FossilBrowser) {
			tk, _ := f.Ticket(t, testenv.FossilSlowTicket)
			fossilSubmit(t, b, "/tktedit/"+tk.UUID, "/tktedit", url.Values{"title": {tk.Title}, "status": {"Closed"}, "type": {tk.Type},
				"severity": {tk.Severity}, "resolution": {"Fixed"}, "mutype": {"Markdown"}, "icomment": {""}, "submit": {"Submit"}})
		},
	},
	{
		name: "add a technote",
		phrasings: [3]string{
			`{signin}, click "Wiki", click "new tech-note", type "Version 2 released" into "Timeline Comment", type "Release notes are on the wiki." into "Page Content", click "Preview", click "Submit", then check that "Release notes are on the wiki." is visible`,
			`{signin}, then go to {url}/technoteedit, fill "Timeline Comment" with "Version 2 released", fill "Page Content" with "Release notes are on the wiki.", press "Preview" and press "Submit", then verify that "Release notes are on the wiki." is visible`,
			`{signin}. Click Wiki, then click the "new tech-note" link. Type "Version 2 released" into the field labelled "Timeline Comment", type "Release notes are on the wiki." into the field labelled "Page Content", click the Preview button, click the Submit button and make sure "Release notes are on the wiki." is visible.`,
		},
		done: fossilTechnoteAdded,
		do: func(t testing.TB, f *testenv.Fossil, b *testenv.FossilBrowser) {
			fossilSubmit(t, b, "/technoteedit", "/technoteedit", url.Values{"t": {time.Now().UTC().Format("2006-01-02 15:04:05")}, "c": {fossilNoteComment},
				"g": {""}, "mimetype": {"text/x-markdown"}, "w": {fossilNoteText}, "submit": {"Submit"}})
		},
		miss: func(t testing.TB, f *testenv.Fossil, b *testenv.FossilBrowser) {
			fossilSubmit(t, b, "/technoteedit", "/technoteedit", url.Values{"t": {time.Now().UTC().Format("2006-01-02 15:04:05")}, "c": {fossilNoteComment},
				"mimetype": {"text/x-markdown"}, "w": {"Insert new content here..." + fossilNoteText}, "submit": {"Submit"}})
		},
	},
	{
		name: "add a user",
		phrasings: [3]string{
			`{signin}, click "Admin", click "Users", click "Add", type "alice" into "Login", type "alice-pass-2" into "Password", check "Developer", click "Apply Changes", then check that "alice" is visible`,
			`{signin}, go to {url}/setup_ulist, press "Add", fill "Login" with "alice", fill "Password" with "alice-pass-2", tick "Developer" and press "Apply Changes", check that "alice" is visible`,
			`{signin}. Click "Admin", then click "Users" and click the "Add" link. Type alice into the "Login" field, type "alice-pass-2" into the "Password" field, tick the "Developer" checkbox, click the "Apply Changes" button and make sure "alice" is visible.`,
		},
		done: fossilUserAdded,
		do: func(t testing.TB, f *testenv.Fossil, b *testenv.FossilBrowser) {
			fossilSubmit(t, b, "/setup_uedit", "/setup_uedit", url.Values{"id": {"0"}, "login": {fossilNewUser}, "info": {""},
				"av": {"on"}, "pw": {fossilNewUserPass}, "apply": {"Apply Changes"}})
		},
		miss: func(t testing.TB, f *testenv.Fossil, b *testenv.FossilBrowser) {
			fossilSubmit(t, b, "/setup_uedit", "/setup_uedit", url.Values{"id": {"0"}, "login": {fossilNewUser},
				"au": {"on"}, "pw": {fossilNewUserPass}, "apply": {"Apply Changes"}})
		},
	},
	{
		name: "start a forum thread",
		phrasings: [3]string{
			`{signin}, click "Forum", click "New Thread", type "Welcome to the team" into "Title", type "Say hello here." into the text area, click "Preview", click "Submit", then check that "Say hello here." is visible`,
			`{signin}, go to {url}/forumnew, fill "Title" with "Welcome to the team", fill the text area with "Say hello here.", press "Preview", press "Submit", and verify that "Welcome to the team" is visible`,
			`{signin}. Click Forum, then click the "New Thread" link. Type "Welcome to the team" into the Title field, write "Say hello here." in the text area, click the Preview button, then click the Submit button and make sure "Say hello here." is visible.`,
		},
		done: fossilThreadStarted,
		do: func(t testing.TB, f *testenv.Fossil, b *testenv.FossilBrowser) {
			// The new-thread page's form posts to /forume1 and carries no hidden field.
			status, _, _ := b.Post(t, "/forume1", url.Values{"title": {fossilThreadTitle}, "mimetype": {"text/x-markdown"},
				"content": {fossilThreadText}, "submit": {"Submit"}})
			if status != http.StatusFound {
				t.Fatalf("posting the thread answered %d", status)
			}
		},
		miss: func(t testing.TB, f *testenv.Fossil, b *testenv.FossilBrowser) {
			if status, _, _ := b.Post(t, "/forume1", url.Values{"title": {fossilThreadTitle}, "mimetype": {"text/x-markdown"},
				"content": {fossilThreadText}, "preview": {"Preview"}}); status != http.StatusOK {
				t.Fatalf("previewing the thread answered %d", status)
			}
		},
	},
}

// fossilSubmit posts the form on page to action and wants the redirect a saved form gets.
func fossilSubmit(t testing.TB, b *testenv.FossilBrowser, page, action string, fields url.Values) {
	t.Helper()
	if status, loc := b.Submit(t, page, action, fields); status != http.StatusFound {
		t.Fatalf("posting %s answered %d (to %q)", action, status, loc)
	}
}

// fossilSaveWiki saves a page as the wiki editor's Save button does.
func fossilSaveWiki(t testing.TB, b *testenv.FossilBrowser, page, text string, isNew bool) {
	t.Helper()
	isnew := "0"
	if isNew {
		isnew = "1"
	}
	if status, body := b.PostMultipart(t, "/wikiajax/save", map[string]string{"page": page, "mimetype": "text/x-markdown", "isnew": isnew, "content": text}); status != http.StatusOK {
		t.Fatalf("saving the wiki page answered %d: %s", status, body)
	}
}

// fossilWiki says whether the wiki's pages are exactly want (name → text).
func fossilWiki(t testing.TB, f *testenv.Fossil, want map[string]string) string {
	pages := f.WikiPages(t)
	for name, text := range want {
		got, ok := f.WikiPage(t, name)
		if !ok {
			return fmt.Sprintf("no page %q (pages %q)", name, pages)
		}
		if strings.TrimSpace(got) != text {
			return fmt.Sprintf("page %q holds %q", name, strings.TrimSpace(got))
		}
	}
	if len(pages) != len(want) {
		return fmt.Sprintf("the wiki has pages %q", pages)
	}
	return ""
}

// fossilSeedTicketsOpen says whether the seeded tickets other than except are as seeded.
func fossilSeedTicketsOpen(t testing.TB, f *testenv.Fossil, except string) string {
	for _, title := range []string{testenv.FossilSlowTicket, testenv.FossilTypoTicket} {
		if title == except {
			continue
		}
		if tk, ok := f.Ticket(t, title); !ok || tk.Status != "Open" || len(tk.Comments) != 0 {
			return fmt.Sprintf("the ticket %q changed: %+v", title, tk)
		}
	}
	return ""
}

func fossilTicketFiled(t testing.TB, f *testenv.Fossil) string {
	tk, ok := f.Ticket(t, fossilNewTicket)
	switch {
	case !ok:
		return fmt.Sprintf("no one ticket %q (tickets %+v)", fossilNewTicket, f.Tickets(t))
	case tk.Type != "Code_Defect" || tk.Severity != "Severe" || tk.Status != "Open":
		return fmt.Sprintf("the ticket is %+v", tk)
	case len(tk.Comments) != 1 || strings.TrimSpace(tk.Comments[0]) != fossilTicketText:
		return fmt.Sprintf("the ticket's description is %q", tk.Comments)
	case len(f.Tickets(t)) != fossilSeedTicketsN+1:
		return fmt.Sprintf("%d tickets", len(f.Tickets(t)))
	}
	return fossilSeedTicketsOpen(t, f, "")
}

func fossilTicketClosed(t testing.TB, f *testenv.Fossil) string {
	tk, ok := f.Ticket(t, testenv.FossilSlowTicket)
	switch {
	case !ok:
		return fmt.Sprintf("no one ticket %q (tickets %+v)", testenv.FossilSlowTicket, f.Tickets(t))
	case tk.Status != "Closed" || tk.Resolution != "Fixed":
		return fmt.Sprintf("the ticket is %s, resolution %q", tk.Status, tk.Resolution)
	case tk.Type != "Code_Defect" || tk.Severity != "Important":
		return fmt.Sprintf("the ticket's type or severity changed: %+v", tk)
	case len(tk.Comments) != 1 || strings.TrimSpace(tk.Comments[0]) != fossilCloseRemark:
		return fmt.Sprintf("the ticket's remarks are %q", tk.Comments)
	case len(f.Tickets(t)) != fossilSeedTicketsN:
		return fmt.Sprintf("%d tickets", len(f.Tickets(t)))
	}
	return fossilSeedTicketsOpen(t, f, testenv.FossilSlowTicket)
}

func fossilTechnoteAdded(t testing.TB, f *testenv.Fossil) string {
	notes := f.Technotes(t)
	if len(notes) != 1 || notes[0].Comment != fossilNoteComment || strings.TrimSpace(notes[0].Text) != fossilNoteText {
		return fmt.Sprintf("technotes %+v", notes)
	}
	return ""
}

func fossilUserAdded(t testing.TB, f *testenv.Fossil) string {
	users := f.Users(t)
	var logins []string
	for l := range users {
		logins = append(logins, l)
	}
	slices.Sort(logins)
	switch {
	case users[fossilNewUser] != "v":
		return fmt.Sprintf("users %v", users)
	case !f.PasswordIs(t, fossilNewUser, fossilNewUserPass):
		return fmt.Sprintf("%s's password is not %q", fossilNewUser, fossilNewUserPass)
	case strings.Join(logins, " ") != fossilUsersAfter:
		return fmt.Sprintf("users %v", logins)
	case users["admin"] != "s":
		return fmt.Sprintf("admin's capabilities are %q", users["admin"])
	}
	return ""
}

func fossilThreadStarted(t testing.TB, f *testenv.Fossil) string {
	posts := f.ForumPosts(t)
	if len(posts) != 1 || !posts[0].Thread || posts[0].Title != fossilThreadTitle || strings.TrimSpace(posts[0].Text) != fossilThreadText || posts[0].User != "admin" {
		return fmt.Sprintf("forum posts %+v", posts)
	}
	return ""
}
