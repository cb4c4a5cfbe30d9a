//go:build heldout

package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// ejabberdGoal is an everyday goal on ejabberd's web admin, written three ways as a person
// writes it from what the pages show; done reads the node's state with ejabberdctl and
// says "" when the goal's effect is there and nothing else the web admin changes did,
// else what it found; do makes the effect through the pages along the goal's path, and
// miss a near miss the judge must not take for it (another user, group or virtual host).
type ejabberdGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.Ejabberd) string
	do, miss  func(t testing.TB, b *testenv.EjabberdBrowser)
}

const (
	ejabberdNewPassword    = "Blue-Harbor-58"
	ejabberdChangePassword = "Tide-Lamp-93"
	ejabberdSalesLabel     = "Sales Team"
)

var ejabberdGoals = []ejabberdGoal{
	{
		name: "register a user",
		phrasings: [3]string{
			`Click "Virtual Hosts", click "example.org", click "Users", type "julia" into "User", type "Blue-Harbor-58" into "Password", click "Add User"`,
			`In the ejabberd web admin go to Virtual Hosts, open example.org and then Users, and add a user julia with the password Blue-Harbor-58 using the Add User button.`,
			`Please open Virtual Hosts, pick the host example.org (not lab.example.org) and click Users. Put julia in the User field and "Blue-Harbor-58" in the field labelled Password, then hit "Add User" so that julia@example.org gets an account.`,
		},
		done: func(t testing.TB, w *testenv.Ejabberd) string { return ejabberdUserAdded(t, w, "julia@example.org") },
		do:   func(t testing.TB, b *testenv.EjabberdBrowser) { ejabberdAddUser(t, b, "example.org") },
		miss: func(t testing.TB, b *testenv.EjabberdBrowser) { ejabberdAddUser(t, b, "lab.example.org") },
	},
	{
		name: "change a user's password",
		phrasings: [3]string{
			`Click "Virtual Hosts", click "example.org", click "Users", click "annika@example.org", type "Tide-Lamp-93" into the field under "Password:", click "Change Password"`,
			`Go to Virtual Hosts > example.org > Users, open annika@example.org and change her password to Tide-Lamp-93 with the Change Password button.`,
			`Annika forgot her password. In Virtual Hosts choose example.org, then Users, and click annika@example.org in the list (careful, not anna). On her page type "Tide-Lamp-93" into the Password box and press Change Password.`,
		},
		done: func(t testing.TB, w *testenv.Ejabberd) string {
			return ejabberdPasswordChanged(t, w, "annika@example.org")
		},
		do:   func(t testing.TB, b *testenv.EjabberdBrowser) { ejabberdChangeUserPassword(t, b, "annika@example.org") },
		miss: func(t testing.TB, b *testenv.EjabberdBrowser) { ejabberdChangeUserPassword(t, b, "anna@example.org") },
	},
	{
		name: "remove a user",
		phrasings: [3]string{
			`Click "Virtual Hosts", click "lab.example.org", click "Users", click "omar@lab.example.org", click "Remove User"`,
			`Open Virtual Hosts, then lab.example.org, then Users; click omar@lab.example.org and press Remove User.`,
			`The account omar@lab.example.org is no longer needed. Go to Virtual Hosts, open lab.example.org and its Users list, click omar@lab.example.org (leave omar@example.org alone) and hit the "Remove User" button at the bottom of his page.`,
		},
		done: func(t testing.TB, w *testenv.Ejabberd) string {
			return ejabberdUserRemoved(t, w, "omar@lab.example.org")
		},
		do:   func(t testing.TB, b *testenv.EjabberdBrowser) { ejabberdRemoveUser(t, b, "omar@lab.example.org") },
		miss: func(t testing.TB, b *testenv.EjabberdBrowser) { ejabberdRemoveUser(t, b, "omar@example.org") },
	},
	{
		name: "add a contact to a roster",
		phrasings: [3]string{
			`Click "Virtual Hosts", click "example.org", click "Users", click "lisa@example.org", click "View Roster", type "omar@example.org" into the field next to "Add Jabber ID", click "Add Jabber ID"`,
			`Virtual Hosts → example.org → Users → lisa@example.org → View Roster, then add omar@example.org to her roster with Add Jabber ID.`,
			`Lisa wants Omar in her contact list. Open Virtual Hosts, click example.org and then Users, and open the user lisa@example.org. Click "View Roster", write omar@example.org in the text box at the bottom and click the Add Jabber ID button.`,
		},
		done: func(t testing.TB, w *testenv.Ejabberd) string {
			return ejabberdContactAdded(t, w, "lisa@example.org", "omar@example.org")
		},
		do:   func(t testing.TB, b *testenv.EjabberdBrowser) { ejabberdAddContact(t, b, "lisa@example.org") },
		miss: func(t testing.TB, b *testenv.EjabberdBrowser) { ejabberdAddContact(t, b, "anna@example.org") },
	},
	{
		name: "create a shared roster group",
		phrasings: [3]string{
			`Click "Virtual Hosts", click "example.org", click "Shared Roster Groups", type "sales" into the field under "Name:", click "Add New", click "sales", type "Sales Team" into "Label", click "Submit"`,
			`Under Virtual Hosts > example.org > Shared Roster Groups add a new group named sales (Add New), then open it, set its Label to Sales Team and Submit.`,
			`We need a shared roster group for sales on example.org. Go to Virtual Hosts, click example.org, then Shared Roster Groups. Type sales into the Name box and press "Add New". Then click the new group sales in the list, fill in the Label field with Sales Team, leave the other fields empty and click Submit.`,
		},
		done: func(t testing.TB, w *testenv.Ejabberd) string {
			return ejabberdExactly(t, w, func(s testenv.EjabberdState) { s["group"]["example.org/sales"] = "label=" + ejabberdSalesLabel })
		},
		do:   func(t testing.TB, b *testenv.EjabberdBrowser) { ejabberdCreateGroup(t, b, "example.org") },
		miss: func(t testing.TB, b *testenv.EjabberdBrowser) { ejabberdCreateGroup(t, b, "lab.example.org") },
	},
	{
		name: "add a member to a shared roster group",
		phrasings: [3]string{
			`Click "Virtual Hosts", click "example.org", click "Shared Roster Groups", click "support", add a line "lisa@example.org" at the end of "Members", click "Submit"`,
			`In Virtual Hosts > example.org > Shared Roster Groups open the group support and add lisa@example.org to its Members (keep anna and tom), then Submit.`,
			`Lisa joins the support desk. Open Virtual Hosts, then example.org, then Shared Roster Groups, and click the group called support. In the Members box add lisa@example.org on a new line below the members already there, without removing anyone, and hit Submit.`,
		},
		done: func(t testing.TB, w *testenv.Ejabberd) string {
			return ejabberdExactly(t, w, func(s testenv.EjabberdState) { s["member"]["example.org/support>lisa@example.org"] = "" })
		},
		do:   func(t testing.TB, b *testenv.EjabberdBrowser) { ejabberdAddMember(t, b, "support") },
		miss: func(t testing.TB, b *testenv.EjabberdBrowser) { ejabberdAddMember(t, b, "devs") },
	},
	{
		name: "clear a user's offline messages",
		phrasings: [3]string{
			`Click "Virtual Hosts", click "example.org", click "Users", click "anna@example.org", click "Remove All Offline Messages"`,
			`Go to Virtual Hosts, example.org, Users, open anna@example.org and remove all of her offline messages (Remove All Offline Messages).`,
			`Anna's offline message queue should be emptied. In Virtual Hosts pick example.org, then Users, and click anna@example.org (not annika). On her page, in the Offline Messages part, press the "Remove All Offline Messages" button.`,
		},
		done: func(t testing.TB, w *testenv.Ejabberd) string {
			return ejabberdExactly(t, w, func(s testenv.EjabberdState) { s["offline"]["anna@example.org"] = "0" })
		},
		do:   func(t testing.TB, b *testenv.EjabberdBrowser) { ejabberdClearOffline(t, b, "anna@example.org") },
		miss: func(t testing.TB, b *testenv.EjabberdBrowser) { ejabberdClearOffline(t, b, "annika@example.org") },
	},
}

