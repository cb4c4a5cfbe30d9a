//go:build heldout

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// glewlwydGoal is an everyday goal on Glewlwyd's administration web app, written three ways
// as a person writes it from what the pages show ({signin} is the phrasing's way of
// signing in); done reads Glewlwyd's database and says "" when the goal's effect is there
// and nothing else the admin app changes did, else what it found; do makes the effect
// through the requests the app's pages send, and miss a near miss the judge must not take
// for it (another user or client, a neighbouring name or value, a step left out).
type glewlwydGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.Glewlwyd) string
	do, miss  func(t testing.TB, b *testenv.GlewlwydBrowser)
}

const (
	glewlwydNewUser     = "daniel"
	glewlwydNewName     = "Daniel Green"
	glewlwydNewEmail    = "daniel@example.org"
	glewlwydEmail       = "davina.clark@example.org"
	glewlwydClient      = "grafana"
	glewlwydClientName  = "Grafana"
	glewlwydClientURI   = "https://grafana.example.org/login/generic_oauth"
	glewlwydWikiURI     = "https://wiki.example.org/callback"
	glewlwydNewWikiURI  = "https://wiki.example.org/oauth2/callback"
	glewlwydScope       = "contacts"
	glewlwydScopeName   = "Contacts"
	glewlwydScopeDetail = "Shared address books"
)

