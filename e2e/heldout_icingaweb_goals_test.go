//go:build heldout

package e2e

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// icingawebGoal is an everyday goal on Icinga Web 2's pages, written three ways as a
// person writes it from what the pages show ({signin} is the phrasing's way of signing in);
// done reads Icinga Web 2's database and ini files and says "" when the goal's effect is
// there and nothing else the pages change did, else what it found; do makes the effect
// through the pages along the goal's path, and miss a near miss the judge must not take
// for it (another user, group, item or pane, a neighbouring name or value).
type icingawebGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.IcingaWeb) string
	do, miss  func(t testing.TB, b *testenv.IcingaWebBrowser)
}

const (
	icingawebNewUser     = "julia"
	icingawebNewPassword = "Night-Shift-42"
	icingawebRole        = "Helpdesk"
	icingawebDashletURL  = "list/applicationlog"
	icingawebDashlet     = "Application Log"
	icingawebRenamed     = "Operations Wiki"
)

var icingawebGoals = []icingawebGoal{
	{
		name: "add a user",
		phrasings: [3]string{
			`{signin}, click "Configuration", click "Access Control", click "Users", click "Add a New User", type "julia" into "Username", type "Night-Shift-42" into "Password", click "Add"`,
			`{signin}, then Configuration > Access Control > Users: add a new user julia, password Night-Shift-42, keep Active on`,
			`{signin} Once you are in, go to Configuration and then Access Control, switch to the Users tab and click "Add a New User". Fill in the Username field with julia and the field labelled Password with "Night-Shift-42", make sure Active stays switched on, and press the Add button to create the account.`,
		},
		done: func(t testing.TB, w *testenv.IcingaWeb) string { return icingawebUserAdded(t, w, icingawebNewUser) },
		do:   func(t testing.TB, b *testenv.IcingaWebBrowser) { icingawebAddUser(t, b, icingawebNewUser) },
		miss: func(t testing.TB, b *testenv.IcingaWebBrowser) { icingawebAddUser(t, b, "julian") },
	},
	{
		name: "add a member to a user group",
		phrasings: [3]string{
			`{signin}, click "Configuration", click "Access Control", click "User Groups", click "Network Team", click "Add New Member", select "tom" in "Backend Users", click "Add"`,
			`{signin}; Configuration, Access Control, User Groups, open Network Team, Add New Member, pick tom under Backend Users, hit Add`,
			`{signin} Then head to Configuration → Access Control and open the User Groups tab. Click the group called "Network Team", choose Add New Member, select the user tom in the Backend Users list and click Add so that tom becomes a member of that group.`,
		},
		done: func(t testing.TB, w *testenv.IcingaWeb) string {
			return icingawebExactly(t, w, func(s testenv.IcingaWebState) { s["member"]["Network Team>tom"] = "" })
		},
		do:   func(t testing.TB, b *testenv.IcingaWebBrowser) { icingawebAddMember(t, b, "tom") },
		miss: func(t testing.TB, b *testenv.IcingaWebBrowser) { icingawebAddMember(t, b, "omar") },
	},
	{
		name: "create a role with one permission",
		phrasings: [3]string{
			`{signin}, click "Configuration", click "Access Control", click "Create a New Role", type "Helpdesk" into "Role Name", type "Network Team" into "Groups", click "Icinga Web 2", switch on "application/announcements", click "Create Role"`,
			`{signin}, then in Configuration > Access Control create a new role Helpdesk for the group Network Team, granting only application/announcements (Allow to manage announcements) under Icinga Web 2, and press Create Role`,
			`{signin} We need a role for the helpdesk people. Go to Configuration, then Access Control, and click Create a New Role. Call it "Helpdesk" in the Role Name field and write Network Team into the field labelled Groups, leaving Users empty. Open the Icinga Web 2 section of the permissions and switch on application/announcements ("Allow to manage announcements") and nothing else, then click the Create Role button.`,
		},
		done: func(t testing.TB, w *testenv.IcingaWeb) string { return icingawebRoleAdded(t, w) },
		do:   func(t testing.TB, b *testenv.IcingaWebBrowser) { icingawebCreateRole(t, b, "Network Team") },
		miss: func(t testing.TB, b *testenv.IcingaWebBrowser) { icingawebCreateRole(t, b, "Operators") },
	},
	{
		name: "add a dashlet to a dashboard",
		phrasings: [3]string{
			`{signin}, click "Dashboard", open the dashboard's menu next to the "Team" tab, click "Add Dashlet", type "list/applicationlog" into "Url", type "Application Log" into "Dashlet Title", select "Overview" in "Dashboard", click "Add To Dashboard"`,
			`{signin} then add a dashlet "Application Log" with url list/applicationlog to the Overview dashboard (Dashboard menu → Add Dashlet → Add To Dashboard)`,
			`{signin} On the Dashboard, open the little menu beside the dashboard tabs and choose Add Dashlet. Put list/applicationlog in the Url field and Application Log as the Dashlet Title, leave "New dashboard" off and pick the existing dashboard Overview from the Dashboard list, then hit "Add To Dashboard".`,
		},
		done: func(t testing.TB, w *testenv.IcingaWeb) string { return icingawebDashletAdded(t, w, "Overview") },
		do:   func(t testing.TB, b *testenv.IcingaWebBrowser) { icingawebAddDashlet(t, b, "Overview") },
		miss: func(t testing.TB, b *testenv.IcingaWebBrowser) { icingawebAddDashlet(t, b, "Team") },
	},
	{
		name: "rename a shared menu entry",
		phrasings: [3]string{
			`{signin}, click "Configuration", click "Shared Navigation", click "Runbooks", type "Operations Wiki" into "Name", click "Save Changes"`,
			`{signin}, then go to Configuration > Shared Navigation and rename the item Runbooks to Operations Wiki (Save Changes)`,
			`{signin} Next, open Configuration and choose Shared Navigation. Click the shared navigation item named "Runbooks", replace its Name with "Operations Wiki" and leave everything else (users, groups, target and url) as it is, then press the Save Changes button.`,
		},
		done: func(t testing.TB, w *testenv.IcingaWeb) string {
			return icingawebExactly(t, w, func(s testenv.IcingaWebState) { icingawebRename(s, "Runbooks") })
		},
		do:   func(t testing.TB, b *testenv.IcingaWebBrowser) { icingawebRenameItem(t, b, "Runbooks") },
		miss: func(t testing.TB, b *testenv.IcingaWebBrowser) { icingawebRenameItem(t, b, "Status Page") },
	},
	{
		name: "change the default page size",
		phrasings: [3]string{
			`{signin}, click "admin", click "My Account", type "50" into "Default page size", click "Save to the Preferences"`,
			`{signin}, then in My Account set Default page size to 50 and save to the preferences`,
			`{signin} Open your account page (click admin at the bottom of the menu, then My Account). In the Preferences part, change the field labelled Default page size from 25 to 50 and click "Save to the Preferences" so that it is kept for good, not only for this session.`,
		},
		done: func(t testing.TB, w *testenv.IcingaWeb) string {
			return icingawebExactly(t, w, func(s testenv.IcingaWebState) { s["preference"]["admin/icingaweb/default_page_size"] = "50" })
		},
		do:   func(t testing.TB, b *testenv.IcingaWebBrowser) { icingawebPageSize(t, b, "50") },
		miss: func(t testing.TB, b *testenv.IcingaWebBrowser) { icingawebPageSize(t, b, "100") },
	},
	{
		name: "remove an announcement",
		phrasings: [3]string{
			`{signin}, click "System", click "Announcements", click "Remove this announcement" in the row "The new on-call rota starts on Monday", click "Yes"`,
			`{signin} then System > Announcements: delete the announcement "The new on-call rota starts on Monday" and confirm with Yes`,
			`{signin} Then go to System and open Announcements. Find the announcement that says The new on-call rota starts on Monday, press the remove icon (the cross) at the end of its row and confirm by clicking Yes. The other announcement must stay.`,
		},
		done: func(t testing.TB, w *testenv.IcingaWeb) string {
			return icingawebExactly(t, w, func(s testenv.IcingaWebState) {
				delete(s["announcements.ini"], testenv.IcingaWebSeedAnnouncements[1][0])
			})
		},
		do:   func(t testing.TB, b *testenv.IcingaWebBrowser) { icingawebRemoveAnnouncement(t, b, 1) },
		miss: func(t testing.TB, b *testenv.IcingaWebBrowser) { icingawebRemoveAnnouncement(t, b, 0) },
	},
}

