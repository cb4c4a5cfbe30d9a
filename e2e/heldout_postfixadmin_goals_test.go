//go:build heldout

package e2e

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// postfixadminGoal is an everyday goal on Postfix Admin, written three ways as a person
// writes it from what the pages show ({signin} is filled in per phrasing); done reads the
// app's database (its domain, mailbox, alias, admin and domain_admins tables) and says ""
// when the goal's effect is there and nothing else changed, else what it found; do makes
// the effect through Postfix Admin's own pages along the goal's path, signed in, and miss a
// near miss the judge must not take for it (what a run gone a little wrong leaves: another
// value, another row, a field left as it was).
type postfixadminGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.PostfixAdmin) string
	do, miss  func(t testing.TB, w *testenv.PostfixAdmin, b *testenv.PostfixAdminBrowser)
}

// pfaRows is a change to one table: a row's key → its columns (nil: the row is gone).
type pfaRows = map[string]map[string]string

const (
	pfaDavePassword  = "Welcome-2024"
	pfaMariaPassword = "Shop-admin-2024"
)

var postfixadminGoals = []postfixadminGoal{
	{
		name: "add a domain",
		phrasings: [3]string{
			`{signin}, click "Domain List", click "New Domain", type "example.com" into "Domain", type "Berlin branch" into "Description", replace "Mailboxes" with "25", click "Add Domain"`,
			`{signin}, then open the Domain List menu and press "New Domain"; fill the Domain field with example.com, Description with "Berlin branch" and Mailboxes with 25, and press "Add Domain"`,
			`Sign in: {signin}. Then click Domain List at the top and choose New Domain. Enter example.com in the field labelled "Domain" and "Berlin branch" in the Description field, change the Mailboxes field to 25, then click the Add Domain button.`,
		},
		done: func(t testing.TB, w *testenv.PostfixAdmin) string {
			return w.Differs(t, testenv.PostfixAdminState{"domain": pfaRows{"example.com": {"description": "Berlin branch", "mailboxes": "25", "active": "1", "backupmx": "0"}}})
		},
		do: func(t testing.TB, w *testenv.PostfixAdmin, b *testenv.PostfixAdminBrowser) {
			pfaAddDomain(t, b, "25")
		},
		miss: func(t testing.TB, w *testenv.PostfixAdmin, b *testenv.PostfixAdminBrowser) {
			pfaAddDomain(t, b, "") // the Mailboxes field left as the form fills it
		},
	},
	{
		name: "add a mailbox with a name and quota",
		phrasings: [3]string{
			`{signin}, click "Virtual List", click "Add Mailbox", type "dave" into "Username", select "example.org" in the list beside "Username", type "Welcome-2024" into "Password", type "Welcome-2024" into "Password (again)", type "Dave Wilson" into "Name", replace "Quota" with "200", click "Add Mailbox"`,
			`{signin}, then open the Virtual List menu and press "Add Mailbox"; fill Username with dave and pick example.org in the domain list, fill "Password" with Welcome-2024 and "Password (again)" with Welcome-2024, fill "Name" with "Dave Wilson", set "Quota" to 200 and press "Add Mailbox"`,
			`Sign in first: {signin}. Open the Virtual List menu and click Add Mailbox. Type dave in the Username field and choose example.org from the list beside it. Enter "Welcome-2024" in the field labelled "Password" and again in the "Password (again)" field, type "Dave Wilson" in the Name field and change the Quota field to 200. Click the Add Mailbox button.`,
		},
		done: func(t testing.TB, w *testenv.PostfixAdmin) string {
			if why := w.Differs(t, testenv.PostfixAdminState{
				"mailbox": pfaRows{"dave@example.org": {"name": "Dave Wilson", "quota": testenv.PostfixAdminQuota(200), "domain": "example.org", "active": "1"}},
				"alias":   pfaRows{"dave@example.org": {"goto": "dave@example.org", "active": "1"}},
			}); why != "" {
				return why
			}
			return pfaPassword(t, w, "mailbox", "dave@example.org", pfaDavePassword)
		},
		do: func(t testing.TB, w *testenv.PostfixAdmin, b *testenv.PostfixAdminBrowser) {
			pfaAddMailbox(t, b, "200")
		},
		miss: func(t testing.TB, w *testenv.PostfixAdmin, b *testenv.PostfixAdminBrowser) {
			pfaAddMailbox(t, b, "20")
		},
	},
	{
		name: "add an alias",
		phrasings: [3]string{
			`{signin}, click "Virtual List", click "Add Alias", type "jobs" into "Alias", select "example.org" in the list beside "Alias", type "carol@example.org" into "To", click "Add Alias"`,
			`{signin}, then open the Virtual List menu and press "Add Alias"; fill Alias with jobs, choose the domain example.org beside it, put carol@example.org in the "To" box and press "Add Alias"`,
			`Sign in: {signin}. Open the Virtual List menu and click Add Alias. Type "jobs" into the field labelled "Alias" and pick example.org from the list next to it. Write carol@example.org in the To field, then click the Add Alias button.`,
		},
		done: func(t testing.TB, w *testenv.PostfixAdmin) string {
			return w.Differs(t, testenv.PostfixAdminState{"alias": pfaRows{"jobs@example.org": {"goto": "carol@example.org", "domain": "example.org", "active": "1"}}})
		},
		do: func(t testing.TB, w *testenv.PostfixAdmin, b *testenv.PostfixAdminBrowser) {
			pfaAddAlias(t, b, "carol@example.org")
		},
		miss: func(t testing.TB, w *testenv.PostfixAdmin, b *testenv.PostfixAdminBrowser) {
			pfaAddAlias(t, b, "bob@example.org")
		},
	},
	{
		name: "change a mailbox's name",
		phrasings: [3]string{
			`{signin}, click "Virtual List", select "example.org" in the domain list, click "edit" in the row of "bob@example.org", replace "Name" with "Robert Jones", click "Save changes"`,
			`{signin}, then open the Virtual List of example.org, press the edit button of the mailbox bob@example.org, change the "Name" field from Bob Jones to Robert Jones and press "Save changes"`,
			`Sign in first: {signin}. Click Virtual List at the top, then choose example.org in the domain list. Click the "edit" button in the row of "bob@example.org". Clear the Name field and type "Robert Jones", then click the Save changes button.`,
		},
		done: func(t testing.TB, w *testenv.PostfixAdmin) string {
			return w.Differs(t, testenv.PostfixAdminState{"mailbox": pfaRows{"bob@example.org": {"name": "Robert Jones"}}})
		},
		do: func(t testing.TB, w *testenv.PostfixAdmin, b *testenv.PostfixAdminBrowser) {
			pfaEditMailbox(t, b, "bob@example.org", url.Values{"value[name]": {"Robert Jones"}})
		},
		miss: func(t testing.TB, w *testenv.PostfixAdmin, b *testenv.PostfixAdminBrowser) {
			pfaEditMailbox(t, b, "alice@example.org", url.Values{"value[name]": {"Robert Jones"}})
		},
	},
	{
		name: "deactivate a mailbox",
		phrasings: [3]string{
			`{signin}, click "Virtual List", select "example.org" in the domain list, click "edit" in the row of "carol@example.org", untick "Active", click "Save changes"`,
			`{signin}, then press "Virtual List", pick example.org in the domain list and click "YES" in the row of "carol@example.org" to switch it off`,
			`Sign in: {signin}. Open the Virtual List and choose the domain example.org. Click the "edit" button next to "carol@example.org", clear the checkbox labelled "Active" and click Save changes.`,
		},
		done: func(t testing.TB, w *testenv.PostfixAdmin) string {
			// The app turns the mailbox's own alias off with it.
			return w.Differs(t, testenv.PostfixAdminState{"mailbox": pfaRows{"carol@example.org": {"active": "0"}},
				"alias": pfaRows{"carol@example.org": {"active": "*"}}})
		},
		do: func(t testing.TB, w *testenv.PostfixAdmin, b *testenv.PostfixAdminBrowser) {
			pfaToggleActive(t, b, "carol@example.org")
		},
		miss: func(t testing.TB, w *testenv.PostfixAdmin, b *testenv.PostfixAdminBrowser) {
			pfaEditMailbox(t, b, "bob@example.org", url.Values{"value[active]": nil})
		},
	},
	{
		name: "delete an alias",
		phrasings: [3]string{
			`{signin}, click "Virtual List", select "example.org" in the domain list, click "del" in the row of "sales@example.org", then confirm`,
			`{signin}, then open the Virtual List of example.org, press the del button of the alias sales@example.org and press OK when asked "Do you really want to delete the alias sales@example.org?"`,
			`Sign in first: {signin}. Click Virtual List, then choose example.org in the domain list. Click the "del" button in the row of "sales@example.org" and accept the confirmation, then make sure sales@example.org is no longer listed.`,
		},
		done: func(t testing.TB, w *testenv.PostfixAdmin) string {
			return w.Differs(t, testenv.PostfixAdminState{"alias": pfaRows{"sales@example.org": nil}})
		},
		do: func(t testing.TB, w *testenv.PostfixAdmin, b *testenv.PostfixAdminBrowser) {
			pfaDeleteAlias(t, b, "sales@example.org")
		},
		miss: func(t testing.TB, w *testenv.PostfixAdmin, b *testenv.PostfixAdminBrowser) {
			pfaDeleteAlias(t, b, "info@example.org")
		},
	},
	{
		name: "add a domain admin",
		phrasings: [3]string{
			`{signin}, click "Admin List", click "New Admin", type "maria@example.net" into "Admin", type "Shop-admin-2024" into "Password", type "Shop-admin-2024" into "Password (again)", select "example.net" in "Domain", click "Add Admin"`,
			`{signin}, then open the Admin List menu and press "New Admin"; fill Admin with maria@example.net, both password fields with Shop-admin-2024, choose example.net in the Domain list and press "Add Admin"`,
			`Sign in: {signin}. Click Admin List at the top, then New Admin. Type maria@example.net into the field labelled "Admin", enter "Shop-admin-2024" in the Password field, then enter it again in the field labelled "Password (again)", and select example.net in the Domain list. Click the Add Admin button.`,
		},
		done: func(t testing.TB, w *testenv.PostfixAdmin) string {
			if why := w.Differs(t, testenv.PostfixAdminState{
				"admin":         pfaRows{"maria@example.net": {"superadmin": "0", "active": "1"}},
				"domain_admins": pfaRows{"maria@example.net example.net": {"active": "*"}},
			}); why != "" {
				return why
			}
			return pfaPassword(t, w, "admin", "maria@example.net", pfaMariaPassword)
		},
		do: func(t testing.TB, w *testenv.PostfixAdmin, b *testenv.PostfixAdminBrowser) {
			pfaAddAdmin(t, b, "example.net")
		},
		miss: func(t testing.TB, w *testenv.PostfixAdmin, b *testenv.PostfixAdminBrowser) {
			pfaAddAdmin(t, b, "example.org")
		},
	},
}

