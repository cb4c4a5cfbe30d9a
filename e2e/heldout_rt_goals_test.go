//go:build heldout

package e2e

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// rtGoal is an everyday goal on Request Tracker, written three ways as a person writes it
// from what the pages show ({signin} is filled in per phrasing); done reads RT's database
// and says "" when the goal's effect is there and nothing else it reads changed (the
// tickets, the messages on them, the queues, the users and the groups' members), else
// what it found; do makes the effect through RT's own pages along the goal's path, from
// RT at a glance (home, the page signing in ends on), and miss a near miss the judge must
// not take for it (a neighbouring ticket, queue, user or group, another value, a reply
// for a comment).
type rtGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.RT) string
	do, miss  func(t testing.TB, w *testenv.RT, b *testenv.RTBrowser, home string)
}

const (
	rtNewSubject   = "Laptop battery is swelling"
	rtNewText      = "The battery of my laptop bulges under the keyboard."
	rtVPN          = "VPN drops every hour"
	rtPrinter      = "Printer on the second floor jams"
	rtKeyboard     = "New keyboard for reception"
	rtCommentText  = "Asked Carol for the VPN client log."
	rtQueueName    = "Network"
	rtQueueDesc    = "Switches, Wi-Fi and firewalls"
	rtHelpdesk     = "Helpdesk Staff"
	rtFacilityTeam = "Facilities Team"
)

