//go:build heldout

package e2e

import (
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// lamGoal is an everyday goal on LDAP Account Manager, written three ways as a person
// writes it from what the pages show ({signin} is the phrasing's way of signing in); done
// reads the directory with ldapsearch and says "" when the goal's effect is there and
// nothing else in the directory changed, else what it found; do makes the effect through
// LAM's own pages along the goal's path, and miss a near miss the judge must not take for
// it (another user or group, a neighbouring name or value).
type lamGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, l *testenv.LAM) string
	do, miss  func(t testing.TB, b *testenv.LAMBrowser)
}

const (
	lamNewFirst   = "Sofia"
	lamNewLast    = "Lindgren"
	lamNewUID     = "slindgren"
	lamPhone      = "+45 3312 4499"
	lamTitle      = "Support Manager"
	lamNewGroup   = "design"
	lamGroupDesc  = "Product design team"
	lamSalesDesc  = "Sales and partnerships"
	lamSave       = "accountContainerSaveAccount"
	lamUserList   = "../../templates/lists/list.php?type=user"
	lamGroupList  = "../../templates/lists/list.php?type=group"
	lamCreatedMsg = "Account was created successfully"
	lamEditedMsg  = "Account was modified successfully"
)

var lamGoals = []lamGoal{
	{
		name: "create a user",
		phrasings: [3]string{
			`{signin}, click "New user", type "Sofia" into "First name", type "Lindgren" into "Last name", click "Unix", type "slindgren" into "User name", click "Save"`,
			`{signin}, then press New user; fill First name with Sofia and Last name with Lindgren, open the Unix tab, make sure User name is slindgren and press Save`,
			`{signin} On the user list click the "New user" button. In the field labelled "First name" enter "Sofia" and in the field labelled "Last name" enter "Lindgren". Then switch to the Unix tab, put "slindgren" in the User name field and click Save. Check that the page says "Account was created successfully".`,
		},
		done: func(t testing.TB, l *testenv.LAM) string {
			return lamAdded(l, "uid", lamNewUID, func(e testenv.LDAPEntry) string {
				if !slices.Contains(e.Values("objectClass"), "posixAccount") {
					return "it is not a Unix account"
				}
				return lamWant(e, "givenName", lamNewFirst) + lamWant(e, "sn", lamNewLast)
			})
		},
		do:   func(t testing.TB, b *testenv.LAMBrowser) { lamCreateUser(t, b, lamNewFirst, lamNewLast, lamNewUID) },
		miss: func(t testing.TB, b *testenv.LAMBrowser) { lamCreateUser(t, b, lamNewFirst, "Lindberg", "slindberg") },
	},
	{
		name: "change a user's telephone number and job title",
		phrasings: [3]string{
			`{signin}, click "Edit" in the row of "mrossi", type "+45 3312 4499" into "Telephone number", type "Support Manager" into "Job title", click "Save"`,
			`{signin}, then click the Edit icon next to mrossi, change Telephone number to +45 3312 4499 and Job title to Support Manager and press Save`,
			`{signin} In the user list, open Marco Rossi (user name "mrossi") with the Edit icon of his row. Replace the Telephone number with "+45 3312 4499" and the Job title with "Support Manager". Then click the "Save" button.`,
		},
		done: func(t testing.TB, l *testenv.LAM) string {
			return lamExactly(l, func(want map[string]testenv.LDAPEntry) {
				lamSet(want, lamUserDN("mrossi"), "telephoneNumber", lamPhone)
				lamSet(want, lamUserDN("mrossi"), "title", lamTitle)
			})
		},
		do: func(t testing.TB, b *testenv.LAMBrowser) {
			lamEdit(t, b, "user", lamUserDN("mrossi"), "", map[string]string{"telephoneNumber_0": lamPhone, "title_0": lamTitle})
		},
		miss: func(t testing.TB, b *testenv.LAMBrowser) {
			// The telephone number alone: the job title left as it was.
			lamEdit(t, b, "user", lamUserDN("mrossi"), "", map[string]string{"telephoneNumber_0": lamPhone})
		},
	},
	{
		name: "delete a user",
		phrasings: [3]string{
			`{signin}, click "Delete" in the row of "ewilson", click "Delete"`,
			`{signin}, then press the Delete icon next to ewilson and confirm with Delete`,
			`{signin} In the row of the user "ewilson" (Emma Wilson), click the Delete icon. When LAM asks whether you really want to remove the account, click the "Delete" button.`,
		},
		done: func(t testing.TB, l *testenv.LAM) string {
			got, _ := l.Entries()
			return lamExactly(l, func(want map[string]testenv.LDAPEntry) {
				delete(want, testenv.LDAPKey(lamUserDN("ewilson")))
				// LAM takes a user it deletes out of the groups that list it as well.
				if g := got[testenv.LDAPKey(lamGroupDN("sales"))]; !slices.Contains(g.Values("memberUid"), "ewilson") {
					lamSet(want, lamGroupDN("sales"), "memberUid")
				}
			})
		},
		do:   func(t testing.TB, b *testenv.LAMBrowser) { lamDeleteUser(t, b, "ewilson") },
		miss: func(t testing.TB, b *testenv.LAMBrowser) { lamDeleteUser(t, b, "rokafor") },
	},
	{
		name: "create a group",
		phrasings: [3]string{
			`{signin}, click "Groups", click "New group", type "design" into "Group name", type "Product design team" into "Description", click "Save"`,
			`{signin}, then open Groups and press New group; fill Group name with design and Description with Product design team, then press Save`,
			`{signin} Go to the Groups tab and click the "New group" button. Enter "design" in the field labelled "Group name" and "Product design team" in the Description field, then click Save.`,
		},
		done: func(t testing.TB, l *testenv.LAM) string {
			return lamAdded(l, "cn", lamNewGroup, func(e testenv.LDAPEntry) string {
				if !slices.Contains(e.Values("objectClass"), "posixGroup") {
					return "it is not a Unix group"
				}
				return lamWant(e, "description", lamGroupDesc)
			})
		},
		do:   func(t testing.TB, b *testenv.LAMBrowser) { lamCreateGroup(t, b, lamNewGroup) },
		miss: func(t testing.TB, b *testenv.LAMBrowser) { lamCreateGroup(t, b, "designers") },
	},
	{
		name: "add a member to a group",
		phrasings: [3]string{
			`{signin}, click "Groups", click "Edit" in the row of "helpdesk", click "Edit members", select "asato (Aiko Sato)" in "Available users", click the arrow pointing left, click "Back", click "Save"`,
			`{signin}, then go to Groups, click the Edit icon next to helpdesk and press Edit members; pick asato (Aiko Sato) in the Available users list, move it over to Selected users with the left arrow, press Back and then Save`,
			`{signin} Open the Groups list and edit the group "helpdesk". Click the "Edit members" button. In the "Available users" list choose "asato (Aiko Sato)" and click the arrow that points left, so that asato appears under "Selected users". Click "Back", then click "Save".`,
		},
		done: func(t testing.TB, l *testenv.LAM) string {
			return lamExactly(l, func(want map[string]testenv.LDAPEntry) {
				lamSet(want, lamGroupDN("helpdesk"), "memberUid", "rokafor", "mrossi", "asato")
			})
		},
		do:   func(t testing.TB, b *testenv.LAMBrowser) { lamAddMember(t, b, "helpdesk", "asato") },
		miss: func(t testing.TB, b *testenv.LAMBrowser) { lamAddMember(t, b, "helpdesk", "hlarsen") },
	},
	{
		name: "change a user's primary group",
		phrasings: [3]string{
			`{signin}, click "Edit" in the row of "rokafor", click "Unix", select "sales" in "Primary group", click "Save"`,
			`{signin}, then click the Edit icon next to rokafor, open the Unix tab, set Primary group to sales and press Save`,
			`{signin} Edit the user "rokafor" (Ruth Okafor) from the user list. On the Unix tab, choose "sales" from the Primary group list, then click the "Save" button.`,
		},
		done: func(t testing.TB, l *testenv.LAM) string {
			return lamExactly(l, func(want map[string]testenv.LDAPEntry) {
				lamSet(want, lamUserDN("rokafor"), "gidNumber", "10003")
			})
		},
		do:   func(t testing.TB, b *testenv.LAMBrowser) { lamPrimaryGroup(t, b, "rokafor", "sales") },
		miss: func(t testing.TB, b *testenv.LAMBrowser) { lamPrimaryGroup(t, b, "rokafor", "engineering") },
	},
	{
		name: "change a group's description",
		phrasings: [3]string{
			`{signin}, click "Groups", click "Edit" in the row of "sales", type "Sales and partnerships" into "Description", click "Save"`,
			`{signin}, then open Groups, click the Edit icon next to sales, change Description to Sales and partnerships and press Save`,
			`{signin} Go to Groups and open the group "sales" with its Edit icon. Replace the text in the field labelled "Description" with "Sales and partnerships" and click Save. Check that the page says "Account was modified successfully".`,
		},
		done: func(t testing.TB, l *testenv.LAM) string {
			return lamExactly(l, func(want map[string]testenv.LDAPEntry) {
				lamSet(want, lamGroupDN("sales"), "description", lamSalesDesc)
			})
		},
		do: func(t testing.TB, b *testenv.LAMBrowser) {
			lamEdit(t, b, "group", lamGroupDN("sales"), "", map[string]string{"description": lamSalesDesc})
		},
		miss: func(t testing.TB, b *testenv.LAMBrowser) {
			lamEdit(t, b, "group", lamGroupDN("sales"), "", map[string]string{"description": "Sales and partners"})
		},
	},
}