// pfaAddDomain sends the New Domain form (Domain List, New Domain) for example.com,
// "Berlin branch", with mailboxes in the Mailboxes field ("": as the form fills it).
func pfaAddDomain(t testing.TB, b *testenv.PostfixAdminBrowser, mailboxes string) {
	t.Helper()
	fields := url.Values{"value[domain]": {"example.com"}, "value[description]": {"Berlin branch"}}
	if mailboxes != "" {
		fields.Set("value[mailboxes]", mailboxes)
	}
	b.Save(t, "/edit.php?table=domain", `name="edit_domain"`, fields)
}

// pfaAddMailbox sends the Add Mailbox form (Virtual List, Add Mailbox) for dave@example.org
// with a quota of quota MB; the welcome mail is left ticked, as the form has it.
func pfaAddMailbox(t testing.TB, b *testenv.PostfixAdminBrowser, quota string) {
	t.Helper()
	b.Save(t, "/edit.php?table=mailbox", `name="edit_mailbox"`, url.Values{"value[local_part]": {"dave"}, "value[domain]": {"example.org"},
		"value[password]": {pfaDavePassword}, "value[password2]": {pfaDavePassword}, "value[name]": {"Dave Wilson"}, "value[quota]": {quota}})
}

// pfaAddAlias sends the Add Alias form (Virtual List, Add Alias) for jobs@example.org to to.
func pfaAddAlias(t testing.TB, b *testenv.PostfixAdminBrowser, to string) {
	t.Helper()
	b.Save(t, "/edit.php?table=alias", `name="edit_alias"`, url.Values{"value[localpart]": {"jobs"}, "value[domain]": {"example.org"}, "value[goto]": {to}})
}

