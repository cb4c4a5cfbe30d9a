//go:build heldout

package e2e

import (
	"fmt"
	"html"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// phpldapadminGoal is an everyday goal on phpLDAPadmin, written three ways as a person
// writes it from what the pages show ({signin} and {url} are filled in per phrasing and
// instance); done reads the directory (ldapsearch) and says "" when the goal's effect is
// there and nothing else in the directory changed, else what it found; do makes the effect
// through phpLDAPadmin's own pages along the goal's path, signed in, and miss a near miss
// the judge must not take for it (what a run gone a little wrong leaves: another group,
// another entry, a value added beside the old one rather than replacing it).
type phpldapadminGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.PhpLDAPadmin) string
	do, miss  func(t testing.TB, w *testenv.PhpLDAPadmin, b *testenv.PhpLDAPadminBrowser)
}

const (
	plaPeople     = "ou=People,dc=example,dc=org"
	plaGroups     = "ou=Groups,dc=example,dc=org"
	plaGarcia     = "uid=mgarcia,ou=People,dc=example,dc=org"
	plaGarciaMail = "m.garcia@example.org"
	plaBrown      = "uid=tbrown,ou=People,dc=example,dc=org"
	plaNovak      = "uid=pnovak,ou=People,dc=example,dc=org"
	plaKim        = "uid=akim,ou=People,dc=example,dc=org"
	plaNovakPhone = "+1 555 0199"
	plaDevelopers = "cn=developers,ou=Groups,dc=example,dc=org"
	plaMarketing  = "cn=marketing,ou=Groups,dc=example,dc=org"
	plaSupport    = "cn=support,ou=Groups,dc=example,dc=org"
)