func lamUserDN(uid string) string   { return "uid=" + uid + "," + testenv.LAMPeople }
func lamGroupDN(name string) string { return "cn=" + name + "," + testenv.LAMGroups }

// lamEditLink and lamDeleteLink are the addresses of a list row's Edit and Delete icons,
// as the list writes them (unescaped).
func lamEditLink(typ, dn string) string {
	return "../account/edit.php?type=" + typ + "&DN='" + url.QueryEscape(dn) + "'"
}

func lamDeleteLink(typ, dn string) string {
	return "deletelink.php?type=" + typ + "&DN='" + url.QueryEscape(dn) + "'"
}

// lamSame says whether two entries hold the same attributes with the same values, in any
// order (LAM may write a multi-valued attribute back in another order).
func lamSame(a, b testenv.LDAPEntry) bool {
	if len(a.Attrs) != len(b.Attrs) {
		return false
	}
	for k, av := range a.Attrs {
		bv, ok := b.Attrs[k]
		if !ok || len(av) != len(bv) {
			return false
		}
		x, y := slices.Clone(av), slices.Clone(bv)
		sort.Strings(x)
		sort.Strings(y)
		if !slices.Equal(x, y) {
			return false
		}
	}
	return true
}

// lamDiffers says how the directory differs from want ("" when it holds exactly that).
func lamDiffers(l *testenv.LAM, want map[string]testenv.LDAPEntry) string {
	got, err := l.Entries()
	if err != nil {
		return err.Error()
	}
	return lamDiff(got, want)
}