// icingawebExactly says whether the storage holds the seed changed by change and nothing
// else.
func icingawebExactly(t testing.TB, w *testenv.IcingaWeb, change func(testenv.IcingaWebState)) string {
	want := w.Seed()
	change(want)
	return w.Differs(t, want)
}

// icingawebRename moves the shared menu entry item of the state to the goal's new name,
// its settings unchanged.
func icingawebRename(s testenv.IcingaWebState, item string) {
	nav := s["navigation/menu.ini"]
	nav[icingawebRenamed] = nav[item]
	delete(nav, item)
}

// icingawebKeys is an ini section's line of the state ("key=value; key=value") as a map.
func icingawebKeys(line string) map[string]string {
	keys := map[string]string{}
	for _, kv := range strings.Split(line, "; ") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			keys[k] = v
		}
	}
	return keys
}

// icingawebUserAdded says whether the storage holds the seed and a new active user whose
// password is the goal's, and nothing else changed.
func icingawebUserAdded(t testing.TB, w *testenv.IcingaWeb, user string) string {
	got := w.State(t)
	row, ok := got["user"][user]
	if !ok {
		return "no user " + user
	}
	if !strings.HasPrefix(row, "active=1 ") {
		return fmt.Sprintf("the user %s is not active: %s", user, row)
	}
	if !w.PasswordIs(t, user, icingawebNewPassword) {
		return user + "'s password is not " + icingawebNewPassword
	}
	delete(got["user"], user)
	return got.Diff(w.Seed())
}

