//go:build heldout

package e2e

import (
	"fmt"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// zncGoal is an everyday goal on ZNC's web admin, written three ways as a person writes it
// from what the pages show ({signin} is the phrasing's way of signing in); done reads
// znc.conf and says "" when the goal's effect is there and nothing else in the file
// changed, else what it found; do makes the effect through the web admin's own pages along
// the goal's path, and miss a near miss the judge must not take for it (another user, a
// neighbouring name or value).
type zncGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.ZNC) string
	do, miss  func(t testing.TB, b *testenv.ZNCBrowser)
}

const (
	zncNewUser     = "dave"
	zncNewPassword = "Harbour-Lights-7"
	zncNewRealName = "Dave Okafor"
	zncRealName    = "Alice Moreau-Diallo"
	zncQuitMsg     = "Gone for the day"
	zncMOTD        = "Maintenance on Sunday at 22:00 UTC"
)

var zncGoals = []zncGoal{
	{
		name: "add a user",
		phrasings: [3]string{
			`{signin}, click "Manage Users", click "Add", type "dave" into "Username", type "Harbour-Lights-7" into "Password", type "Harbour-Lights-7" into "Confirm password", type "Dave Okafor" into "Realname", click "Create and return"`,
			`{signin}, then open Manage Users and press Add; fill Username with dave and Password with Harbour-Lights-7, type Harbour-Lights-7 again into Confirm password, replace the Realname with Dave Okafor and press Create and return`,
			`{signin} Then click Manage Users in the menu and click "Add". Type "dave" into the field labelled "Username", type "Harbour-Lights-7" into the Password field and again into the Confirm password field, and put "Dave Okafor" in the Realname field. Finally click the "Create and return" button.`,
		},
		done: func(t testing.TB, w *testenv.ZNC) string {
			return zncAdded(w, func(c *testenv.ZNCSection) *testenv.ZNCSection { return c }, "User", zncNewUser, func(u *testenv.ZNCSection) string {
				if !u.PasswordIs(zncNewPassword) {
					return "the user's password is not " + zncNewPassword
				}
				return zncWant(u, "RealName", zncNewRealName)
			})
		},
		do:   func(t testing.TB, b *testenv.ZNCBrowser) { zncAddUser(t, b, zncNewUser) },
		miss: func(t testing.TB, b *testenv.ZNCBrowser) { zncAddUser(t, b, "david") },
	},
	{
		name: "add a network to a user",
		phrasings: [3]string{
			`{signin}, click "Manage Users", click "Edit" in the row of "alice", then click "Add" in the "Networks" section, type "oftc" into "Network Name", click "Add Network and return"`,
			`{signin}, then go to Manage Users, click Edit next to alice and press Add in the Networks section; fill Network Name with oftc and press Add Network and return`,
			`{signin} Open Manage Users and click Edit for the user "alice". In the "Networks" section, click "Add". Write "oftc" in the field labelled "Network Name" and click the "Add Network and return" button.`,
		},
		done: func(t testing.TB, w *testenv.ZNC) string {
			return zncAdded(w, func(c *testenv.ZNCSection) *testenv.ZNCSection { return c.User("alice") }, "Network", "oftc",
				func(*testenv.ZNCSection) string { return "" })
		},
		do:   func(t testing.TB, b *testenv.ZNCBrowser) { zncAddNetwork(t, b, "alice") },
		miss: func(t testing.TB, b *testenv.ZNCBrowser) { zncAddNetwork(t, b, "bob") },
	},
	{
		name: "add a channel to a network",
		phrasings: [3]string{
			`{signin}, click "Manage Users", click "Edit" in the row of "alice", click "Edit" next to "libera", then click "Add" in the "Channels" section, type "#helpdesk" into "Channel Name", click "Add Channel and return"`,
			`{signin}, then open Manage Users, click Edit next to alice, then click Edit next to libera; press Add in the Channels section, fill Channel Name with #helpdesk and press Add Channel and return`,
			`{signin} Go to Manage Users and click Edit next to alice. Then click "Edit" in the row of "libera". In the "Channels" section, click the "Add" link, type "#helpdesk" into the field labelled "Channel Name" and click the "Add Channel and return" button.`,
		},
		done: func(t testing.TB, w *testenv.ZNC) string {
			return zncAdded(w, func(c *testenv.ZNCSection) *testenv.ZNCSection { return c.User("alice").Network("libera") }, "Chan", "#helpdesk",
				func(*testenv.ZNCSection) string { return "" })
		},
		do:   func(t testing.TB, b *testenv.ZNCBrowser) { zncAddChannel(t, b, "alice") },
		miss: func(t testing.TB, b *testenv.ZNCBrowser) { zncAddChannel(t, b, "bob") },
	},
	{
		name: "change a user's realname and quit message",
		phrasings: [3]string{
			`{signin}, click "Manage Users", click "Edit" in the row of "alice", type "Alice Moreau-Diallo" into "Realname", type "Gone for the day" into "Quit Message", click "Save and return"`,
			`{signin}, then open Manage Users, click Edit next to alice, change Realname to Alice Moreau-Diallo and Quit Message to Gone for the day, then press Save and return`,
			`{signin} Click Manage Users and then click the Edit link of the user alice. Replace what is in the field labelled "Realname" with "Alice Moreau-Diallo". Replace the Quit Message with "Gone for the day". Then click the "Save and return" button.`,
		},
		done: func(t testing.TB, w *testenv.ZNC) string {
			return zncExactly(w, func(c *testenv.ZNCSection) {
				c.User("alice").Set("RealName", zncRealName)
				c.User("alice").Set("QuitMsg", zncQuitMsg)
			})
		},
		do: func(t testing.TB, b *testenv.ZNCBrowser) {
			zncEditUser(t, b, "alice", map[string]string{"realname": zncRealName, "quitmsg": zncQuitMsg}, "")
		},
		miss: func(t testing.TB, b *testenv.ZNCBrowser) {
			// The realname alone: the quit message left as it was.
			zncEditUser(t, b, "alice", map[string]string{"realname": zncRealName}, "")
		},
	},
	{
		name: "delete a user",
		phrasings: [3]string{
			`{signin}, click "Manage Users", click "Delete" in the row of "bob", click "Yes"`,
			`{signin}, then go to Manage Users, press Delete next to bob and confirm with Yes`,
			`{signin} Click Manage Users in the menu. In the row of the user "bob", click the "Delete" link, then confirm by clicking the Yes button.`,
		},
		done: func(t testing.TB, w *testenv.ZNC) string {
			return zncExactly(w, func(c *testenv.ZNCSection) { c.Remove("User", "bob") })
		},
		do:   func(t testing.TB, b *testenv.ZNCBrowser) { zncDeleteUser(t, b, "bob") },
		miss: func(t testing.TB, b *testenv.ZNCBrowser) { zncDeleteUser(t, b, "carol") },
	},
	{
		name: "load a module for a user",
		phrasings: [3]string{
			`{signin}, click "Manage Users", click "Edit" in the row of "alice", check the "log" box under "Modules", click "Save and return"`,
			`{signin}, then open Manage Users, click Edit next to alice, tick the log module and press Save and return`,
			`{signin} Open Manage Users and click Edit for the user alice. In the Modules section, tick the checkbox of the "log" module, then click the "Save and return" button.`,
		},
		done: func(t testing.TB, w *testenv.ZNC) string {
			return zncExactly(w, func(c *testenv.ZNCSection) { c.User("alice").Set("LoadModule", "log") })
		},
		do:   func(t testing.TB, b *testenv.ZNCBrowser) { zncEditUser(t, b, "alice", nil, "log") },
		miss: func(t testing.TB, b *testenv.ZNCBrowser) { zncEditUser(t, b, "alice", nil, "notes") },
	},
	{
		name: "change the MOTD in Global Settings",
		phrasings: [3]string{
			`{signin}, click "Global Settings", type "Maintenance on Sunday at 22:00 UTC" into "MOTD", click "Save"`,
			`{signin}, then open Global Settings, fill MOTD with Maintenance on Sunday at 22:00 UTC and press Save`,
			`{signin} Go to Global Settings from the menu. In the field labelled "MOTD", write "Maintenance on Sunday at 22:00 UTC", then click the Save button at the bottom of the page.`,
		},
		done: func(t testing.TB, w *testenv.ZNC) string {
			return zncExactly(w, func(c *testenv.ZNCSection) { c.Set("Motd", zncMOTD) })
		},
		do:   func(t testing.TB, b *testenv.ZNCBrowser) { zncSetMOTD(t, b, zncMOTD) },
		miss: func(t testing.TB, b *testenv.ZNCBrowser) { zncSetMOTD(t, b, "Maintenance on Saturday at 22:00 UTC") },
	},
}

