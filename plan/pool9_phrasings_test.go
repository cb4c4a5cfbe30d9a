package plan

import (
	"strings"
	"testing"
)

// TestPhrasingsOfTheNinthPool: sentences from goals people wrote for the ninth held-out
// pool (read after its blind run), each read into the steps a person means, and the
// sentences that must stay refused beside them.
func TestPhrasingsOfTheNinthPool(t *testing.T) {
	for _, tt := range []struct{ goal, want string }{
		// Why before how: a sentence that states a situation, a motive or what is to stay
		// as it is asks for no step.
		{`Annika forgot her password. Click "Users", then click "annika"`, `click "Users" | click "annika"`},
		{`The account omar@lab.example.org is no longer needed. Click "Remove User".`, `click "Remove User"`},
		{`We no longer need the archived wiki. Click "Undeploy".`, `click "Undeploy"`},
		{`Anna's offline message queue should be emptied. Click "Remove All Offline Messages".`, `click "Remove All Offline Messages"`},
		{`Click "Delete post", then click "Delete". The other lighthouse draft must stay.`, `click "Delete post" | click "Delete"`},
		{`Lisa wants Omar in her contact list. Click "View Roster".`, `click "View Roster"`},
		{`The file old-notes.txt is out of date, so please get rid of it. Click "Delete".`, `click "Delete"`},
		{`Under Create in the menu on the left, click New Device.`, `click "New Device under Create"`},
		// A way through pages written as a list after one verb, or with arrows; a bare
		// address after "then" is the next click.
		{`Go to Virtual Hosts, example.org, Users`, `hover over "\"Virtual Hosts\"" | hover over "\"example.org\"" | click "\"Users\""`},
		{`Virtual Hosts → example.org → lisa@example.org, then click "View Roster"`, `hover over "\"Virtual Hosts\"" | hover over "\"example.org\"" | click "\"lisa@example.org\"" | click "View Roster"`},
		{`Open Virtual Hosts, then lab.example.org, then Users`, `click "Virtual Hosts" | click "lab.example.org" | click "Users"`},
		// The control named after what it is for.
		{`stop /inventory (the Inventory Service) with the Stop button of its row`, `click "\"Stop\" in the row \"/inventory\""`},
		{`start the stopped app /reports from the Applications list - Start button in its row`, `click "\"Start\" in the row \"/reports\""`},
		{`undeploy /wiki-old by clicking Undeploy in its row`, `click "\"Undeploy\" in the row \"/wiki-old\""`},
		{`remove the virtual host stats.example.org with the Remove button in its row of the host list`, `click "\"Remove\" in the row \"stats.example.org\""`},
		{`clear the authorship colours of the whole pad with the Clear Authorship Colors button in the toolbar`, `click "\"Clear Authorship Colors\" in the toolbar"`},
		// A place that is the page's toolbar.
		{`click "Unordered List" in the toolbar`, `click "\"Unordered List\" in the toolbar"`},
		// An aside that warns of a near miss or says what to leave alone.
		{`pick example.org (not lab.example.org) and click Users`, `click "example.org" | click "Users"`},
		{`click omar@lab.example.org (leave omar@example.org alone), then click "Remove User"`, `click "omar@lab.example.org" | click "Remove User"`},
		{`choose the role "Editor" (not the default Contributor)`, `click "role \"Editor\""`},
		// An aside that picks by place is kept, and read with the step.
		{`click Edit (not the first)`, `click "Edit (not the first)"`},
		// A row referred to by the thing the step before found.
		{`find "stats.example.org" and press Remove in its Commands column`, `check that "stats.example.org" is visible | click "Remove in the row \"stats.example.org\""`},
		{`find "/wiki-old" and press the Undeploy button in that row`, `check that "/wiki-old" is visible | click "Undeploy button in the row \"/wiki-old\""`},
		{`click Remove User in the row of omar@example.org`, `click "Remove User in the row of omar@example.org"`},
		// The app, or its first page, as the place of the steps; a path as the place.
		{`In the ejabberd web admin go to Virtual Hosts`, `click "Virtual Hosts"`},
		{`From the Etherpad start page, click "New Pad"`, `click "New Pad"`},
		{`In Virtual Hosts > example.org > Shared Roster Groups click "support"`, `hover over "\"Virtual Hosts\"" | hover over "\"example.org\"" | click "\"Shared Roster Groups\"" | click "support"`},
		// The page's question answered in other words; a place on a person's page.
		{`click "Clear", then confirm the question that pops up with OK`, `click "Clear" | click "OK"`},
		{`hit the "Remove User" button at the bottom of his page`, `click "\"Remove User\" button at the bottom of his page"`},
		// A field inside a line of words, named by the words before it; the row the step
		// before was in.
		{`in the row of "/shop" replace "30" with "0" in the field between "with idle ≥" and "minutes", then click "Expire sessions" in that row`,
			`type "0" into "field between \"with idle ≥\" and \"minutes\" in the row of \"/shop\"" | click "\"Expire sessions\" in the row \"/shop\""`},
		// What the steps leave as it is: no step (before, "as it is" was read as a value to
		// check).
		{`click "Edit", leave the Site description as it is, and click Save`, `click "Edit" | click "Save"`},
		{`type "x" into "Name", leave the other fields empty and click Save`, `type "x" into "Name" | click "Save"`},
		// A row found by the one thing it shows; "there" is that row.
		{`go to the row with the path /wiki-old and press "Undeploy" in that row`, `check that "/wiki-old" is visible | click "\"Undeploy\" in the row \"/wiki-old\""`},
		{`find "/wiki-old" and press "Undeploy" there`, `check that "/wiki-old" is visible | click "\"Undeploy\" in the row \"/wiki-old\""`},
		{`find stats.example.org and press Remove in its row`, `check that "stats.example.org" is visible | click "Remove in the row \"stats.example.org\""`},
		// A word of what the item is, before its noun and its quoted name.
		{`click the published post "Ferry Schedule Changes for Winter" to open it in the editor`, `click "published post \"Ferry Schedule Changes for Winter\""`},
		// A kind of thing, then its name written as an address.
		{`open the user lisa@example.org`, `click "\"lisa@example.org\""`},
		{`pick the host example.org`, `click "\"example.org\""`},
	} {
		parsesTo(t, tt.goal, tt.want)
	}
	for _, goal := range []string{
		// An instruction in a statement's clothes, or a state asked for after a step.
		`We need to click "Save".`,
		`Click "Settings". The title should be Harbor Light.`,
		`The title should be Harbor Light.`,
		`Click "Files". The file old-notes.txt is out of date, so please get rid of it.`,
		// The click would not be the whole of it: the address is to be typed first.
		`add omar@example.org to her roster with Add Jabber ID`,
		// A row referred to that no step before named; a page named by its own name.
		`click Remove in its row`,
		`On the Settings page, click the Save changes button below the list of users`,
		// "There" after a click is the page it opened, not a row.
		`click "stats.example.org", then click "Remove" there`,
		// A word before a quoted name that is no item's noun.
		`click the big "Save" button`,
		// Two things a row could be known by; no control named as the page writes it.
		`stop /inventory or /invoices with the Stop button of its row`,
		`stop the app with the stop button`,
	} {
		if s, err := Parse(goal); err == nil {
			t.Errorf("%s: read as %v, want refused", goal, s)
		}
	}
}

// TestPathItemsSayWhatTheyOpen: each item of a path but the last carries the next item's
// name, which the browser waits for after pointing at it.
func TestPathItemsSayWhatTheyOpen(t *testing.T) {
	steps, err := Parse(`go to Virtual Hosts > example.org > Users`)
	if err != nil {
		t.Fatal(err)
	}
	var opens []string
	for _, s := range steps {
		opens = append(opens, s.Opens)
	}
	if g := strings.Join(opens, "|"); g != "example.org|Users|" {
		t.Errorf("opens %q, want example.org|Users|", g)
	}
}