var phpldapadminGoals = []phpldapadminGoal{
	{
		name: "add a user account",
		phrasings: [3]string{
			`{signin}, expand "dc=example,dc=org" in the tree, click "ou=People", click "Create a child entry", click "Generic: User Account", type "Laura" into "First name", type "Chen" into "Last name", type "lchen" into "User ID", select "support" in "GID Number", type "/home/lchen" into "Home directory", select "Bash" in "Login shell", click "Create Object", then click "Commit"`,
			`{signin}, then open ou=People under dc=example,dc=org in the tree and press "Create a child entry", pick the Generic: User Account template, fill First name with Laura, Last name with Chen and User ID with lchen, choose support as the GID Number, set Home directory to /home/lchen and Login shell to Bash, then press Create Object and Commit`,
			`Sign in first: {signin}. In the tree on the left, expand dc=example,dc=org and click ou=People, then click "Create a child entry" and choose the "Generic: User Account" template. Enter Laura in the field labelled "First name", Chen in the Last name field and lchen in the User ID field. Choose "support" from the GID Number list, change the Home directory field to /home/lchen and pick Bash as the Login shell. Click the Create Object button, then click Commit on the confirmation page and make sure "cn=Laura Chen" is shown.`,
		},
		done: func(t testing.TB, w *testenv.PhpLDAPadmin) string {
			return plaExactly(w, plaWant{added: []plaAdded{{parent: plaPeople, attrs: plaChenAttrs("501")}}})
		},
		do: func(t testing.TB, w *testenv.PhpLDAPadmin, b *testenv.PhpLDAPadminBrowser) {
			plaCreateUser(t, b, "501")
		},
		miss: func(t testing.TB, w *testenv.PhpLDAPadmin, b *testenv.PhpLDAPadminBrowser) {
			plaCreateUser(t, b, "500") // the first group in the list, developers, left chosen
		},
	},
	{
		name: "change a user's e-mail",
		phrasings: [3]string{
			`{signin}, expand "dc=example,dc=org", expand "ou=People", click "uid=mgarcia", replace "Email" with "m.garcia@example.org", click "Update Object", then click "Update Object" again to confirm`,
			`{signin}, then open uid=mgarcia under ou=People in the tree, change the Email field to m.garcia@example.org, press "Update Object" and confirm the change by pressing Update Object on the next page`,
			`Sign in: {signin}. Find Maria Garcia's entry (uid=mgarcia, under ou=People in the tree) and open it. Clear the field labelled "Email" and type m.garcia@example.org, click the Update Object button, then click Update Object again when asked "Do you want to make these changes?" and make sure "m.garcia@example.org" is shown.`,
		},
		done: func(t testing.TB, w *testenv.PhpLDAPadmin) string {
			return plaExactly(w, plaWant{edited: map[string]map[string][]string{plaGarcia: {"mail": {plaGarciaMail}}}})
		},
		do: func(t testing.TB, w *testenv.PhpLDAPadmin, b *testenv.PhpLDAPadminBrowser) {
			plaUpdate(t, b, plaGarcia, url.Values{"new_values[mail][0]": {plaGarciaMail}}, "m.garcia@example.org")
		},
		miss: func(t testing.TB, w *testenv.PhpLDAPadmin, b *testenv.PhpLDAPadminBrowser) {
			// The new address added as a second value ("add value"), the old one kept.
			plaUpdate(t, b, plaGarcia, url.Values{"new_values[mail][1]": {plaGarciaMail}}, "m.garcia@example.org")
		},
	},
	{
		name: "delete a user",
		phrasings: [3]string{
			`{signin}, expand "dc=example,dc=org", expand "ou=People", click "uid=tbrown", click "Delete this entry", click "Delete"`,
			`{signin}, then open Tom Brown's entry uid=tbrown in the tree (under ou=People), press "Delete this entry" and confirm with Delete`,
			`Sign in first: {signin}. Open the entry uid=tbrown under ou=People, click "Delete this entry", and when asked "Are you sure you want to permanently delete this object?" click the Delete button. Make sure uid=tbrown is no longer in the tree.`,
		},
		done: func(t testing.TB, w *testenv.PhpLDAPadmin) string {
			return plaExactly(w, plaWant{removed: []string{plaBrown}})
		},
		do: func(t testing.TB, w *testenv.PhpLDAPadmin, b *testenv.PhpLDAPadminBrowser) {
			plaDelete(t, b, plaBrown)
		},
		miss: func(t testing.TB, w *testenv.PhpLDAPadmin, b *testenv.PhpLDAPadminBrowser) {
			plaDelete(t, b, plaNovak)
		},
	},
	{
		name: "create an organisational unit",
		phrasings: [3]string{
			`{signin}, click "dc=example,dc=org", click "Create a child entry", click "Generic: Organisational Unit", type "Contractors" into "Organisational Unit", click "Create Object", click "Commit"`,
			`{signin}, then under dc=example,dc=org press "Create new entry here", choose the Generic: Organisational Unit template, fill the Organisational Unit field with Contractors, press Create Object and then Commit`,
			`Sign in: {signin}. Open the top entry dc=example,dc=org and click "Create a child entry". Pick the template "Generic: Organisational Unit", type Contractors into the field labelled "Organisational Unit" and click the Create Object button. Click Commit to confirm, then make sure "ou=Contractors" is shown.`,
		},
		done: func(t testing.TB, w *testenv.PhpLDAPadmin) string {
			return plaExactly(w, plaWant{added: []plaAdded{{parent: testenv.PhpLDAPadminBase,
				attrs: map[string][]string{"ou": {"Contractors"}, "objectclass": {"organizationalUnit"}}, exact: true}}})
		},
		do: func(t testing.TB, w *testenv.PhpLDAPadmin, b *testenv.PhpLDAPadminBrowser) {
			plaCreate(t, b, testenv.PhpLDAPadminBase, "Generic: Organisational Unit", url.Values{"new_values[ou][0]": {"Contractors"}}, "ou=Contractors")
		},
		miss: func(t testing.TB, w *testenv.PhpLDAPadmin, b *testenv.PhpLDAPadminBrowser) {
			plaCreate(t, b, plaPeople, "Generic: Organisational Unit", url.Values{"new_values[ou][0]": {"Contractors"}}, "ou=Contractors")
		},
	},
	{
		name: "add a member to a group",
		phrasings: [3]string{
			`{signin}, expand "dc=example,dc=org", expand "ou=Groups", click "cn=developers", click "modify group members", select "akim" in "Available members", click "Add selected >>", click "Save changes", click "Update Object"`,
			`{signin}, then open the group cn=developers under ou=Groups, press "modify group members", move akim from Available members to Group members with "Add selected >>", press Save changes and confirm with Update Object`,
			`Sign in first: {signin}. In the tree, open ou=Groups and click the developers group (cn=developers). Click "modify group members", select akim in the Available members list and click the "Add selected >>" button so that akim appears under Group members. Click Save changes, then click Update Object to confirm, and make sure akim is shown among the members.`,
		},
		done: func(t testing.TB, w *testenv.PhpLDAPadmin) string {
			return plaExactly(w, plaWant{edited: map[string]map[string][]string{plaDevelopers: {"memberuid": {"jsmith", "mgarcia", "akim"}}}})
		},
		do: func(t testing.TB, w *testenv.PhpLDAPadmin, b *testenv.PhpLDAPadminBrowser) {
			plaAddMember(t, b, plaDevelopers, "akim")
		},
		miss: func(t testing.TB, w *testenv.PhpLDAPadmin, b *testenv.PhpLDAPadminBrowser) {
			plaAddMember(t, b, plaDevelopers, "pnovak")
		},
	},
	{
		name: "rename a group",
		phrasings: [3]string{
			`{signin}, expand "dc=example,dc=org", expand "ou=Groups", click "cn=marketing", click "Rename", replace "cn=marketing" with "cn=sales", click "Rename"`,
			`{signin}, then open cn=marketing under ou=Groups, press Rename, change the new name from cn=marketing to cn=sales and press the Rename button`,
			`Sign in: {signin}. Open the marketing group (cn=marketing, under ou=Groups) and click the Rename link. In the box that holds "cn=marketing", type cn=sales instead, click the Rename button and make sure "cn=sales" is shown.`,
		},
		done: func(t testing.TB, w *testenv.PhpLDAPadmin) string {
			renamed := maps.Clone(w.Seeded[testenv.LDAPKey(plaMarketing)].Attrs)
			renamed["cn"] = []string{"sales"}
			return plaExactly(w, plaWant{removed: []string{plaMarketing}, added: []plaAdded{{parent: plaGroups, attrs: renamed, exact: true}}})
		},
		do: func(t testing.TB, w *testenv.PhpLDAPadmin, b *testenv.PhpLDAPadminBrowser) {
			plaRename(t, b, plaMarketing, "cn=sales")
		},
		miss: func(t testing.TB, w *testenv.PhpLDAPadmin, b *testenv.PhpLDAPadminBrowser) {
			plaRename(t, b, plaSupport, "cn=sales")
		},
	},
	{
		name: "search, then change a phone number",
		phrasings: [3]string{
			`{signin}, click "search", type "(sn=Novak)" into "Search Filter", click "Search", click "uid=pnovak", replace "Telephone" with "+1 555 0199", click "Update Object", click "Update Object"`,
			`{signin}, press the search link at the top of the tree, set Search Filter to sn=Novak and press Search; in the results open uid=pnovak, change Telephone to +1 555 0199, press Update Object and then Update Object again`,
			`Sign in first: {signin}. Click "search" above the tree, type (sn=Novak) into the field labelled "Search Filter" and click the Search button. Open the entry uid=pnovak from the results, clear the Telephone field and type "+1 555 0199", then click Update Object and confirm with the Update Object button on the next page. Make sure "+1 555 0199" is shown.`,
		},
		done: func(t testing.TB, w *testenv.PhpLDAPadmin) string {
			return plaExactly(w, plaWant{edited: map[string]map[string][]string{plaNovak: {"telephonenumber": {plaNovakPhone}}}})
		},
		do: func(t testing.TB, w *testenv.PhpLDAPadmin, b *testenv.PhpLDAPadminBrowser) {
			plaSearchAndUpdate(t, b, "(sn=Novak)", "uid=pnovak", plaNovak)
		},
		miss: func(t testing.TB, w *testenv.PhpLDAPadmin, b *testenv.PhpLDAPadminBrowser) {
			plaSearchAndUpdate(t, b, "(sn=Kim)", "uid=akim", plaKim)
		},
	},
}