// zncExactly says whether znc.conf holds the seed changed by change and nothing else.
func zncExactly(w *testenv.ZNC, change func(*testenv.ZNCSection)) string {
	want := w.Seed()
	change(want)
	return w.Differs(want)
}

// zncAdded says whether znc.conf holds the seed and, in the section parent picks, a new
// section <kind name> that check passes ("" when it does), and nothing else changed.
func zncAdded(w *testenv.ZNC, parent func(*testenv.ZNCSection) *testenv.ZNCSection, kind, name string, check func(*testenv.ZNCSection) string) string {
	got, err := w.Config()
	if err != nil {
		return err.Error()
	}
	p := parent(got)
	added := p.Section(kind, name)
	if p == nil || added == nil {
		return fmt.Sprintf("no <%s %s> where the goal adds it", kind, name)
	}
	if why := check(added); why != "" {
		return fmt.Sprintf("<%s %s>: %s", kind, name, why)
	}
	p.Remove(kind, name)
	return got.Diff(w.Seed())
}

// zncWant says whether a section's setting is want.
func zncWant(s *testenv.ZNCSection, key, want string) string {
	if got := s.Get(key); got != want {
		return fmt.Sprintf("%s is %q, not %q", key, got, want)
	}
	return ""
}

// zncUsers opens the home page and follows the menu's Manage Users.
func zncUsers(t testing.TB, b *testenv.ZNCBrowser) {
	t.Helper()
	b.Open(t, "/")
	b.Click(t, testenv.ZNCWebAdmin+"listusers")
}