// icingawebRoleAdded says whether roles.ini holds the seed's roles and the goal's role,
// which the group Network Team (and no user) is assigned to, inherits from no role and
// grants application/announcements and nothing else, and nothing else changed.
func icingawebRoleAdded(t testing.TB, w *testenv.IcingaWeb) string {
	got := w.State(t)
	row, ok := got["roles.ini"][icingawebRole]
	if !ok {
		return "no role " + icingawebRole
	}
	keys := icingawebKeys(row)
	var groups []string
	for _, g := range strings.Split(keys["groups"], ",") {
		if g = strings.TrimSpace(g); g != "" {
			groups = append(groups, g)
		}
	}
	if len(groups) != 1 || groups[0] != "Network Team" {
		return fmt.Sprintf("the role %s is assigned to the groups %q, not Network Team alone", icingawebRole, keys["groups"])
	}
	if keys["permissions"] != "application/announcements" {
		return fmt.Sprintf("the role %s grants %q, not application/announcements alone", icingawebRole, keys["permissions"])
	}
	for k, v := range keys {
		if k != "groups" && k != "permissions" && strings.TrimSpace(v) != "" {
			return fmt.Sprintf("the role %s has %s=%s as well", icingawebRole, k, v)
		}
	}
	delete(got["roles.ini"], icingawebRole)
	return got.Diff(w.Seed())
}

// icingawebDashletAdded says whether admin's dashboards hold the seed's and the goal's
// dashlet on the dashboard pane (its url as typed, with or without the site's address or a
// leading slash), and nothing else changed.
func icingawebDashletAdded(t testing.TB, w *testenv.IcingaWeb, pane string) string {
	got := w.State(t)
	const file = "dashboards/admin/dashboard.ini"
	key := pane + "." + icingawebDashlet
	row, ok := got[file][key]
	if !ok {
		return fmt.Sprintf("no dashlet %q on the dashboard %s", icingawebDashlet, pane)
	}
	keys := icingawebKeys(row)
	link := keys["url"]
	if u, err := url.Parse(link); err == nil && u.Host != "" {
		link = u.Path
	}
	if strings.TrimPrefix(link, "/") != icingawebDashletURL || keys["title"] != icingawebDashlet || len(keys) != 2 {
		return fmt.Sprintf("the dashlet %s is %q, not the url %s titled %s", key, row, icingawebDashletURL, icingawebDashlet)
	}
	delete(got[file], key)
	return got.Diff(w.Seed())
}