var rtGoals = []rtGoal{
	{
		name: "create a ticket",
		phrasings: [3]string{
			`{signin}, type "Laptop battery is swelling" into "Subject", select "IT Helpdesk" in "Queue", type "The battery of my laptop bulges under the keyboard." into "Content", click "Create"`,
			`{signin}, then use the Quick ticket creation box: fill Subject with Laptop battery is swelling, pick IT Helpdesk as the Queue, write "The battery of my laptop bulges under the keyboard." in Content and press Create`,
			`Sign in first: {signin}. Type "Laptop battery is swelling" into the field labelled "Subject", choose IT Helpdesk from the Queue list and write "The battery of my laptop bulges under the keyboard." in the Content box. Click the Create button and make sure "Ticket 5 created" is shown.`,
		},
		done: func(t testing.TB, w *testenv.RT) string { return rtNewTicket(t, w, "IT Helpdesk") },
		do: func(t testing.TB, w *testenv.RT, b *testenv.RTBrowser, home string) {
			rtQuickCreate(t, b, home, "IT Helpdesk")
		},
		miss: func(t testing.TB, w *testenv.RT, b *testenv.RTBrowser, home string) {
			rtQuickCreate(t, b, home, "Facilities") // the list's first queue, left chosen
		},
	},
	{
		name: "comment on a ticket",
		phrasings: [3]string{
			`{signin}, click "VPN drops every hour", click "Actions", click "Comment", type "Asked Carol for the VPN client log." into the message box, click "Update Ticket"`,
			`{signin}, then open the ticket "VPN drops every hour", choose Comment from the Actions menu, write "Asked Carol for the VPN client log." in the Message box and press Update Ticket`,
			`Sign in: {signin}. Open the ticket "VPN drops every hour". Open the Actions menu and click Comment. In the Message box, write "Asked Carol for the VPN client log." and click the Update Ticket button. Make sure "Comments added" is shown.`,
		},
		done: func(t testing.TB, w *testenv.RT) string {
			return rtExactly(t, w, func(s *testenv.RTState) {
				s.Messages = append(s.Messages, testenv.RTMessage{Ticket: 2, Type: "Comment", Text: rtCommentText})
			})
		},
		do: func(t testing.TB, w *testenv.RT, b *testenv.RTBrowser, home string) {
			rtUpdate(t, b, home, rtVPN, "Comment", url.Values{"UpdateContent": {"<p>" + rtCommentText + "</p>"}}, "Comments added")
		},
		miss: func(t testing.TB, w *testenv.RT, b *testenv.RTBrowser, home string) {
			// A reply to the requestor rather than a comment.
			rtUpdate(t, b, home, rtVPN, "Reply", url.Values{"UpdateContent": {"<p>" + rtCommentText + "</p>"}}, "Correspondence added")
		},
	},
	{
		name: "resolve a ticket",
		phrasings: [3]string{
			`{signin}, click "Printer on the second floor jams", click "Actions", click "Resolve", click "Update Ticket"`,
			`{signin}, then open the ticket "Printer on the second floor jams", press Basics, set Status to resolved and press Save Changes`,
			`Sign in first: {signin}. Open the ticket "Printer on the second floor jams". Open the Actions menu and click Resolve, then click the Update Ticket button. Make sure "Status changed from 'new' to 'resolved'" is shown.`,
		},
		done: func(t testing.TB, w *testenv.RT) string {
			return rtExactly(t, w, func(s *testenv.RTState) { rtSetTicket(s, 1, func(tk *testenv.RTTicket) { tk.Status = "resolved" }) })
		},
		do: func(t testing.TB, w *testenv.RT, b *testenv.RTBrowser, home string) {
			rtUpdate(t, b, home, rtPrinter, "Resolve", nil, "Status changed from 'new' to 'resolved'")
		},
		miss: func(t testing.TB, w *testenv.RT, b *testenv.RTBrowser, home string) {
			rtBasics(t, b, home, rtPrinter, "rejected")
		},
	},
	{
		name: "give a ticket to someone",
		phrasings: [3]string{
			`{signin}, click "New keyboard for reception", click "People", select "alice (Alice Walker)" in "Owner", click "Save Changes"`,
			`{signin}, then open the ticket "New keyboard for reception", click People in the ticket's menu, choose Alice Walker as the Owner and press Save Changes`,
			`Sign in: {signin}. Open the ticket "New keyboard for reception", then click "People" at the top of the ticket. In the Owner list pick alice (Alice Walker), then click the Save Changes button and make sure "Owner changed from Nobody to alice" is shown.`,
		},
		done: func(t testing.TB, w *testenv.RT) string {
			return rtExactly(t, w, func(s *testenv.RTState) { rtSetTicket(s, 3, func(tk *testenv.RTTicket) { tk.Owner = "alice" }) })
		},
		do: func(t testing.TB, w *testenv.RT, b *testenv.RTBrowser, home string) {
			rtOwner(t, b, home, rtKeyboard, "alice (Alice Walker)")
		},
		miss: func(t testing.TB, w *testenv.RT, b *testenv.RTBrowser, home string) {
			rtOwner(t, b, home, rtKeyboard, "bob (Bob Ortiz)")
		},
	},
	{
		name: "create a queue",
		phrasings: [3]string{
			`{signin}, click "Admin", click "Queues", click "Create", type "Network" into "Queue Name", type "Switches, Wi-Fi and firewalls" into "Description", click "Create"`,
			`{signin}, then under Admin > Queues press Create, fill Queue Name with Network and Description with "Switches, Wi-Fi and firewalls", then press the Create button`,
			`Sign in first: {signin}. Open the Admin menu, go to Queues and choose Create. Type Network into the field labelled "Queue Name" and "Switches, Wi-Fi and firewalls" into the Description field. Click the Create button at the bottom and make sure "Queue created" is shown.`,
		},
		done: func(t testing.TB, w *testenv.RT) string {
			return rtExactly(t, w, func(s *testenv.RTState) { s.Queues[rtQueueName] = testenv.RTQueue{Description: rtQueueDesc} })
		},
		do: func(t testing.TB, w *testenv.RT, b *testenv.RTBrowser, home string) {
			rtCreateQueue(t, b, home, rtQueueDesc)
		},
		miss: func(t testing.TB, w *testenv.RT, b *testenv.RTBrowser, home string) {
			rtCreateQueue(t, b, home, "") // the description left out
		},
	},
	{
		name: "add a user",
		phrasings: [3]string{
			`{signin}, click "Admin", click "Users", click "Create", type "dpatel" into "Username", type "dev.patel@example.com" into "Email", type "Dev Patel" into "Real Name", check "Let this user be granted rights (Privileged)", click "Create"`,
			`{signin}, then go to Admin > Users > Create, fill Username with dpatel, Email with dev.patel@example.com and Real Name with Dev Patel, tick Let this user be granted rights (Privileged) and press Create`,
			`Sign in: {signin}. In the Admin menu open Users and choose Create. Enter dpatel in the field labelled "Username", enter dev.patel@example.com in the Email field and enter "Dev Patel" as the Real Name. Tick the box "Let this user be granted rights (Privileged)", click the Create button and make sure "User created" is shown.`,
		},
		done: func(t testing.TB, w *testenv.RT) string {
			return rtExactly(t, w, func(s *testenv.RTState) {
				s.Users["dpatel"] = testenv.RTAccount{RealName: "Dev Patel", Email: "dev.patel@example.com", Privileged: true}
			})
		},
		do: func(t testing.TB, w *testenv.RT, b *testenv.RTBrowser, home string) { rtCreateUser(t, b, home, true) },
		miss: func(t testing.TB, w *testenv.RT, b *testenv.RTBrowser, home string) {
			rtCreateUser(t, b, home, false) // the Privileged box left unticked
		},
	},
	{
		name: "add a member to a group",
		phrasings: [3]string{
			`{signin}, click "Admin", click "Groups", click "Helpdesk Staff", click "Members", type "bob" into "Add user", click "Modify Members"`,
			`{signin}, then open Admin > Groups, pick the Helpdesk Staff group, click Members, put bob in Add user and press Modify Members`,
			`Sign in first: {signin}. Open Admin, then Groups, and click the group "Helpdesk Staff". Click Members, type bob into the field labelled "Add user:" and click the Modify Members button. Make sure "bob (Bob Ortiz)" is shown.`,
		},
		done: func(t testing.TB, w *testenv.RT) string {
			return rtExactly(t, w, func(s *testenv.RTState) { s.Groups[rtHelpdesk] = []string{"alice", "bob"} })
		},
		do: func(t testing.TB, w *testenv.RT, b *testenv.RTBrowser, home string) {
			rtAddMember(t, b, home, rtHelpdesk, "bob")
		},
		miss: func(t testing.TB, w *testenv.RT, b *testenv.RTBrowser, home string) {
			rtAddMember(t, b, home, rtFacilityTeam, "bob")
		},
	},
}

