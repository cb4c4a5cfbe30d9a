//go:build heldout

package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// ikiwikiGoal is an everyday goal on ikiwiki, written three ways as a person writes it from
// what the pages show ({signin} and {url} are filled in per phrasing and instance); done
// reads the wiki's source files and says "" when the goal's effect is there (and nothing
// else it checks changed), else what it found; do makes the effect through ikiwiki's own
// CGI forms along the goal's path, and miss a near miss the judge must not take for it
// (what a run gone a little wrong leaves: another value, text appended to rather than
// replaced, a last button left unpressed).
type ikiwikiGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.IkiWiki) string
	do, miss  func(t testing.TB, w *testenv.IkiWiki, b *testenv.IkiWikiBrowser)
}

const (
	ikiwikiEditedNotes = "Agenda: budget, hiring and the summer party."
	ikiwikiLunchText   = "Lunch moves to Thursdays at one."
	ikiwikiSubject     = "Room"
	ikiwikiCommentText = "Can we meet in room 4?"
	ikiwikiPostTitle   = "Launch Day"
	ikiwikiPostText    = "We launch on Monday."
	ikiwikiEmail       = "editor@example.com"
)

var ikiwikiGoals = []ikiwikiGoal{
	{
		name: "edit a page",
		phrasings: [3]string{
			`click "Meeting Notes", click "Edit", {signin}, type "Agenda: budget, hiring and the summer party." into the text area, click "Save Page", then check that "Agenda: budget, hiring and the summer party." is visible`,
			`go to {url}/meeting_notes/ and press "Edit", {signin}, then fill the text area with "Agenda: budget, hiring and the summer party." and press "Save Page", check that "Agenda: budget, hiring and the summer party." is visible`,
			`Click "Meeting Notes" and then click the Edit link. {signin}. Write "Agenda: budget, hiring and the summer party." in the text area, click the "Save Page" button, then make sure "Agenda: budget, hiring and the summer party." is visible.`,
		},
		done: func(t testing.TB, w *testenv.IkiWiki) string {
			return ikiwikiPages(w, map[string]string{"meeting_notes": ikiwikiEditedNotes})
		},
		do: func(t testing.TB, w *testenv.IkiWiki, b *testenv.IkiWikiBrowser) {
			ikiwikiSave(t, b, "meeting_notes", ikiwikiEditedNotes, false)
		},
		miss: func(t testing.TB, w *testenv.IkiWiki, b *testenv.IkiWikiBrowser) {
			ikiwikiSave(t, b, "meeting_notes", "Agenda: budget and hiring. "+ikiwikiEditedNotes, false)
		},
	},
	{
		name: "preview an edit, then save it",
		phrasings: [3]string{
			`click "Team Lunch", click "Edit", {signin}, type "Lunch moves to Thursdays at one." into the text area, click "Preview", check that "Lunch moves to Thursdays at one." is visible, click "Save Page", then check that "Lunch moves to Thursdays at one." is visible`,
			`go to {url}/team_lunch/, press "Edit", {signin}, fill the text area with "Lunch moves to Thursdays at one.", press "Preview" and check that "Lunch moves to Thursdays at one." is visible, then press "Save Page"`,
			`Click "Team Lunch", then click the Edit link. {signin}. Clear the text area, then write "Lunch moves to Thursdays at one." in the text area. Click the Preview button, make sure "Lunch moves to Thursdays at one." is visible, and then click the "Save Page" button.`,
		},
		done: func(t testing.TB, w *testenv.IkiWiki) string {
			return ikiwikiPages(w, map[string]string{"team_lunch": ikiwikiLunchText})
		},
		do: func(t testing.TB, w *testenv.IkiWiki, b *testenv.IkiWikiBrowser) {
			ikiwikiSave(t, b, "team_lunch", ikiwikiLunchText, true)
		},
		miss: func(t testing.TB, w *testenv.IkiWiki, b *testenv.IkiWikiBrowser) {
			page := b.Open(t, "/ikiwiki.cgi?do=edit&page=team_lunch")
			ikiwikiPress(t, b, page, "Preview", url.Values{"editcontent": {ikiwikiLunchText}}, ikiwikiLunchText)
		},
	},
	{
		name: "comment on a page",
		phrasings: [3]string{
			`click "Meeting Notes", click "Comment", {signin}, type "Room" into "Subject", type "Can we meet in room 4?" into "Comment", click "Post comment", then check that "Can we meet in room 4?" is visible`,
			`go to {url}/meeting_notes/ and press "Comment", {signin}, fill "Subject" with Room, fill "Comment" with "Can we meet in room 4?" and press "Post comment", then verify that "Can we meet in room 4?" is visible`,
			`Click "Meeting Notes", then click the Comment link. {signin}. Type "Room" into the field labelled "Subject", write "Can we meet in room 4?" in the field labelled "Comment", click the "Post comment" button and make sure "Can we meet in room 4?" is visible.`,
		},
		done: ikiwikiCommented,
		do: func(t testing.TB, w *testenv.IkiWiki, b *testenv.IkiWikiBrowser) {
			ikiwikiComment(t, b, "meeting_notes", ikiwikiSubject, ikiwikiCommentText)
		},
		miss: func(t testing.TB, w *testenv.IkiWiki, b *testenv.IkiWikiBrowser) {
			ikiwikiComment(t, b, "team_lunch", ikiwikiSubject, ikiwikiCommentText)
		},
	},
	{
		name: "rename a page",
		phrasings: [3]string{
			`click "Team Lunch", click "Edit", {signin}, click "Rename", type "Team Outing" into "New Name", click "Rename", then check that "Team Outing" is visible`,
			`go to {url}/team_lunch/, press "Edit", {signin}, press "Rename", then fill "New Name" with "Team Outing" and press "Rename", and check that "Team Outing" is visible`,
			`Click "Team Lunch" and click the Edit link. {signin}. Click the Rename button, type Team Outing into the field labelled "New Name", then click the Rename button and make sure "Team Outing" is visible.`,
		},
		done: ikiwikiRenamed,
		do:   func(t testing.TB, w *testenv.IkiWiki, b *testenv.IkiWikiBrowser) { ikiwikiRename(t, b, "Team Outing") },
		miss: func(t testing.TB, w *testenv.IkiWiki, b *testenv.IkiWikiBrowser) { ikiwikiRename(t, b, "Team Outings") },
	},
	{
		name: "remove a page",
		phrasings: [3]string{
			`click "Old Draft", click "Edit", {signin}, click "Remove", then click "Remove"`,
			`go to {url}/old_draft/ and press "Edit", {signin}, press "Remove" and then press "Remove" on the confirmation page`,
			`Click "Old Draft", then click the Edit link. {signin}. Click the Remove button, and on the next page click the Remove button again.`,
		},
		done: ikiwikiRemoved,
		do: func(t testing.TB, w *testenv.IkiWiki, b *testenv.IkiWikiBrowser) {
			edit := b.Open(t, "/ikiwiki.cgi?do=edit&page=old_draft")
			confirm := ikiwikiPress(t, b, edit, "Remove", nil, `value="Remove"`)
			ikiwikiPress(t, b, confirm, "Remove", nil, "")
		},
		miss: func(t testing.TB, w *testenv.IkiWiki, b *testenv.IkiWikiBrowser) {
			edit := b.Open(t, "/ikiwiki.cgi?do=edit&page=old_draft")
			ikiwikiPress(t, b, edit, "Remove", nil, `value="Remove"`)
		},
	},
	{
		name: "add a news post",
		phrasings: [3]string{
			`click "News", type "Launch Day" into "Add a new post titled:", click the "Edit" button, {signin}, type "We launch on Monday." into the text area, click "Save Page", then check that "We launch on Monday." is visible`,
			`go to {url}/news/, fill the "Add a new post titled:" field with "Launch Day" and press the Edit button, {signin}, then fill the text area with "We launch on Monday." and press "Save Page", check that "We launch on Monday." is visible`,
			`Click News. Type Launch Day into the box labelled "Add a new post titled:" and click the Edit button. {signin}. Write "We launch on Monday." in the text area, click the "Save Page" button, then make sure "We launch on Monday." is visible.`,
		},
		done: ikiwikiPosted,
		do: func(t testing.TB, w *testenv.IkiWiki, b *testenv.IkiWikiBrowser) {
			ikiwikiPost(t, b, ikiwikiPostTitle, ikiwikiPostText)
		},
		miss: func(t testing.TB, w *testenv.IkiWiki, b *testenv.IkiWikiBrowser) {
			ikiwikiPost(t, b, "Launch", ikiwikiPostText)
		},
	},
	{
		name: "set the email in preferences",
		phrasings: [3]string{
			`click "Preferences", {signin}, type "editor@example.com" into "Email", click "Save Preferences", then check that "Preferences saved." is visible`,
			`go to {url}/ and press "Preferences", {signin}, then fill "Email" with "editor@example.com" and press "Save Preferences", verify that "Preferences saved." is visible`,
			`Click the Preferences link. {signin}. Type editor@example.com into the Email field, click the "Save Preferences" button and make sure "Preferences saved." is visible.`,
		},
		done: ikiwikiEmailSet,
		do:   func(t testing.TB, w *testenv.IkiWiki, b *testenv.IkiWikiBrowser) { ikiwikiPrefs(t, b, ikiwikiEmail) },
		miss: func(t testing.TB, w *testenv.IkiWiki, b *testenv.IkiWikiBrowser) {
			ikiwikiPrefs(t, b, "editor@example.org")
		},
	},
}

