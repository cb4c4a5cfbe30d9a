//go:build heldout

package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// sympaGoal is one everyday goal of a list owner or listmaster on WWSympa: its phrasings
// (each with {signin} where signing in goes), its judge (done: "" when Sympa's storage
// holds exactly the goal's effect, else what it found), its effect made through the pages
// (do) and a near miss of it (miss), both for the judge's own test.
type sympaGoal struct {
	name      string
	phrasings [3]string
	done      func(t *testing.T, w *testenv.Sympa) string
	do, miss  func(t *testing.T, b *testenv.SympaBrowser)
}

// sympaExpect is the seed with change applied: what a judge wants the storage to be.
func sympaExpect(w *testenv.Sympa, change func(s testenv.SympaState)) testenv.SympaState {
	s := w.Seed()
	change(s)
	return s
}

// sympaNewList is what a list made from "Create list" holds: its config, status,
// description and the listmaster as its owner; anything else of its config is taken as it
// comes, but the parameters its template sets (checked against tmpl, a seed list made from
// the same template) and those the form sets.
func sympaNewList(s, seed testenv.SympaState, name, tmpl, subject, topic, info string) {
	config := map[string]string{"*": "", "subject": subject, "topics": topic, "status": "open"}
	for _, k := range []string{"send", "visibility", "subscribe", "unsubscribe", "review", "archive"} {
		config[k] = seed["config/"+tmpl][k]
	}
	s["config/"+name] = config
	s["status"][name] = "open"
	s["info"][name] = info
	s["admin"][name+">owner>"+testenv.SympaListmaster] = "*"
}

// sympaGone drops a list's members, owners and moderators from s (a closed list's go with
// it).
func sympaGone(s testenv.SympaState, list string) {
	for _, kind := range []string{"member", "admin"} {
		for k := range s[kind] {
			if strings.HasPrefix(k, list+">") {
				delete(s[kind], k)
			}
		}
	}
}