func lamDiff(got, want map[string]testenv.LDAPEntry) string {
	var diffs []string
	for k, w := range want {
		g, ok := got[k]
		switch {
		case !ok:
			diffs = append(diffs, "no "+w.DN)
		case !lamSame(g, w):
			diffs = append(diffs, g.DN+": "+lamAttrDiff(g, w))
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			diffs = append(diffs, "an extra entry "+g.String())
		}
	}
	sort.Strings(diffs)
	return strings.Join(diffs, "; ")
}

// lamAttrDiff names the attributes of got whose values are not want's.
func lamAttrDiff(got, want testenv.LDAPEntry) string {
	var diffs []string
	for _, e := range []testenv.LDAPEntry{got, want} {
		for k := range e.Attrs {
			one := func(x testenv.LDAPEntry) testenv.LDAPEntry {
				return testenv.LDAPEntry{Attrs: map[string][]string{k: x.Attrs[k]}}
			}
			d := fmt.Sprintf("%s is %q, not %q", k, got.Attrs[k], want.Attrs[k])
			if !lamSame(one(got), one(want)) && !slices.Contains(diffs, d) {
				diffs = append(diffs, d)
			}
		}
	}
	sort.Strings(diffs)
	return strings.Join(diffs, ", ")
}

// lamExactly says whether the directory holds the seed changed by change and nothing else.
func lamExactly(l *testenv.LAM, change func(map[string]testenv.LDAPEntry)) string {
	want := map[string]testenv.LDAPEntry{}
	for k, e := range l.Seeded {
		attrs := map[string][]string{}
		for a, v := range e.Attrs {
			attrs[a] = slices.Clone(v)
		}
		want[k] = testenv.LDAPEntry{DN: e.DN, Attrs: attrs}
	}
	change(want)
	return lamDiffers(l, want)
}