// ikiwikiPress presses a button of the page's form and wants an answer of 200 that
// holds want; it returns the page pressed to.
func ikiwikiPress(t testing.TB, b *testenv.IkiWikiBrowser, page, button string, fields url.Values, want string) string {
	t.Helper()
	status, body := b.Press(t, page, button, fields)
	if status != http.StatusOK || !strings.Contains(body, want) {
		t.Fatalf("pressing %q answered %d without %q:\n%s", button, status, want, body)
	}
	return body
}

// ikiwikiSave edits a page as the Edit link's form does, previewing first if asked.
func ikiwikiSave(t testing.TB, b *testenv.IkiWikiBrowser, page, text string, preview bool) {
	t.Helper()
	form := b.Open(t, "/ikiwiki.cgi?do=edit&page="+page)
	fields := url.Values{"editcontent": {text}}
	if preview {
		form = ikiwikiPress(t, b, form, "Preview", fields, text)
	}
	ikiwikiPress(t, b, form, "Save Page", fields, text)
}

func ikiwikiComment(t testing.TB, b *testenv.IkiWikiBrowser, page, subject, text string) {
	t.Helper()
	form := b.Open(t, "/ikiwiki.cgi?do=comment&page="+page)
	ikiwikiPress(t, b, form, "Post comment", url.Values{"subject": {subject}, "editcontent": {text}}, text)
}