// plaChenAttrs is the new user account as the goal fills the User Account template in,
// with gid the GID Number chosen.
func plaChenAttrs(gid string) map[string][]string {
	return map[string][]string{"givenname": {"Laura"}, "sn": {"Chen"}, "cn": {"Laura Chen"}, "uid": {"lchen"}, "gidnumber": {gid},
		"homedirectory": {"/home/lchen"}, "loginshell": {"/bin/bash"}, "objectclass": {"inetOrgPerson", "posixAccount"}}
}

// plaCreate opens the "Create Object" page of container (its "Create a child entry"
// link), picks the template labelled template, fills its form with fields, presses Create
// Object and then Commit on the confirmation page, which ends on the new entry's page:
// it must show shown.
func plaCreate(t testing.TB, b *testenv.PhpLDAPadminBrowser, container, template string, fields url.Values, shown string) {
	t.Helper()
	create := testenv.PhpLDAPadminLink(b.Get(t, testenv.EntryPath(container)), "Create a child entry")
	if create == "" {
		t.Fatalf("no Create a child entry link on %s's page", container)
	}
	value := testenv.PhpLDAPadminTemplate(b.Get(t, create), template)
	if value == "" {
		t.Fatalf("no template %q to create under %s", template, container)
	}
	form := testenv.PhpLDAPadminFormOf(t, b.Get(t, create+"&"+url.Values{"template": {value}}.Encode()), `id="entry_form"`)
	for k, v := range fields {
		form.Fields[k] = v
	}
	confirm := b.Send(t, form, "submit")
	if !strings.Contains(confirm, "Do you want to create this entry?") {
		t.Fatalf("Create Object did not ask to confirm:\n%s", confirm)
	}
	if page := b.Send(t, testenv.PhpLDAPadminFormOf(t, confirm, `id="create_form"`), ""); !strings.Contains(page, shown) {
		t.Fatalf("Commit did not end on a page showing %q:\n%s", shown, page)
	}
}