// lamSet sets an attribute of the entry at dn in want to values (none removes it).
func lamSet(want map[string]testenv.LDAPEntry, dn, attr string, values ...string) {
	e := want[testenv.LDAPKey(dn)]
	if len(values) == 0 {
		delete(e.Attrs, strings.ToLower(attr))
		return
	}
	e.Attrs[strings.ToLower(attr)] = values
}

// lamAdded says whether the directory holds the seed and one new entry whose attr is
// value (wherever LAM named it) that check passes ("" when it does), and nothing else.
func lamAdded(l *testenv.LAM, attr, value string, check func(testenv.LDAPEntry) string) string {
	got, err := l.Entries()
	if err != nil {
		return err.Error()
	}
	var added []string
	for k, e := range got {
		if _, seeded := l.Seeded[k]; !seeded && slices.Contains(e.Values(attr), value) {
			added = append(added, k)
		}
	}
	if len(added) != 1 {
		return fmt.Sprintf("%d new entries with %s %s", len(added), attr, value)
	}
	if why := check(got[added[0]]); why != "" {
		return got[added[0]].DN + ": " + why
	}
	delete(got, added[0])
	return lamDiff(got, l.Seeded)
}

// lamWant says whether an entry's attribute holds just want.
func lamWant(e testenv.LDAPEntry, attr, want string) string {
	if got := e.Values(attr); !slices.Equal(got, []string{want}) {
		return fmt.Sprintf("%s is %q, not %q; ", attr, got, want)
	}
	return ""
}

// lamShows checks that the page the browser is on shows each label a goal names.
func lamShows(t testing.TB, b *testenv.LAMBrowser, labels ...string) {
	t.Helper()
	text := testenv.LAMText(b.Page())
	for _, l := range labels {
		if !strings.Contains(text, l) {
			t.Fatalf("lam: the page does not show %q: %s", l, text)
		}
	}
}

// lamSaved presses the account page's Save and checks LAM's answer says so.
func lamSaved(t testing.TB, b *testenv.LAMBrowser, f *testenv.PhpLDAPadminForm, msg string) {
	t.Helper()
	if page := testenv.LAMText(b.Send(t, f, lamSave)); !strings.Contains(page, msg) {
		t.Fatalf("lam: saving did not say %q: %s", msg, page)
	}
}

// lamCreateUser opens the user list, presses New user, fills First name and Last name on
// the Personal tab, opens the Unix tab, puts uid in User name and presses Save.
func lamCreateUser(t testing.TB, b *testenv.LAMBrowser, first, last, uid string) {
	t.Helper()
	b.Click(t, lamUserList)
	lamShows(t, b, "New user")
	b.Send(t, b.Form(t, "new"), "new")
	lamShows(t, b, "Personal", "Unix", "First name", "Last name", "Save")
	f := b.Form(t, lamSave)
	f.Fields.Set("givenName", first)
	f.Fields.Set("sn", last)
	b.Send(t, f, "form_main_posixAccount")
	lamShows(t, b, "User name", "Primary group")
	f = b.Form(t, lamSave)
	f.Fields.Set("uid", uid)
	lamSaved(t, b, f, lamCreatedMsg)
}

// lamEdit opens the list of typ ("user", "group"), follows the Edit icon of dn's row, opens
// the tab named tab ("" for the first), changes fields and presses Save.
func lamEdit(t testing.TB, b *testenv.LAMBrowser, typ, dn, tab string, fields map[string]string) {
	t.Helper()
	b.Click(t, "../../templates/lists/list.php?type="+typ)
	b.Click(t, lamEditLink(typ, dn))
	if typ == "user" {
		lamShows(t, b, "Telephone number", "Job title", "Save")
	} else {
		lamShows(t, b, "Description", "Save")
	}
	if tab != "" {
		b.Send(t, b.Form(t, tab), tab)
	}
	f := b.Form(t, lamSave)
	for k, v := range fields {
		f.Fields.Set(k, v)
	}
	lamSaved(t, b, f, lamEditedMsg)
}