// rtExactly says what the database lacks or holds besides the seed changed by change; ""
// when it holds exactly that.
func rtExactly(t testing.TB, w *testenv.RT, change func(s *testenv.RTState)) string {
	want := w.Seed()
	change(&want)
	return w.Differs(t, want)
}

// rtSetTicket changes the seed's ticket id.
func rtSetTicket(s *testenv.RTState, id int, change func(tk *testenv.RTTicket)) {
	tk := s.Tickets[id]
	change(&tk)
	s.Tickets[id] = tk
}

// rtNewTicket judges the new ticket: one ticket more than the seed, in queue, with the
// goal's subject and its text as the first message; its owner, status and priority are
// whatever the form left (the quick form makes its creator the owner), and nothing else
// changed.
func rtNewTicket(t testing.TB, w *testenv.RT, queue string) string {
	got := w.State(t)
	want := w.Seed()
	var added []int
	for id := range got.Tickets {
		if _, ok := want.Tickets[id]; !ok {
			added = append(added, id)
		}
	}
	if len(added) != 1 {
		return fmt.Sprintf("%d new tickets, want 1", len(added))
	}
	tk := got.Tickets[added[0]]
	want.Tickets[added[0]] = testenv.RTTicket{Queue: queue, Subject: rtNewSubject, Status: tk.Status, Owner: tk.Owner, Priority: tk.Priority}
	want.Messages = append(want.Messages, testenv.RTMessage{Ticket: added[0], Type: "Create", Text: rtNewText})
	return w.Differs(t, want)
}