// plaCreateUser creates Laura Chen's account as the goal says, with gid the GID Number
// chosen; the template's scripts fill Common Name in from the first and last names.
func plaCreateUser(t testing.TB, b *testenv.PhpLDAPadminBrowser, gid string) {
	t.Helper()
	plaCreate(t, b, plaPeople, "Generic: User Account", url.Values{
		"new_values[givenname][0]": {"Laura"}, "new_values[sn][0]": {"Chen"}, "new_values[cn][0]": {"Laura Chen"},
		"new_values[uid][0]": {"lchen"}, "new_values[gidnumber][]": {gid}, "new_values[homedirectory][0]": {"/home/lchen"},
		"new_values[loginshell][]": {"/bin/bash"},
	}, "cn=Laura Chen")
}

// plaUpdate opens the entry's page, changes its form's fields, presses Update Object and
// then Update Object again on the page that asks "Do you want to make these changes?";
// the entry's page it ends on must show shown.
func plaUpdate(t testing.TB, b *testenv.PhpLDAPadminBrowser, dn string, fields url.Values, shown string) {
	t.Helper()
	plaUpdateFrom(t, b, b.Get(t, testenv.EntryPath(dn)), fields, shown)
}

func plaUpdateFrom(t testing.TB, b *testenv.PhpLDAPadminBrowser, entry string, fields url.Values, shown string) {
	t.Helper()
	form := testenv.PhpLDAPadminFormOf(t, entry, `id="entry_form"`)
	for k, v := range fields {
		form.Fields[k] = v
	}
	plaConfirmUpdate(t, b, b.Send(t, form, "submit"), shown)
}

// plaConfirmUpdate presses Update Object on the page that asks to confirm a change.
func plaConfirmUpdate(t testing.TB, b *testenv.PhpLDAPadminBrowser, confirm, shown string) {
	t.Helper()
	if !strings.Contains(confirm, "Do you want to make these changes?") {
		t.Fatalf("Update Object did not ask to confirm:\n%s", confirm)
	}
	if page := b.Send(t, testenv.PhpLDAPadminFormOf(t, confirm, `id="update_form"`), ""); !strings.Contains(page, shown) {
		t.Fatalf("confirming did not end on a page showing %q:\n%s", shown, page)
	}
}