// ejabberdExactly says whether the node holds the seed changed by change and nothing else.
func ejabberdExactly(t testing.TB, w *testenv.Ejabberd, change func(testenv.EjabberdState)) string {
	want := w.Seed()
	change(want)
	return w.Differs(t, want)
}

// ejabberdUserAdded says whether jid is registered with the goal's password, its offline
// queue empty, and nothing else changed.
func ejabberdUserAdded(t testing.TB, w *testenv.Ejabberd, jid string) string {
	got := w.State(t)
	if _, ok := got["user"][jid]; !ok {
		return "no user " + jid
	}
	if !w.PasswordIs(t, jid, ejabberdNewPassword) {
		return jid + "'s password is not " + ejabberdNewPassword
	}
	if got["offline"][jid] != "0" {
		return fmt.Sprintf("%s has %s offline messages", jid, got["offline"][jid])
	}
	delete(got["user"], jid)
	delete(got["offline"], jid)
	return got.Diff(w.Seed())
}

// ejabberdPasswordChanged says whether jid's password is the goal's new one and nothing
// else changed.
func ejabberdPasswordChanged(t testing.TB, w *testenv.Ejabberd, jid string) string {
	if !w.PasswordIs(t, jid, ejabberdChangePassword) {
		return jid + "'s password is not " + ejabberdChangePassword
	}
	return ejabberdExactly(t, w, func(s testenv.EjabberdState) { s["user"][jid] = "password=other" })
}