var sympaGoals = []sympaGoal{
	{
		name: "create a list from a template",
		phrasings: [3]string{
			`{signin}, click "Create list", type "book-club" into "List name", choose "Public discussion mailing list" as the "List type", type "Monthly book club" into "Subject", select "Leisure and Sports" in "Audience", type "One novel a month, discussed on the last Friday." into "Description", click "Submit your creation request"`,
			`{signin} and then open Create list. Name the list book-club, pick the Public discussion mailing list type, put "Monthly book club" as the Subject, choose Leisure and Sports for the Audience and write "One novel a month, discussed on the last Friday." in the Description box, then press Submit your creation request.`,
			`{signin} Then create a new list: click Create list, enter book-club in the field labelled List name, select the list type "Public discussion mailing list", subject "Monthly book club", audience Leisure and Sports, description "One novel a month, discussed on the last Friday." and hit "Submit your creation request".`,
		},
		done: func(t *testing.T, w *testenv.Sympa) string {
			return w.Differs(t, sympaExpect(w, func(s testenv.SympaState) {
				sympaNewList(s, w.Seed(), "book-club", "hiking-club", "Monthly book club", "leisure", "One novel a month, discussed on the last Friday.")
			}))
		},
		do: func(t *testing.T, b *testenv.SympaBrowser) {
			b.CreateList(t, "book-club", "discussion_list", "Monthly book club", "leisure", "One novel a month, discussed on the last Friday.")
		},
		miss: func(t *testing.T, b *testenv.SympaBrowser) {
			// The same list, but from the news letter's template.
			b.CreateList(t, "book-club", "news-letter", "Monthly book club", "leisure", "One novel a month, discussed on the last Friday.")
		},
	},
	{
		name: "add a member to a list",
		phrasings: [3]string{
			`{signin}, click "My lists", click "hiking-club", click "Admin", click "Subscribers", type "carla.mendes@example.org" into "Email address", click "Add", click "Confirm"`,
			`{signin}, go to My lists and open hiking-club (not hiking-board). In its Admin menu choose Subscribers, put carla.mendes@example.org in the Email address field, press Add and then Confirm.`,
			`{signin} Then subscribe carla.mendes@example.org to the hiking-club list: My lists, hiking-club, Admin, Subscribers, type her address in "Email address", click the Add button and confirm.`,
		},
		done: func(t *testing.T, w *testenv.Sympa) string {
			return w.Differs(t, sympaExpect(w, func(s testenv.SympaState) { s["member"]["hiking-club>carla.mendes@example.org"] = "*" }))
		},
		do: func(t *testing.T, b *testenv.SympaBrowser) { b.AddMember(t, "hiking-club", "carla.mendes@example.org") },
		miss: func(t *testing.T, b *testenv.SympaBrowser) {
			b.AddMember(t, "hiking-board", "carla.mendes@example.org")
		},
	},
	{
		name: "remove a member from a list",
		phrasings: [3]string{
			`{signin}, click "My lists", click "choir", click "Admin", click "Subscribers", tick the box in the row of "tom.fischer@example.org", click "Delete selected email addresses", click "Confirm"`,
			`{signin}. Open My lists, then the choir list, then Admin > Subscribers; check the box next to tom.fischer@example.org (careful, not tom.fisher@example.org) and press Delete selected email addresses, then Confirm.`,
			`{signin} and remove tom.fischer@example.org from the choir list: go to My lists, choir, Admin, Subscribers, select tom.fischer@example.org in the list of members, then hit "Delete selected email addresses" and confirm it.`,
		},
		done: func(t *testing.T, w *testenv.Sympa) string {
			return w.Differs(t, sympaExpect(w, func(s testenv.SympaState) { delete(s["member"], "choir>tom.fischer@example.org") }))
		},
		do: func(t *testing.T, b *testenv.SympaBrowser) { b.DeleteMembers(t, "choir", "tom.fischer@example.org") },
		miss: func(t *testing.T, b *testenv.SympaBrowser) {
			b.DeleteMembers(t, "choir", "tom.fisher@example.org")
		},
	},
	{
		name: "change a list's subject",
		phrasings: [3]string{
			`{signin}, click "My lists", click "choir-news", click "Admin", click "List definition", replace the text of "Subject of the list" with "Choir news and concert dates", click "Apply modifications"`,
			`{signin}, then go to My lists, choir-news, Admin and open List definition under Edit List Config. Change the Subject of the list to "Choir news and concert dates" and click Apply modifications.`,
			`{signin} In the choir-news list (not choir), open Admin, then "List definition", set the field labelled Subject of the list to Choir news and concert dates and press "Apply modifications".`,
		},
		done: func(t *testing.T, w *testenv.Sympa) string {
			return w.Differs(t, sympaExpect(w, func(s testenv.SympaState) { s["config/choir-news"]["subject"] = "Choir news and concert dates" }))
		},
		do: func(t *testing.T, b *testenv.SympaBrowser) {
			b.EditList(t, "choir-news", "description", map[string]string{"single_param.subject": "Choir news and concert dates"})
		},
		miss: func(t *testing.T, b *testenv.SympaBrowser) {
			b.EditList(t, "choir", "description", map[string]string{"single_param.subject": "Choir news and concert dates"})
		},
	},
	{
		name: "require the owners' approval to subscribe",
		phrasings: [3]string{
			`{signin}, click "My lists", click "hiking-club", click "Admin", click "Privileges", select "owners approval (owner)" in "Who can subscribe to the list", click "Apply modifications"`,
			`{signin}. Then in My lists open hiking-club, go to Admin and Privileges, set "Who can subscribe to the list" to owners approval (owner) and hit Apply modifications.`,
			`{signin} After that make subscriptions to hiking-club need the owners' approval: My lists, hiking-club, Admin, Privileges, choose "owners approval (owner)" under Who can subscribe to the list, then click Apply modifications.`,
		},
		done: func(t *testing.T, w *testenv.Sympa) string {
			return w.Differs(t, sympaExpect(w, func(s testenv.SympaState) { s["config/hiking-club"]["subscribe"] = "owner" }))
		},
		do: func(t *testing.T, b *testenv.SympaBrowser) {
			b.EditList(t, "hiking-club", "command", map[string]string{"single_param.subscribe.name": "owner"})
		},
		miss: func(t *testing.T, b *testenv.SympaBrowser) {
			// The option beside it: authentication, then the owners' approval.
			b.EditList(t, "hiking-club", "command", map[string]string{"single_param.subscribe.name": "auth_owner"})
		},
	},
	{
		name: "add a moderator to a list",
		phrasings: [3]string{
			`{signin}, click "My lists", click "choir", click "Admin", click "Moderators", type "lena.wolf@example.org" into "email address" under "Add moderators", type "Lena Wolf" into "name", click "Apply modifications"`,
			`{signin}, open My lists, choir, then Admin and Moderators. Under Add moderators put lena.wolf@example.org as the email address and Lena Wolf as the name, and press Apply modifications.`,
			`{signin} Then make Lena Wolf (lena.wolf@example.org) a moderator of the choir list: in its Admin menu click Moderators, fill in her email address and name in the Add moderators row and hit "Apply modifications".`,
		},
		done: func(t *testing.T, w *testenv.Sympa) string {
			return w.Differs(t, sympaExpect(w, func(s testenv.SympaState) { s["admin"]["choir>editor>lena.wolf@example.org"] = "*" }))
		},
		do: func(t *testing.T, b *testenv.SympaBrowser) {
			b.AddAdmin(t, "choir", "editor", "lena.wolf@example.org", "Lena Wolf")
		},
		miss: func(t *testing.T, b *testenv.SympaBrowser) {
			// An owner, not a moderator.
			b.AddAdmin(t, "choir", "owner", "lena.wolf@example.org", "Lena Wolf")
		},
	},
	{
		name: "search lists and close the match",
		phrasings: [3]string{
			`{signin}, click "Search for List(s)", type "garden" into "Enter a list name", click "Search lists", click the list whose subject is "Allotment garden volunteers", click "Admin", click "Remove List", click "Confirm"`,
			`{signin}. Search for lists with "garden" (Search for List(s), then Search lists), open the one described as Allotment garden volunteers, and in its Admin page press Remove List and then Confirm.`,
			`{signin} Then close the allotment garden list: use Search for List(s) with garden, pick the result "Allotment garden volunteers" (not the garden club chat), go to Admin, hit Remove List and confirm.`,
		},
		done: func(t *testing.T, w *testenv.Sympa) string {
			return w.Differs(t, sympaExpect(w, func(s testenv.SympaState) {
				s["status"]["garden-volunteers"] = "closed"
				s["config/garden-volunteers"]["status"] = "closed"
				sympaGone(s, "garden-volunteers")
			}))
		},
		do: func(t *testing.T, b *testenv.SympaBrowser) { sympaSearchAndClose(t, b, "Allotment garden volunteers") },
		miss: func(t *testing.T, b *testenv.SympaBrowser) {
			sympaSearchAndClose(t, b, "Garden club chat")
		},
	},
}

// sympaSearchAndClose searches the lists for "garden", takes the one shown with subject
// and closes it.
func sympaSearchAndClose(t *testing.T, b *testenv.SympaBrowser, subject string) {
	page := b.SearchLists(t, "garden")
	list := map[string]string{"Allotment garden volunteers": "garden-volunteers", "Garden club chat": "garden-club"}[subject]
	if !strings.Contains(page, subject) || !strings.Contains(page, fmt.Sprintf(`/info/%s"`, list)) {
		t.Fatalf("searching for garden does not show %s (%s): %s", subject, list, testenv.SympaText(page))
	}
	b.CloseList(t, list)
}