// plaDelete follows the entry's "Delete this entry" link and presses Delete.
func plaDelete(t testing.TB, b *testenv.PhpLDAPadminBrowser, dn string) {
	t.Helper()
	del := testenv.PhpLDAPadminLink(b.Get(t, testenv.EntryPath(dn)), "Delete this entry")
	if del == "" {
		t.Fatalf("no Delete this entry link on %s's page", dn)
	}
	page := b.Send(t, testenv.PhpLDAPadminFormOf(t, b.Get(t, del), `id="delete_form"`), "submit")
	if !strings.Contains(page, "Successfully deleted DN <b>"+dn+"</b>") {
		t.Fatalf("Delete did not say the entry was deleted:\n%s", page)
	}
}

// plaAddMember follows the group's "modify group members" link, moves uid from Available
// members to Group members and presses Save changes (the page's script adds each group
// member to the form as it is sent), then confirms.
func plaAddMember(t testing.TB, b *testenv.PhpLDAPadminBrowser, group, uid string) {
	t.Helper()
	modify := testenv.PhpLDAPadminLink(b.Get(t, testenv.EntryPath(group)), "modify group members")
	if modify == "" {
		t.Fatalf("no modify group members link on %s's page", group)
	}
	page := b.Get(t, modify)
	form := testenv.PhpLDAPadminFormOf(t, page, `id="member"`)
	if !strings.Contains(page, "<option>"+uid+"</option>") {
		t.Fatalf("%s is not among the available members:\n%s", uid, page)
	}
	// The members the Group members list shows, then the one moved there.
	list := regexp.MustCompile(`(?s)<select name="members"[^>]*>(.*?)</select>`).FindStringSubmatch(page)
	if list == nil {
		t.Fatalf("no Group members list:\n%s", page)
	}
	var members []string
	for _, m := range regexp.MustCompile(`<option>([^<]*)</option>`).FindAllStringSubmatch(list[1], -1) {
		members = append(members, html.UnescapeString(m[1]))
	}
	for i, m := range append(members, uid) {
		form.Fields.Set("new_values[memberuid]["+strconv.Itoa(i)+"]", m)
	}
	plaConfirmUpdate(t, b, b.Send(t, form, "save"), uid)
}

// plaRename follows the entry's Rename link, types rdn into its box and presses Rename.
func plaRename(t testing.TB, b *testenv.PhpLDAPadminBrowser, dn, rdn string) {
	t.Helper()
	rename := testenv.PhpLDAPadminLink(b.Get(t, testenv.EntryPath(dn)), "Rename")
	if rename == "" {
		t.Fatalf("no Rename link on %s's page", dn)
	}
	form := testenv.PhpLDAPadminFormOf(t, b.Get(t, rename), `action="cmd.php?cmd=rename"`)
	form.Fields.Set("new_rdn", rdn)
	if page := b.Send(t, form, ""); !strings.Contains(page, "Rename successful") || !strings.Contains(page, rdn) {
		t.Fatalf("Rename did not say it renamed the entry to %s:\n%s", rdn, page)
	}
}

// plaSearchAndUpdate searches the directory with filter on the search page, opens the
// result named result and changes its Telephone to the goal's number.
func plaSearchAndUpdate(t testing.TB, b *testenv.PhpLDAPadminBrowser, filter, result, dn string) {
	t.Helper()
	search := testenv.PhpLDAPadminLink(b.Get(t, "/index.php"), "search")
	if search == "" {
		t.Fatalf("no search link in the tree")
	}
	form := testenv.PhpLDAPadminFormOf(t, b.Get(t, search), `id="advanced_search_form"`)
	form.Fields.Set("filter", filter)
	found := testenv.PhpLDAPadminLink(b.Send(t, form, "search"), result)
	if found == "" {
		t.Fatalf("the search for %s did not list %s", filter, result)
	}
	entry := b.Get(t, found)
	if !strings.Contains(entry, "Distinguished Name: <b>"+dn+"</b>") {
		t.Fatalf("the result %s opened another entry:\n%s", result, entry)
	}
	plaUpdateFrom(t, b, entry, url.Values{"new_values[telephonenumber][0]": {plaNovakPhone}}, plaNovakPhone)
}