func ikiwikiRename(t testing.TB, b *testenv.IkiWikiBrowser, to string) {
	t.Helper()
	edit := b.Open(t, "/ikiwiki.cgi?do=edit&page=team_lunch")
	form := ikiwikiPress(t, b, edit, "Rename", nil, "New Name")
	ikiwikiPress(t, b, form, "Rename", url.Values{"new_name": {to}}, to)
}

// ikiwikiPost fills the news page's "Add a new post titled:" box and presses its Edit
// button (a GET form), then saves the new page.
func ikiwikiPost(t testing.TB, b *testenv.IkiWikiBrowser, title, text string) {
	t.Helper()
	form := b.Open(t, "/ikiwiki.cgi?"+url.Values{"do": {"blog"}, "from": {"news"}, "subpage": {"1"}, "title": {title}}.Encode())
	ikiwikiPress(t, b, form, "Save Page", url.Values{"editcontent": {text}}, text)
}

func ikiwikiPrefs(t testing.TB, b *testenv.IkiWikiBrowser, email string) {
	t.Helper()
	form := b.Open(t, "/ikiwiki.cgi?do=prefs")
	ikiwikiPress(t, b, form, "Save Preferences", url.Values{"email": {email}}, "Preferences saved.")
}

// ikiwikiSeedWith is the seed's pages with some changed: name → text, "" for a page gone,
// "*" for a page whose text is not checked.
func ikiwikiSeedWith(changes map[string]string) map[string]string {
	want := map[string]string{}
	for name, text := range testenv.IkiWikiSeed {
		want[name] = text
	}
	for name, text := range changes {
		if text == "" {
			delete(want, name)
		} else {
			want[name] = text
		}
	}
	return want
}

// ikiwikiPages says whether the wiki's source pages are the seed's with these changes
// (see ikiwikiSeedWith), each changed page rendered with its new text, and no comment.
func ikiwikiPages(w *testenv.IkiWiki, changes map[string]string) string {
	return ikiwikiExactly(w, ikiwikiSeedWith(changes), changes, "")
}