// rtQuickCreate fills RT at a glance's Quick ticket creation box in (queue chosen by its
// name) and presses Create.
func rtQuickCreate(t testing.TB, b *testenv.RTBrowser, home, queue string) {
	t.Helper()
	id := testenv.RTOption(home, "Queue", queue)
	if id == "" {
		t.Fatalf("no queue %q to choose on RT at a glance", queue)
	}
	page := b.Submit(t, home, `action="/index.html"`,
		url.Values{"Subject": {rtNewSubject}, "Queue": {id}, "Content": {rtNewText}}, "SubmitTicket")
	rtShown(t, page, "Ticket 5 created")
}

// rtUpdate opens the ticket whose subject is subject from RT at a glance, clicks action in
// its Actions menu (Comment, Reply, Resolve), fills the update page in with fields and
// presses Update Ticket; the page must then show shown.
func rtUpdate(t testing.TB, b *testenv.RTBrowser, home, subject, action string, fields url.Values, shown string) {
	t.Helper()
	update := b.Click(t, b.Click(t, home, subject), action)
	rtShown(t, b.Submit(t, update, `name="TicketUpdate"`, fields, "SubmitTicket"), shown)
}

// rtBasics opens the ticket's Basics page, sets its Status and presses Save Changes.
func rtBasics(t testing.TB, b *testenv.RTBrowser, home, subject, status string) {
	t.Helper()
	basics := b.Click(t, b.Click(t, home, subject), "Basics")
	rtShown(t, b.Submit(t, basics, `name="TicketModify"`, url.Values{"Status": {status}}, "SubmitTicket"), "Status changed")
}

// rtOwner opens the ticket's People page, picks owner (as the Owner list shows it:
// "alice (Alice Walker)") and presses Save Changes.
func rtOwner(t testing.TB, b *testenv.RTBrowser, home, subject, owner string) {
	t.Helper()
	people := b.Click(t, b.Click(t, home, subject), "People")
	id := testenv.RTOption(people, "Owner", owner)
	if id == "" {
		t.Fatalf("no owner %q to choose on the People page", owner)
	}
	rtShown(t, b.Submit(t, people, `name="TicketPeople"`, url.Values{"Owner": {id}}, "SubmitTicket"),
		"Owner changed from Nobody to "+strings.Fields(owner)[0])
}

// rtCreateQueue creates the queue Network through Admin > Queues > Create.
func rtCreateQueue(t testing.TB, b *testenv.RTBrowser, home, description string) {
	t.Helper()
	form := b.Menu(t, home, "admin-queues-create")
	rtShown(t, b.Submit(t, form, `name="ModifyQueue"`, url.Values{"Name": {rtQueueName}, "Description": {description}}, ""), "Queue created")
}

// rtCreateUser creates the user dpatel through Admin > Users > Create, privileged or not.
func rtCreateUser(t testing.TB, b *testenv.RTBrowser, home string, privileged bool) {
	t.Helper()
	form := b.Menu(t, home, "admin-users-create")
	fields := url.Values{"Name": {"dpatel"}, "EmailAddress": {"dev.patel@example.com"}, "RealName": {"Dev Patel"}}
	if privileged {
		fields.Set("Privileged", "1")
	}
	rtShown(t, b.Submit(t, form, `name="UserCreate"`, fields, ""), "User created")
}

// rtAddMember opens Admin > Groups, the group, its Members page, types user into Add user
// and presses Modify Members.
func rtAddMember(t testing.TB, b *testenv.RTBrowser, home, group, user string) {
	t.Helper()
	members := b.Click(t, b.Click(t, b.Menu(t, home, "admin-groups"), group), "Members")
	page := b.Submit(t, members, `action="/Admin/Groups/Members.html"`, url.Values{"AddMembersUsers": {user}}, "")
	rtShown(t, page, "Member added")
	if shown := user + " ("; !strings.Contains(testenv.RTText(page), shown) {
		t.Fatalf("the group's Members page does not list %s:\n%s", user, testenv.RTText(page))
	}
}

// rtShown fails the test unless RT's results on page say shown.
func rtShown(t testing.TB, page, shown string) {
	t.Helper()
	if got := testenv.RTResults(page); !strings.Contains(got, shown) {
		t.Fatalf("the page does not say %q (it says %q):\n%s", shown, got, testenv.RTText(page))
	}
}