// plaWant is what a goal changes in the directory: the entries it adds (each matched by
// the entry it is under and its attributes), the entries it removes, and the attributes it
// sets on entries of the seed (DN → attribute → values, nil for none); every other entry
// and attribute must be as seeded.
type plaWant struct {
	added   []plaAdded
	removed []string
	edited  map[string]map[string][]string
}

// plaAdded is an entry a goal adds: under parent, with attrs (named in lower case); exact
// says it holds no other attribute (else those the goal leaves to the template, a number
// it picks, are not compared).
type plaAdded struct {
	parent string
	attrs  map[string][]string
	exact  bool
}

// plaExactly says "" when the directory is the seed with want's changes and nothing else,
// else the first difference found.
func plaExactly(w *testenv.PhpLDAPadmin, want plaWant) string {
	now, err := w.Entries()
	if err != nil {
		return err.Error()
	}
	removed := map[string]bool{}
	for _, dn := range want.removed {
		removed[testenv.LDAPKey(dn)] = true
	}
	edited := map[string]map[string][]string{}
	for dn, attrs := range want.edited {
		edited[testenv.LDAPKey(dn)] = attrs
	}
	for _, key := range slices.Sorted(maps.Keys(w.Seeded)) {
		was := w.Seeded[key]
		got, ok := now[key]
		switch {
		case removed[key] && ok:
			return was.DN + " is still there"
		case removed[key]:
			continue
		case !ok:
			return was.DN + " is gone"
		}
		attrs := maps.Clone(was.Attrs)
		for k, v := range edited[key] {
			if v == nil {
				delete(attrs, k)
			} else {
				attrs[k] = v
			}
		}
		if why := plaHolds(got, attrs, true); why != "" {
			return why
		}
	}
	return plaAddedAre(now, w.Seeded, want.added)
}

// plaAddedAre says whether the entries of now that the seed lacks are those wanted, one
// each.
func plaAddedAre(now, seeded map[string]testenv.LDAPEntry, want []plaAdded) string {
	var extra []testenv.LDAPEntry
	for _, key := range slices.Sorted(maps.Keys(now)) {
		if _, ok := seeded[key]; !ok {
			extra = append(extra, now[key])
		}
	}
	if len(extra) != len(want) {
		names := make([]string, len(extra))
		for i, e := range extra {
			names[i] = e.DN
		}
		return fmt.Sprintf("the directory has %d new entries, not %d: %q", len(extra), len(want), names)
	}
	for _, a := range want {
		why := fmt.Sprintf("no new entry under %s", a.parent)
		for _, e := range extra {
			if testenv.LDAPParent(e.DN) != testenv.LDAPKey(a.parent) {
				continue
			}
			if why = plaHolds(e, a.attrs, a.exact); why == "" {
				break
			}
		}
		if why != "" {
			return why
		}
	}
	return ""
}

// plaHolds says whether the entry holds attrs (values in any order; objectClass in any
// case, "top" aside), and no other attribute when exact.
func plaHolds(e testenv.LDAPEntry, attrs map[string][]string, exact bool) string {
	for _, k := range slices.Sorted(maps.Keys(attrs)) {
		if !plaSameValues(k, e.Values(k), attrs[k]) {
			return fmt.Sprintf("%s has %s %q, not %q", e.DN, k, e.Values(k), attrs[k])
		}
	}
	if exact {
		for k, v := range e.Attrs {
			if _, ok := attrs[k]; !ok {
				return fmt.Sprintf("%s also has %s %q", e.DN, k, v)
			}
		}
	}
	return ""
}

func plaSameValues(attr string, got, want []string) bool {
	norm := func(vs []string) []string {
		var out []string
		for _, v := range vs {
			if attr == "objectclass" {
				if v = strings.ToLower(v); v == "top" {
					continue
				}
			}
			out = append(out, v)
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(norm(got), norm(want))
}
