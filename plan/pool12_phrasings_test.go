package plan

import "testing"

// TestPhrasingsOfTheTwelfthPool: how the twelfth pool's people wrote steps the reader
// refused (read after its blind run), each with the reading a person means, and what
// stays refused.
func TestPhrasingsOfTheTwelfthPool(t *testing.T) {
	user, pw, button := `type "nora" into "user name field of the sign-in form"`, `type "x" into "password field of the sign-in form"`, `click "button of the sign-in form"`
	for _, tt := range []struct{ goal, want string }{
		// The password of what one signs in to, named so.
		{`sign in with the server password "x" and open the Household Budget file`, pw + " | " + button + ` | click "Household Budget file"`},
		// The link that shows the sign-in form, said in brackets after it.
		{`log in as nora / "x" (the Login / Get an account link at the top), then click "Front page"`,
			`click "\"Login / Get an account\"" | ` + user + " | " + pw + " | " + button + ` | click "Front page"`},
		{`log in as nora, password "x"`, user + " | " + pw + " | " + button},
		// A full stop typed twice ends the sentence.
		{`click "Sign in". Then pick "Household Budget".. Click "Add New".`, `click "Sign in" | click "Household Budget" | click "Add New"`},
		// Several choices in a list that takes several.
		{`select "Front Door" and "Front Gate" in "Monitor"`, `select "Front Door and Front Gate" from "Monitor"`},
		// A path of pages through a list's own name, written in lower case.
		{`go to My lists, choir, Admin, Subscribers`, `hover over "\"My lists\"" | hover over "\"choir\"" | hover over "\"Admin\"" | click "\"Subscribers\""`},
		// A search, said as one: typed into the page's search box, and sent.
		{`search the wiki for badge reader, then click "Building Access"`, `type "badge reader" into "the search box" | press Enter | click "Building Access"`},
		{`type "a" into "Name", search for Corner`, `type "a" into "Name" | type "Corner" into "the search box" | press Enter`},
		{`search for Backup in the Filter box`, `type "Backup" into "Filter box" | press Enter`},
		// A path's last item ends where the next step starts (it was read as "Parties,
		// search for Cartwright", one name).
		{`Go to Party > Parties, search for Cartwright and double-click "Cartwright Office Supplies"`,
			`hover over "\"Party\"" | click "\"Parties\"" | type "Cartwright" into "the search box" | press Enter | double-click "Cartwright Office Supplies"`},
		// An item of the list the step before brought up (the eleventh pool's Tryton).
		{`type "Whole" into "Categories", click "Wholesale" in the list that appears`, `type "Whole" into "Categories" | click "\"Wholesale\" in the list that appears"`},
		{`choose Wholesale from the dropdown that opens`, `click "\"Wholesale\" in the list that appears"`},
		// "Save" said as the verb it is: a click on the button it names.
		{`type "a" into "Name". Save.`, `type "a" into "Name" | click "Save"`},
		{`type "a" into "Name" and save the changes`, `type "a" into "Name" | click "Save"`},
		{`put "b" in "Label", then apply`, `type "b" into "Label" | click "Apply"`},
		// "its Name" of an item a step opened: in its row while shown, else on its page.
		{`double-click "Andersen Logistics", change its Name to "Andersen Freight"`,
			`double-click "Andersen Logistics" | type "Andersen Freight" into "the Name of the item \"Andersen Logistics\" or the page it opened"`},
		{`click "Edit" in the row "Back Door", change its Name to "Back Porch"`,
			`click "\"Edit\" in the row \"Back Door\"" | type "Back Porch" into "the Name of the item \"Back Door\" or the page it opened"`},
		// A thing named as it is made, and its other fields on the same form.
		{`press Add, name the new monitor Garage and set its Function to Record`, `click "Add" | type "Garage" into "the \"Name\" field" | type "Record" into "Function"`},
		{`call the group "Front Entrances"`, `type "Front Entrances" into "the \"Name\" field"`},
		{`give it the name Garage`, `type "Garage" into "the \"Name\" field"`},
		// A setting enabled or disabled: its box.
		{`enable "Share printers", disable Debug logging`, `check "Share printers" | uncheck "Debug logging"`},
		// "the text box" beside "the text area": the two are told apart.
		{`copy the text in the text area, paste it into the text box`, `extract "text area" as "copied" | type "{{copied}}" into "text input"`},
	} {
		parsesTo(t, tt.goal, tt.want)
	}
	for _, goal := range []string{
		// A list's path with one name in it is no path: which words are names is not known.
		`open My lists, choir`,
		`go to Security, users, groups`,
		// "its" after a page of its own, a sentence between: which item is not known.
		`Open Silences. The upgrade is done, so expire the silence with the matcher alertname=InstanceDown: click its "Expire" button.`,
		// "name the" what, when no name follows.
		`name the new monitor after the street`,
		// A search for something described, not for words; words beside a quote.
		`search for thriller movies directed by Slater from year 1993`,
		`Search for lists with "garden"`,
		// A path's last item that runs on past a comma into what is no step.
		`Go to Party > Parties, Cartwright's record`,
	} {
		if s, err := Parse(goal); err == nil {
			t.Errorf("%s: read as %v, want refused", goal, s)
		}
	}
	for d, want := range map[string]Target{
		// A name after "called", unquoted, is held as the page writes it.
		`the budget file called Household Budget`: {Name: "Household Budget", Quoted: true},
		// "X's box": the checkbox in X's row; "X's Edit button": its Edit button.
		`Back Door's box in the monitor list`:   {Kind: "checkbox", Row: "Back Door", InList: true},
		`the Bills group's Add category button`: {Name: "Add category", Kind: "button", Row: "Bills"},
		`Nina's profile`:                        {Name: "Nina's profile"},
		`the box next to "Search"`:              {Name: "box", Row: "Search", Beside: true},
		`"Delete" in the row "Search"`:          {Name: "Delete", Quoted: true, Row: "Search"},
	} {
		if got := ParseTarget(d); got != want {
			t.Errorf("%s: read as %+v, want %+v", d, got, want)
		}
	}
}