// zncAddUser adds a user named name with the goal's password and realname through Manage
// Users' Add page.
func zncAddUser(t testing.TB, b *testenv.ZNCBrowser, name string) {
	t.Helper()
	zncUsers(t, b)
	b.Click(t, testenv.ZNCWebAdmin+"adduser")
	f := b.Form(t, testenv.ZNCWebAdmin+"adduser")
	for k, v := range map[string]string{"user": name, "password": zncNewPassword, "password2": zncNewPassword, "realname": zncNewRealName} {
		f.Fields.Set(k, v)
	}
	b.Send(t, f, "submit_return")
}

// zncAddNetwork adds the network oftc to user through the user's Edit page's Networks Add.
func zncAddNetwork(t testing.TB, b *testenv.ZNCBrowser, user string) {
	t.Helper()
	zncUsers(t, b)
	b.Click(t, testenv.ZNCWebAdmin+"edituser?user="+user)
	b.Click(t, testenv.ZNCWebAdmin+"addnetwork?user="+user)
	f := b.Form(t, testenv.ZNCWebAdmin+"addnetwork")
	f.Fields.Set("name", "oftc")
	b.Send(t, f, "submit_return")
}

// zncAddChannel adds #helpdesk to user's libera network through the network's Edit page's
// Channels Add.
func zncAddChannel(t testing.TB, b *testenv.ZNCBrowser, user string) {
	t.Helper()
	zncUsers(t, b)
	b.Click(t, testenv.ZNCWebAdmin+"edituser?user="+user)
	b.Click(t, testenv.ZNCWebAdmin+"editnetwork?user="+user+"&network=libera")
	b.Click(t, testenv.ZNCWebAdmin+"addchan?user="+user+"&network=libera")
	f := b.Form(t, testenv.ZNCWebAdmin+"addchan")
	f.Fields.Set("name", "#helpdesk")
	b.Send(t, f, "submit_return")
}

// zncEditUser changes fields of user's Edit page and ticks the module module ("" for none),
// then presses Save and return.
func zncEditUser(t testing.TB, b *testenv.ZNCBrowser, user string, fields map[string]string, module string) {
	t.Helper()
	zncUsers(t, b)
	b.Click(t, testenv.ZNCWebAdmin+"edituser?user="+user)
	f := b.Form(t, testenv.ZNCWebAdmin+"edituser")
	for k, v := range fields {
		f.Fields.Set(k, v)
	}
	if module != "" {
		f.Fields.Add("loadmod", module)
	}
	b.Send(t, f, "submit_return")
}

// zncDeleteUser follows the Delete link of user's row in Manage Users and answers Yes.
func zncDeleteUser(t testing.TB, b *testenv.ZNCBrowser, user string) {
	t.Helper()
	zncUsers(t, b)
	b.Click(t, testenv.ZNCWebAdmin+"deluser?user="+user)
	b.Send(t, b.Form(t, testenv.ZNCWebAdmin+"deluser"), "")
}

// zncSetMOTD writes motd into Global Settings' MOTD and presses Save.
func zncSetMOTD(t testing.TB, b *testenv.ZNCBrowser, motd string) {
	t.Helper()
	b.Open(t, "/")
	b.Click(t, testenv.ZNCWebAdmin+"settings")
	f := b.Form(t, testenv.ZNCWebAdmin+"settings")
	f.Fields.Set("motd", motd)
	b.Send(t, f, "")
}

// zncChanged says "" once znc.conf differs from the seed.
func zncChanged(w *testenv.ZNC) string {
	if w.Differs(w.Seed()) == "" {
		return "znc.conf is still the seed's"
	}
	return ""
}