// ejabberdUserRemoved says whether jid is gone with its roster, offline queue and shared
// group memberships, and nothing else changed but the subscriptions of its contacts'
// items for it (ejabberd tells them it is gone).
func ejabberdUserRemoved(t testing.TB, w *testenv.Ejabberd, jid string) string {
	got := w.State(t)
	if _, ok := got["user"][jid]; ok {
		return jid + " is still registered"
	}
	want := w.Seed()
	delete(want["user"], jid)
	delete(want["offline"], jid)
	for k := range want["roster"] {
		if strings.HasPrefix(k, jid+">") {
			delete(want["roster"], k)
		}
	}
	for _, s := range []testenv.EjabberdState{got, want} {
		for _, kind := range []string{"roster", "member"} {
			for k := range s[kind] {
				if strings.HasSuffix(k, ">"+jid) {
					delete(s[kind], k)
				}
			}
		}
	}
	return got.Diff(want)
}

// ejabberdContactAdded says whether owner's roster holds contact (whatever the
// subscription: the web admin asks contact to subscribe), and nothing else changed but
// contact's own item for owner (the pending request).
func ejabberdContactAdded(t testing.TB, w *testenv.Ejabberd, owner, contact string) string {
	got := w.State(t)
	if _, ok := got["roster"][owner+">"+contact]; !ok {
		return fmt.Sprintf("%s's roster has no %s", owner, contact)
	}
	delete(got["roster"], owner+">"+contact)
	delete(got["roster"], contact+">"+owner)
	return got.Diff(w.Seed())
}

// ejabberdUsers follows Virtual Hosts, host and Users from the start page.
func ejabberdUsers(t testing.TB, b *testenv.EjabberdBrowser, host string) {
	t.Helper()
	b.Start(t)
	b.ClickText(t, "Virtual Hosts")
	b.ClickText(t, host)
	b.ClickText(t, "Users")
}

// ejabberdUser opens jid's page from its host's Users list.
func ejabberdUser(t testing.TB, b *testenv.EjabberdBrowser, jid string) {
	t.Helper()
	_, host, _ := strings.Cut(jid, "@")
	ejabberdUsers(t, b, host)
	b.ClickText(t, jid)
}

// ejabberdAddUser adds julia with the goal's password on host through the Users page.
func ejabberdAddUser(t testing.TB, b *testenv.EjabberdBrowser, host string) {
	t.Helper()
	ejabberdUsers(t, b, host)
	f := b.Form(t)
	f.Fields.Set("newusername", "julia")
	f.Fields.Set("newuserpassword", ejabberdNewPassword)
	b.Send(t, f, "addnewuser")
}

// ejabberdChangeUserPassword sets jid's password to the goal's on its page.
func ejabberdChangeUserPassword(t testing.TB, b *testenv.EjabberdBrowser, jid string) {
	t.Helper()
	ejabberdUser(t, b, jid)
	f := b.Form(t)
	f.Fields.Set("password", ejabberdChangePassword)
	b.Send(t, f, "chpassword")
}

// ejabberdRemoveUser presses Remove User on jid's page.
func ejabberdRemoveUser(t testing.TB, b *testenv.EjabberdBrowser, jid string) {
	t.Helper()
	ejabberdUser(t, b, jid)
	b.Send(t, b.Form(t), "removeuser")
}

// ejabberdAddContact adds omar@example.org to owner's roster through View Roster.
func ejabberdAddContact(t testing.TB, b *testenv.EjabberdBrowser, owner string) {
	t.Helper()
	ejabberdUser(t, b, owner)
	b.ClickText(t, "View Roster")
	f := b.Form(t)
	f.Fields.Set("newjid", "omar@example.org")
	b.Send(t, f, "addjid")
}

// ejabberdGroups follows Virtual Hosts, host and Shared Roster Groups from the start page.
func ejabberdGroups(t testing.TB, b *testenv.EjabberdBrowser, host string) {
	t.Helper()
	b.Start(t)
	b.ClickText(t, "Virtual Hosts")
	b.ClickText(t, host)
	b.ClickText(t, "Shared Roster Groups")
}

// ejabberdCreateGroup adds the group sales on host, opens it and gives it the goal's label.
func ejabberdCreateGroup(t testing.TB, b *testenv.EjabberdBrowser, host string) {
	t.Helper()
	ejabberdGroups(t, b, host)
	f := b.Form(t)
	f.Fields.Set("namenew", "sales")
	b.Send(t, f, "addnew")
	b.ClickText(t, "sales")
	f = b.Form(t)
	f.Fields.Set("label", ejabberdSalesLabel)
	b.Send(t, f, "submit")
}

// ejabberdAddMember adds lisa@example.org on a line of its own to group's Members.
func ejabberdAddMember(t testing.TB, b *testenv.EjabberdBrowser, group string) {
	t.Helper()
	ejabberdGroups(t, b, "example.org")
	b.ClickText(t, group)
	f := b.Form(t)
	f.Fields.Set("members", strings.TrimRight(f.Fields.Get("members"), "\r\n")+"\r\nlisa@example.org\r\n")
	b.Send(t, f, "submit")
}

// ejabberdClearOffline presses Remove All Offline Messages on jid's page.
func ejabberdClearOffline(t testing.TB, b *testenv.EjabberdBrowser, jid string) {
	t.Helper()
	ejabberdUser(t, b, jid)
	b.Send(t, b.Form(t), "removealloffline")
}