// ikiwikiExactly says whether the wiki's pages are exactly want, each page of changed
// rendered (or, for "", its rendering gone), and no comment but on commentPage.
func ikiwikiExactly(w *testenv.IkiWiki, want, changed map[string]string, commentPage string) string {
	pages := w.Pages()
	if len(pages) != len(want) {
		return fmt.Sprintf("the wiki's pages are %q", pages)
	}
	for _, name := range pages {
		text, ok := want[name]
		got, _ := w.Page(name)
		switch {
		case !ok:
			return fmt.Sprintf("the wiki's pages are %q", pages)
		case text != "*" && strings.TrimSpace(got) != strings.TrimSpace(text):
			return fmt.Sprintf("page %q holds %q", name, got)
		}
		if name != commentPage && len(w.Comments(name)) > 0 {
			return fmt.Sprintf("page %q has comments %+v", name, w.Comments(name))
		}
	}
	for name, text := range changed {
		html, ok := w.Rendered(name)
		switch {
		case text == "" && ok:
			return fmt.Sprintf("page %q is still rendered", name)
		case text != "" && text != "*" && !strings.Contains(html, text):
			return fmt.Sprintf("page %q is not rendered with its new text", name)
		}
	}
	if p := w.PendingComments(); len(p) > 0 {
		return fmt.Sprintf("comments wait for moderation: %q", p)
	}
	return ""
}

func ikiwikiCommented(t testing.TB, w *testenv.IkiWiki) string {
	cs := w.Comments("meeting_notes")
	if len(cs) != 1 || cs[0].Username != testenv.IkiWikiUser || cs[0].Subject != ikiwikiSubject || strings.TrimSpace(cs[0].Content) != ikiwikiCommentText {
		return fmt.Sprintf("the comments on meeting_notes are %+v", cs)
	}
	if html, _ := w.Rendered("meeting_notes"); !strings.Contains(html, ikiwikiCommentText) {
		return "meeting_notes is not rendered with the comment"
	}
	return ikiwikiExactly(w, ikiwikiSeedWith(nil), nil, "meeting_notes")
}

// ikiwikiNewPage is the one page not in the seed, and whether there is exactly one.
func ikiwikiNewPage(w *testenv.IkiWiki) (string, bool) {
	var found []string
	for _, p := range w.Pages() {
		if _, ok := testenv.IkiWikiSeed[p]; !ok {
			found = append(found, p)
		}
	}
	if len(found) != 1 {
		return "", false
	}
	return found[0], true
}

func ikiwikiRenamed(t testing.TB, w *testenv.IkiWiki) string {
	p, ok := ikiwikiNewPage(w)
	if !ok || !strings.EqualFold(p, "team_outing") {
		return fmt.Sprintf("no one page team_outing: the wiki's pages are %q", w.Pages())
	}
	if index, _ := w.Page("index"); !strings.Contains(index, "|"+p+"]]") {
		return fmt.Sprintf("the front page's link was not changed: %q", index)
	}
	return ikiwikiExactly(w, ikiwikiSeedWith(map[string]string{"team_lunch": "", "index": "*", p: testenv.IkiWikiSeed["team_lunch"]}),
		map[string]string{"team_lunch": "", p: "*"}, "")
}

func ikiwikiRemoved(t testing.TB, w *testenv.IkiWiki) string {
	return ikiwikiPages(w, map[string]string{"old_draft": ""})
}

func ikiwikiPosted(t testing.TB, w *testenv.IkiWiki) string {
	p, ok := ikiwikiNewPage(w)
	if !ok || !strings.EqualFold(p, "news/launch_day") {
		return fmt.Sprintf("no one page news/launch_day: the wiki's pages are %q", w.Pages())
	}
	if news, _ := w.Rendered("news"); !strings.Contains(news, ikiwikiPostText) {
		return "the news page does not show the post"
	}
	return ikiwikiExactly(w, ikiwikiSeedWith(map[string]string{p: ikiwikiPostText}), map[string]string{p: ikiwikiPostText}, "")
}

func ikiwikiEmailSet(t testing.TB, w *testenv.IkiWiki) string {
	users := w.Users(t)
	u, ok := users[testenv.IkiWikiUser]
	switch {
	case len(users) != 1 || !ok:
		return fmt.Sprintf("the users are %+v", users)
	case u.Email != ikiwikiEmail:
		return fmt.Sprintf("%s's email is %q", testenv.IkiWikiUser, u.Email)
	case u.Password != "" && u.Password != testenv.IkiWikiPassword:
		return fmt.Sprintf("%s's password changed", testenv.IkiWikiUser)
	}
	return ikiwikiPages(w, nil)
}