// lamPrimaryGroup picks group in the Primary group list of uid's Unix tab and saves.
func lamPrimaryGroup(t testing.TB, b *testenv.LAMBrowser, uid, group string) {
	t.Helper()
	b.Click(t, lamUserList)
	b.Click(t, lamEditLink("user", lamUserDN(uid)))
	lamShows(t, b, "Unix")
	b.Send(t, b.Form(t, "form_main_posixAccount"), "form_main_posixAccount")
	lamShows(t, b, "Primary group")
	gid := ""
	for v, text := range testenv.LAMOptions(b.Page(), "gidNumber") {
		if text == group {
			gid = v
		}
	}
	if gid == "" {
		t.Fatalf("lam: the Primary group list has no %s: %v", group, testenv.LAMOptions(b.Page(), "gidNumber"))
	}
	f := b.Form(t, lamSave)
	f.Fields.Set("gidNumber", gid)
	lamSaved(t, b, f, lamEditedMsg)
}

// lamDeleteUser follows the Delete icon of uid's row and confirms with Delete.
func lamDeleteUser(t testing.TB, b *testenv.LAMBrowser, uid string) {
	t.Helper()
	b.Click(t, lamUserList)
	b.Click(t, lamDeleteLink("user", lamUserDN(uid)))
	lamShows(t, b, "Do you really want to remove the following accounts?", "Delete")
	if page := testenv.LAMText(b.Send(t, b.Form(t, "delete"), "delete")); !strings.Contains(page, "Deleted DN: "+lamUserDN(uid)) {
		t.Fatalf("lam: deleting %s did not: %s", uid, page)
	}
}

// lamCreateGroup opens the group list, presses New group, fills Group name and
// Description and presses Save.
func lamCreateGroup(t testing.TB, b *testenv.LAMBrowser, name string) {
	t.Helper()
	b.Click(t, lamGroupList)
	lamShows(t, b, "New group")
	b.Send(t, b.Form(t, "new"), "new")
	lamShows(t, b, "Group name", "Description", "Save")
	f := b.Form(t, lamSave)
	f.Fields.Set("cn", name)
	f.Fields.Set("description", lamGroupDesc)
	lamSaved(t, b, f, lamCreatedMsg)
}

// lamAddMember edits group, presses Edit members, picks uid in Available users, presses
// the left arrow that moves it to Selected users, then Back and Save.
func lamAddMember(t testing.TB, b *testenv.LAMBrowser, group, uid string) {
	t.Helper()
	b.Click(t, lamGroupList)
	b.Click(t, lamEditLink("group", lamGroupDN(group)))
	lamShows(t, b, "Edit members")
	b.Send(t, b.Form(t, "form_subpage_posixGroup_user_open"), "form_subpage_posixGroup_user_open")
	lamShows(t, b, "Available users", "Selected users", "Back")
	if _, ok := testenv.LAMOptions(b.Page(), "members_2[]")[uid]; !ok {
		t.Fatalf("lam: Available users does not offer %s: %v", uid, testenv.LAMOptions(b.Page(), "members_2[]"))
	}
	f := b.Form(t, "members_left")
	f.Fields.Set("members_2[]", uid)
	b.Send(t, f, "members_left")
	if _, ok := testenv.LAMOptions(b.Page(), "members_1[]")[uid]; !ok {
		t.Fatalf("lam: %s is not under Selected users: %s", uid, testenv.LAMText(b.Page()))
	}
	b.Send(t, b.Form(t, "form_subpage_posixGroup_attributes_back"), "form_subpage_posixGroup_attributes_back")
	lamSaved(t, b, b.Form(t, lamSave), lamEditedMsg)
}

// lamChanged says "" once the directory differs from the seed.
func lamChanged(l *testenv.LAM) string {
	if lamDiffers(l, l.Seeded) == "" {
		return "the directory is still the seed's"
	}
	return ""
}