var glewlwydGoals = []glewlwydGoal{
	{
		name: "add a user",
		phrasings: [3]string{
			`{signin}, click "Users", click "Add a user", type "daniel" into "Username", type "{{secret:glewlwyd_user_password}}" into "Enter password", type "{{secret:glewlwyd_user_password}}" into "Confirm password", type "Daniel Green" into "Name", type "daniel@example.org" into "E-mail address", click "OK"`,
			`{signin}, then on the Users page add a user (the + button, Add a user): username daniel, password {{secret:glewlwyd_user_password}} typed in both password boxes, Name "Daniel Green", E-mail address daniel@example.org, leave Active ticked and press OK`,
			`{signin} Then, in Users, click the + button ("Add a user") to open the Add a user dialog. Put daniel in the Username field, type "{{secret:glewlwyd_user_password}}" into Enter password and again into Confirm password, write Daniel Green in the field labelled Name and daniel@example.org in E-mail address, keep Active checked and hit OK.`,
		},
		done: glewlwydUserAdded,
		do: func(t testing.TB, b *testenv.GlewlwydBrowser) {
			b.AddUser(t, glewlwydNewUser, testenv.GlewlwydUserPassword, glewlwydNewName, glewlwydNewEmail)
		},
		miss: func(t testing.TB, b *testenv.GlewlwydBrowser) {
			b.AddUser(t, glewlwydNewUser, testenv.GlewlwydUserPassword, glewlwydNewName, "daniel.green@example.org")
		},
	},
	{
		name: "change a user's e-mail address",
		phrasings: [3]string{
			`{signin}, click "Users", click "Edit" in the row of "davina", type "davina.clark@example.org" into "E-mail address", click "OK"`,
			`{signin}; in the user list edit davina (the pencil icon in her row) and change her E-mail address to davina.clark@example.org, then OK`,
			`{signin} Then find the user davina in the Users list and click the Edit button (the pencil) in her row. Replace what is in the E-mail address field with "davina.clark@example.org", leave everything else alone and press OK.`,
		},
		done: func(t testing.TB, w *testenv.Glewlwyd) string {
			return glewlwydExactly(t, w, func(s testenv.GlewlwydState) { s.SetField("user", "davina", "email", glewlwydEmail) })
		},
		do:   func(t testing.TB, b *testenv.GlewlwydBrowser) { glewlwydSetEmail(t, b, "davina") },
		miss: func(t testing.TB, b *testenv.GlewlwydBrowser) { glewlwydSetEmail(t, b, "david") },
	},
	{
		name: "give a user a scope",
		phrasings: [3]string{
			`{signin}, click "Users", click "Edit" in the row of "dave", click the "+" next to "Scopes", click "calendar", click "OK"`,
			`{signin}, then edit the user dave in Users and add the calendar scope to his Scopes (the + menu next to Scopes), keeping the scopes he has; OK to save`,
			`{signin} In the Users list, open the Edit dialog of dave (the pencil icon in the row of dave, not david). Next to Scopes, click the + button and choose calendar from the list so that it joins g_profile and mail, then click OK.`,
		},
		done: func(t testing.TB, w *testenv.Glewlwyd) string {
			return glewlwydExactly(t, w, func(s testenv.GlewlwydState) { glewlwydAddScope(s, "dave") })
		},
		do:   func(t testing.TB, b *testenv.GlewlwydBrowser) { glewlwydGiveScope(t, b, "dave") },
		miss: func(t testing.TB, b *testenv.GlewlwydBrowser) { glewlwydGiveScope(t, b, "david") },
	},
	{
		name: "find and delete a user",
		phrasings: [3]string{
			`{signin}, type "dav" into "Search pattern", click "Search", click "Delete" in the row of "davey", click "OK"`,
			`{signin}, search the user list for dav, delete davey (Davey Jones) with the bin icon in his row and confirm with OK`,
			`{signin} On the Users page, type dav in the Search pattern box and hit Search. In the results, press the Delete button (the trash can) in the row of davey, Davey Jones, not dave or david, and confirm the deletion with OK.`,
		},
		done: func(t testing.TB, w *testenv.Glewlwyd) string {
			return glewlwydExactly(t, w, func(s testenv.GlewlwydState) { delete(s["user"], "davey") })
		},
		do:   func(t testing.TB, b *testenv.GlewlwydBrowser) { glewlwydDelete(t, b, "davey") },
		miss: func(t testing.TB, b *testenv.GlewlwydBrowser) { glewlwydDelete(t, b, "dave") },
	},
	{
		name: "add a client",
		phrasings: [3]string{
			`{signin}, click "Clients", click "Add a client", type "grafana" into "Client ID", type "Grafana" into "Name", type "https://grafana.example.org/login/generic_oauth" into "Redirect URIs", click "Add an element" next to "Redirect URIs", click "OK"`,
			`{signin}, then under Clients add a client (+, Add a client) with Client ID grafana, Name Grafana and the redirect URI https://grafana.example.org/login/generic_oauth (type it under Redirect URIs and add it with its + button), then OK`,
			`{signin} Go to Clients in the top menu and press the + button to add a client. Enter grafana as the Client ID and Grafana as the Name. In the Redirect URIs field type https://grafana.example.org/login/generic_oauth and click the + at the end of that field so that the address shows up as a badge below it. Leave the other settings as they are and click OK at the bottom of the dialog.`,
		},
		done: glewlwydClientAdded,
		do: func(t testing.TB, b *testenv.GlewlwydBrowser) {
			b.AddClient(t, glewlwydClient, glewlwydClientName, glewlwydClientURI)
		},
		miss: func(t testing.TB, b *testenv.GlewlwydBrowser) { b.AddClient(t, glewlwydClient, glewlwydClientName) },
	},
	{
		name: "change a client's redirect URI",
		phrasings: [3]string{
			`{signin}, click "Clients", click "Edit" in the row of "Team Wiki", click "https://wiki.example.org/callback" under "Redirect URIs" to remove it, type "https://wiki.example.org/oauth2/callback" into "Redirect URIs", click "Add an element" next to "Redirect URIs", click "OK"`,
			`{signin}; in Clients, edit Team Wiki (the client wiki, not wiki-staging): replace its redirect URI https://wiki.example.org/callback with https://wiki.example.org/oauth2/callback (remove the old badge, add the new one with the +) and save with OK`,
			`{signin} Open Clients and click the Edit (pencil) button in the row of the client wiki, named Team Wiki. Under Redirect URIs, click the old address https://wiki.example.org/callback to remove it, type "https://wiki.example.org/oauth2/callback" in the field and click its + button, then press OK so that the new address is the only redirect URI.`,
		},
		done: func(t testing.TB, w *testenv.Glewlwyd) string {
			return glewlwydExactly(t, w, func(s testenv.GlewlwydState) { s.SetField("client", "wiki", "redirect_uri", glewlwydNewWikiURI) })
		},
		do: func(t testing.TB, b *testenv.GlewlwydBrowser) { glewlwydRedirect(t, b, glewlwydNewWikiURI) },
		miss: func(t testing.TB, b *testenv.GlewlwydBrowser) {
			glewlwydRedirect(t, b, glewlwydWikiURI, glewlwydNewWikiURI)
		},
	},
	{
		name: "add a scope",
		phrasings: [3]string{
			`{signin}, click "Scopes", click "Add", type "contacts" into "Name", type "Contacts" into "Display name", type "Shared address books" into "Description", click "OK"`,
			`{signin}, then on the Scopes page add a scope named contacts, display name Contacts, description "Shared address books" (keep Password checked) and OK`,
			`{signin} Next go to Scopes and click the + button to add a new scope. Fill in the Name field with contacts, the field labelled Display name with Contacts and Description with "Shared address books". Leave the Password box under Authentication ticked and the session duration at 0, then click OK.`,
		},
		done: func(t testing.TB, w *testenv.Glewlwyd) string {
			return glewlwydExactly(t, w, func(s testenv.GlewlwydState) {
				s["scope"][glewlwydScope] = "description=" + glewlwydScopeDetail + "; display_name=" + glewlwydScopeName +
					"; enabled=1; password_max_age=0; password_required=1"
			})
		},
		do: func(t testing.TB, b *testenv.GlewlwydBrowser) {
			b.AddScope(t, glewlwydScope, glewlwydScopeName, glewlwydScopeDetail)
		},
		miss: func(t testing.TB, b *testenv.GlewlwydBrowser) {
			b.AddScope(t, "contact", glewlwydScopeName, glewlwydScopeDetail)
		},
	},
}

