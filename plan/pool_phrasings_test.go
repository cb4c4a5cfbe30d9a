package plan

import "testing"

// TestPhrasingsPeopleWrote: sentences from goals people wrote for real apps (the sixth
// held-out pool), each read into the steps a person means, or refused.
func TestPhrasingsPeopleWrote(t *testing.T) {
	for _, tt := range []struct{ goal, want string }{
		// A check that a field already holds a value.
		{`keep admin as the User name, click "Login"`, `check that "User name" holds "admin" | click "Login"`},
		{`Leave the Destination Branch at [root] and click Continue.`, `check that "Destination Branch" holds "[root]" | click "Continue"`},
		{`open the Unix tab, make sure User name is slindgren and press Save`, `click "Unix tab" | check that "User name" holds "slindgren" | click "Save"`},
		// Several fields with names of more than one word.
		{`fill First name with Sofia and Last name with Lindgren`, `type "Sofia" into "First name" | type "Lindgren" into "Last name"`},
		// A value with its own quotes glued in.
		{`type alertname="DiskSpaceLow" into the "Matchers" field and press Enter`, `type "alertname=\"DiskSpaceLow\"" into "\"Matchers\" field" | press Enter`},
		// An item named by its data.
		{`click "Edit" on the silence job=blackbox`, `click "\"Edit\" on the silence job=blackbox"`},
		{`click Edit for the silence with the matcher job=blackbox`, `click "Edit for the silence with the matcher job=blackbox"`},
		// A place written first, then the step.
		{`Under SNMP Defaults, replace public in the Community field with "monitor-ro"`, `type "monitor-ro" into "Community field Under SNMP Defaults"`},
		{`From the action list choose "Place on a Tree (Network)" and click Go.`, `select "Place on a Tree (Network)" from "action list" | click "Go"`},
		{`In the field labelled "First name" enter "Sofia" and in the field labelled "Last name" enter "Lindgren".`,
			`type "Sofia" into "field labelled \"First name\"" | type "Lindgren" into "field labelled \"Last name\""`},
		{`replace what is in the field labelled "Nick" with "sam_away" in the User preferences section`, `type "sam_away" into "field labelled \"Nick\" in the User preferences section"`},
		// A channel's name is no judgement; a purpose is no part of a target.
		{`right-click #random in the sidebar`, `right-click "#random in the sidebar"`},
		{`click the plus icon to add a tree`, `click "plus icon"`},
		{`click Add to cart`, `click "Add to cart"`},
		// Naming the new thing, two fields of one name, sending with a button.
		{`Name it "Branch Offices"`, `type "Branch Offices" into "the \"Name\" field"`},
		{`type "x9" into both "Password" fields`, `type "x9" into "the 1st of 2 \"Password\" field" | type "x9" into "the 2nd of 2 \"Password\" field"`},
		{`enter x9 as the password twice`, `type "x9" into "the 1st of 2 \"password\" field" | type "x9" into "the 2nd of 2 \"password\" field"`},
		{`type "Hi all" and send it with the "Send message" button`, `type "Hi all" into "the focused field" | click "\"Send message\" button"`},
		{`write Standup moved to 10:30 in "Write to #general"`, `type "Standup moved to 10:30" into "Write to #general"`},
		// A control by its item's icon; a button named Continue; a menu of the item before.
		{`open the group "sales" with its Edit icon`, `click "the Edit icon in the row \"sales\""`},
		{`press Go and then Continue`, `click "Go" | click "Continue"`},
		{`open Local IRC, choose Edit this network… from its menu`, `click "Local IRC" | click "Edit this network…"`},
		{`Check that the page says "Account was modified successfully"`, `check that "Account was modified successfully" is visible`},
		{`check that "#helpdesk" appears under Local IRC`, `check that "Local IRC" holds "#helpdesk"`},
		{`enter x=1 in the field labelled "Matchers" and click the "+" button next to it`, `type "x=1" into "field labelled \"Matchers\"" | click "\"+\" button beside \"Matchers\""`},
		// "The box" a tick is given is a checkbox.
		{`check the box in the row of "Old Printer"`, `check "checkbox in the row of \"Old Printer\""`},
	} {
		parsesTo(t, tt.goal, tt.want)
	}
	steps, err := Parse(`Check that "#random" is no longer listed under Local IRC`)
	if err != nil || len(steps) != 1 || !steps[0].Negated || steps[0].Value != "#random" {
		t.Errorf("a negative check under an item: %+v %v", steps, err)
	}
	for _, goal := range []string{`then continue`, `make sure "Private" holds`} {
		if _, err := Parse(goal); err == nil {
			t.Errorf("%s: read, want refused", goal)
		}
	}
}