// pfaVirtualList is example.org's Virtual List, as its domain list shows it.
func pfaVirtualList(t testing.TB, b *testenv.PostfixAdminBrowser) string {
	t.Helper()
	return b.Get(t, "/list-virtual.php?"+url.Values{"domain": {"example.org"}}.Encode())
}

// pfaEditMailbox follows the edit button of the mailbox in example.org's Virtual List and
// saves its form ("Save changes") with fields changed, the password fields left empty.
func pfaEditMailbox(t testing.TB, b *testenv.PostfixAdminBrowser, mailbox string, fields url.Values) {
	t.Helper()
	edit := testenv.PostfixAdminLink(pfaVirtualList(t, b), "edit.php?table=mailbox&edit="+url.QueryEscape(mailbox))
	if edit == "" {
		t.Fatalf("no edit button for %s in the Virtual List", mailbox)
	}
	b.Save(t, edit, `name="edit_mailbox"`, fields)
}

// pfaToggleActive follows the YES in the Active column of the mailbox's row in example.org's
// Virtual List, which turns it off.
func pfaToggleActive(t testing.TB, b *testenv.PostfixAdminBrowser, mailbox string) {
	t.Helper()
	link := testenv.PostfixAdminLink(pfaVirtualList(t, b), "editactive.php?table=mailbox&id="+url.QueryEscape(mailbox)+"&active=0")
	if link == "" {
		t.Fatalf("no YES in the Active column of %s", mailbox)
	}
	b.Get(t, link)
}