// icingawebAccessControl opens the dashboard and follows the menu's Access Control (its
// Roles tab) and, unless tab is "", that tab.
func icingawebAccessControl(t testing.TB, b *testenv.IcingaWebBrowser, tab string) {
	t.Helper()
	b.Open(t, "/dashboard")
	b.ClickText(t, "Access Control")
	if tab != "" {
		b.ClickText(t, tab)
	}
}

// icingawebAddUser adds user, active, with the goal's password through Add a New User.
func icingawebAddUser(t testing.TB, b *testenv.IcingaWebBrowser, user string) {
	t.Helper()
	icingawebAccessControl(t, b, "Users")
	b.ClickText(t, "Add a New User")
	f := b.Form(t, "IcingaFormsConfigUserUserForm")
	f.Fields.Set("user_name", user)
	f.Fields.Set("password", icingawebNewPassword)
	b.Send(t, f, "btn_submit")
}

// icingawebAddMember picks user under Network Team's Add New Member and presses Add.
func icingawebAddMember(t testing.TB, b *testenv.IcingaWebBrowser, user string) {
	t.Helper()
	icingawebAccessControl(t, b, "User Groups")
	b.ClickText(t, "Network Team")
	b.ClickText(t, "Add New Member")
	f := b.Form(t, "IcingaFormsConfigUserGroupAddMemberForm")
	f.Fields.Set("user_name[]", user)
	b.Send(t, f, "btn_submit")
}

// icingawebCreateRole creates the goal's role for group with its one permission.
func icingawebCreateRole(t testing.TB, b *testenv.IcingaWebBrowser, group string) {
	t.Helper()
	icingawebAccessControl(t, b, "")
	b.ClickText(t, "Create a New Role")
	f := b.Form(t, "IcingaFormsSecurityRoleForm")
	f.Fields.Set("name", icingawebRole)
	f.Fields.Set("groups", group)
	f.Fields.Set("applicationannouncements", "1")
	b.Send(t, f, "btn_submit")
}

// icingawebAddDashlet follows the dashboard's Add Dashlet and adds the goal's dashlet to
// the existing dashboard pane.
func icingawebAddDashlet(t testing.TB, b *testenv.IcingaWebBrowser, pane string) {
	t.Helper()
	b.Open(t, "/dashboard")
	b.ClickText(t, "Add Dashlet")
	f := b.Form(t, "form_dashboard_addurl")
	f.Fields.Set("url", icingawebDashletURL)
	f.Fields.Set("dashlet", icingawebDashlet)
	f.Fields.Set("pane", pane)
	b.Send(t, f, "btn_submit")
}

// icingawebRenameItem opens the shared menu entry item from Shared Navigation and saves it
// under the goal's new name.
func icingawebRenameItem(t testing.TB, b *testenv.IcingaWebBrowser, item string) {
	t.Helper()
	b.Open(t, "/dashboard")
	b.ClickText(t, "Shared Navigation")
	b.ClickInRow(t, item, item)
	f := b.Form(t, "form_config_navigation")
	f.Fields.Set("name", icingawebRenamed)
	b.Send(t, f, "btn_submit")
}

// icingawebPageSize follows the menu's My Account and saves the default page size size to
// the preferences.
func icingawebPageSize(t testing.TB, b *testenv.IcingaWebBrowser, size string) {
	t.Helper()
	b.Open(t, "/dashboard")
	b.ClickText(t, "My Account")
	f := b.Form(t, "form_config_preferences")
	f.Fields.Set("default_page_size", size)
	b.Send(t, f, "btn_submit")
}

// icingawebRemoveAnnouncement follows Announcements, the remove link in the row of the
// seed's i-th announcement and the confirmation's Yes.
func icingawebRemoveAnnouncement(t testing.TB, b *testenv.IcingaWebBrowser, i int) {
	t.Helper()
	b.Open(t, "/dashboard")
	b.ClickText(t, "Announcements")
	b.ClickInRow(t, testenv.IcingaWebSeedAnnouncements[i][1], "Remove this announcement")
	b.Send(t, b.Form(t, "IcingaFormsAnnouncementAnnouncementForm"), "btn_submit")
}