// glewlwydExactly says whether the database holds the seed changed by change and nothing
// else.
func glewlwydExactly(t testing.TB, w *testenv.Glewlwyd, change func(testenv.GlewlwydState)) string {
	want := w.Seed()
	change(want)
	return w.Differs(t, want)
}

// glewlwydAddScope adds the goal's scope, calendar, to user's scopes in the state.
func glewlwydAddScope(s testenv.GlewlwydState, user string) {
	scopes := strings.Split(s.Fields("user", user)["scope"], ",")
	scopes = slices.DeleteFunc(append(scopes, "calendar"), func(v string) bool { return v == "" })
	slices.Sort(scopes)
	s.SetField("user", user, "scope", strings.Join(slices.Compact(scopes), ","))
}

// glewlwydUserAdded says whether the database holds the seed and the goal's new user, with
// its name, e-mail address and password, active, with no scope, and nothing else changed.
func glewlwydUserAdded(t testing.TB, w *testenv.Glewlwyd) string {
	got := w.State(t)
	f := got.Fields("user", glewlwydNewUser)
	if f == nil {
		return "no user " + glewlwydNewUser
	}
	if f["name"] != glewlwydNewName || f["email"] != glewlwydNewEmail || f["enabled"] != "1" || f["scope"] != "" {
		return fmt.Sprintf("the user %s is %q, not %s <%s>, active, with no scope", glewlwydNewUser, got["user"][glewlwydNewUser], glewlwydNewName, glewlwydNewEmail)
	}
	if !w.PasswordIs(t, glewlwydNewUser, testenv.GlewlwydUserPassword) {
		return glewlwydNewUser + "'s password is not the one granted for the goal"
	}
	delete(f, "password")
	if len(f) != 3 {
		return fmt.Sprintf("the user %s has more set: %q", glewlwydNewUser, got["user"][glewlwydNewUser])
	}
	delete(got["user"], glewlwydNewUser)
	return got.Diff(w.Seed())
}

// glewlwydClientAdded says whether the database holds the seed and the goal's new client,
// named, enabled, with the goal's redirect URI and no other, not confidential, with no
// password, and nothing else changed.
func glewlwydClientAdded(t testing.TB, w *testenv.Glewlwyd) string {
	got := w.State(t)
	f := got.Fields("client", glewlwydClient)
	if f == nil {
		return "no client " + glewlwydClient
	}
	if f["name"] != glewlwydClientName || f["enabled"] != "1" || f["redirect_uri"] != glewlwydClientURI {
		return fmt.Sprintf("the client %s is %q, not %s, enabled, redirecting to %s alone", glewlwydClient, got["client"][glewlwydClient],
			glewlwydClientName, glewlwydClientURI)
	}
	if f["confidential"] != "0" || f["password"] != "" {
		return fmt.Sprintf("the client %s is confidential or has a password: %q", glewlwydClient, got["client"][glewlwydClient])
	}
	delete(got["client"], glewlwydClient)
	return got.Diff(w.Seed())
}

// glewlwydSetEmail edits user and sets the goal's e-mail address.
func glewlwydSetEmail(t testing.TB, b *testenv.GlewlwydBrowser, user string) {
	t.Helper()
	b.EditUser(t, user, func(u map[string]any) { u["email"] = glewlwydEmail })
}

// glewlwydGiveScope edits user and adds calendar to its scopes.
func glewlwydGiveScope(t testing.TB, b *testenv.GlewlwydBrowser, user string) {
	t.Helper()
	b.EditUser(t, user, func(u map[string]any) {
		scopes, _ := u["scope"].([]any)
		u["scope"] = append(scopes, "calendar")
	})
}

// glewlwydDelete searches the users for dav and deletes user from the results.
func glewlwydDelete(t testing.TB, b *testenv.GlewlwydBrowser, user string) {
	t.Helper()
	for _, u := range b.SearchUsers(t, "dav") {
		if u["username"] == user {
			b.DeleteUser(t, user)
			return
		}
	}
	t.Fatalf("searching the users for dav does not find %s", user)
}

// glewlwydRedirect edits the client wiki and leaves it the redirect URIs uris.
func glewlwydRedirect(t testing.TB, b *testenv.GlewlwydBrowser, uris ...string) {
	t.Helper()
	b.EditClient(t, "wiki", func(c map[string]any) { c["redirect_uri"] = uris })
}