// pfaDeleteAlias presses the del button of the alias's row in example.org's Virtual List
// (its script asks for a confirmation first, then sends the row's form).
func pfaDeleteAlias(t testing.TB, b *testenv.PostfixAdminBrowser, alias string) {
	t.Helper()
	status, loc, body := b.Submit(t, "/list-virtual.php?"+url.Values{"domain": {"example.org"}}.Encode(), `name="delete" value="`+alias+`"`, nil, "")
	if status != http.StatusFound {
		t.Fatalf("deleting %s answered %d (to %q): %s", alias, status, loc, testenv.PostfixAdminErrors(body))
	}
}

// pfaAddAdmin sends the New Admin form (Admin List, New Admin) for maria@example.net with
// domain chosen in its Domain list.
func pfaAddAdmin(t testing.TB, b *testenv.PostfixAdminBrowser, domain string) {
	t.Helper()
	b.Save(t, "/edit.php?table=admin", `name="edit_admin"`, url.Values{"value[username]": {"maria@example.net"},
		"value[password]": {pfaMariaPassword}, "value[password2]": {pfaMariaPassword}, "value[domains][]": {domain}})
}

// pfaPassword says whether the password of the row (a mailbox or an admin) is password.
func pfaPassword(t testing.TB, w *testenv.PostfixAdmin, table, key, password string) string {
	t.Helper()
	if !testenv.PostfixAdminPasswordIs(w.State(t)[table][key]["password"], password) {
		return "the password of " + key + " is not the goal's"
	}
	return ""
}
