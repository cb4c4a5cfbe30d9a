package driver_test

import "testing"

// TestWhatTheTwelfthPoolShowed: from the twelfth pool (read after its blind run): "the
// text box" on a wiki's edit page, where a text area with no label of its own sits above
// a one-line field (it typed into the one-line field, which is named otherwise: now a tie,
// refused); a console's settings sections drawn as a column of Bootstrap pills, which
// people call tabs; a budget file asked for as "the budget file called Household Budget";
// two cameras chosen in a list that takes several; a row ticked by "Back Door's box"; a
// search box with no name, asked for as the box next to its Search button, or as the
// search box (its form searches), or by "search the wiki for"; an item of the list that
// appears as one types, its name also a link elsewhere on the page; "its Name" of a row
// that opened its record's form; a side column marked as no sidebar, and a path through its
// "More" button; a list of radio buttons a label names by the list's id; a list whose
// choice leads to another page; a sign-in that asks for the server's
// password alone; one reached by the link at the top, said in brackets after it.
func TestWhatTheTwelfthPoolShowed(t *testing.T) {
	runUnseen(t, newPool(t), []unseenCase{
		{"the text box, where a text area and a named field are two", "unseen-wiki.html#wiki", "wiki", []string{
			`type "The guest network is Harbor-Guest." into the text box, type "Guest network" into "Description of changes", click "Save"`,
			`put "The guest network is Harbor-Guest." in the text field, then put "Guest network" in Description of changes, and press Save`,
			`type "The guest network is Harbor-Guest." into the textbox, type "Guest network" into "Description of changes", click "Save"`,
		}, ""},
		{"the text area, said so", "unseen-wiki.html#wiki", "wiki", []string{
			`type "The guest network is Harbor-Guest." into the text area, type "Guest network" into "Description of changes", click "Save"`,
			`type "The guest network is Harbor-Guest." into the textarea, then type "Guest network" into "Description of changes" and click "Save"`,
			`Put "The guest network is Harbor-Guest." in the text area, "Guest network" in Description of changes, and press Save.`,
		}, `{"text":"The guest network is Harbor-Guest.","summary":"Guest network"}`},
		{"a section of the settings drawn as a pill", "unseen-wiki.html#options", "options", []string{
			`click the "Web" tab, type "Camera maintenance on Friday" into "WEB_CONSOLE_BANNER", click "Save"`,
			`open the Web tab on the left, put "Camera maintenance on Friday" in WEB_CONSOLE_BANNER and hit Save`,
			`Choose the Web tab, then enter "Camera maintenance on Friday" in the WEB_CONSOLE_BANNER field and click Save.`,
		}, `"banner":"Camera maintenance on Friday"`},
		{"a file called by its name", "unseen-wiki.html#files", "files", []string{
			`click the budget file called Household Budget`,
			`open the budget file called Household Budget.`,
			`pick the file named Household Budget`,
		}, `{"opened":"Household Budget"}`},
		{"two cameras in a list that takes several", "unseen-wiki.html#group", "group", []string{
			`select "Front Door" and "Front Gate" in "Monitor", click "Save"`,
			`select "Front Door", "Front Gate" in the Monitor list and press Save`,
			`In Monitor, select "Front Door" and "Front Gate", then click Save.`,
		}, `{"monitors":["Front Door","Front Gate"]}`},
		{"a row's box, said as the row's", "unseen-wiki.html#console", "console", []string{
			`tick Back Door's box and press Edit`,
			`In the monitor list tick Back Door's box, then click Edit.`,
			`Tick Back Door's checkbox and hit Edit`,
		}, `{"edit":["Back Door"]}`},
		{"a box with no name, next to its button", "unseen-wiki.html#sidebar", "search", []string{
			`type "badge reader" into the box next to "Search", click "Search"`,
			`type "badge reader" into the box next to "Search" in the menu on the left, click "Search"`,
			`Type "badge reader" into the field next to "Search" and press Search.`,
		}, `{"patterns":"badge reader"}`},
		{"a search, said as one", "unseen-wiki.html#sidebar", "search", []string{
			`search the wiki for "badge reader"`,
			`Search for badge reader.`,
			`type "badge reader" into the search box and press Enter`,
		}, `{"patterns":"badge reader"}`},
		{"an item of the list that appears as one types", "unseen-wiki.html#party", "party", []string{
			`type "Whole" into "Categories", click "Wholesale" in the list that appears, click "Save"`,
			`type Whole in the Categories field and choose Wholesale from the list that appears, then press Save`,
			`Type "Whole" into Categories, then pick "Wholesale" from the dropdown that opens. Click Save.`,
		}, `{"categories":["Wholesale"]}`},
		{"its Name, on the page the row opened", "unseen-wiki.html#records", "records", []string{
			`double-click "Andersen Logistics", change its Name to "Andersen Freight", click "Save"`,
			`click "Edit" in the row "Andersen Logistics", change its Name to "Andersen Freight" and press Save`,
			`Double-click "Andersen Logistics", then type "Andersen Freight" into its Name field and hit Save.`,
		}, `{"was":"Andersen Logistics","name":"Andersen Freight"}`},
		{"a button in a side column the page marks as no sidebar", "unseen-wiki.html#budget", "budget", []string{
			`click "Add account" in the sidebar`,
			`hit Add account in the sidebar`,
			`In the sidebar, click "Add account".`,
		}, `{"add":"sidebar"}`},
		{"a path through a button that shows more when pressed", "unseen-wiki.html#budget", "budget", []string{
			`go to More > Rules`,
			`click "More", then click "Rules"`,
			`open More > Rules in the sidebar`,
		}, `{"opened":"Rules"}`},
		{"a radio button in a list a label names", "unseen-wiki.html#create", "create", []string{
			`type "book-club" into "List name", choose "Public discussion mailing list" as the "List type", click "Submit your creation request"`,
			`put book-club in List name, select "Public discussion mailing list" in List type and press Submit your creation request`,
			`Type "book-club" into "List name", pick Public discussion mailing list as the List type, then hit "Submit your creation request".`,
		}, `{"name":"book-club","type":"discussion"}`},
		{"a list of actions that goes where its choice leads", "unseen-wiki.html#printer", "printer", []string{
			`select "Modify Printer" from "Administration"`,
			`choose Modify Printer in the Administration list`,
			`In "Administration", select "Modify Printer".`,
		}, `{"op":"Modify Printer"}`},
		{"a sign-in that asks for the server's password alone", "unseen-wiki.html#server", "signin", []string{
			`sign in with the server password "s3cret"`,
			`log in with the password "s3cret"`,
			`Sign in using the server password "s3cret".`,
		}, `{"ok":true}`},
		{"a sign-in reached by the link at the top, said in brackets", "unseen-wiki.html#login", "signin", []string{
			`log in as nora / "s3cret" (the Login / Get an account link at the top)`,
			`follow the "Login / Get an account" link, type "nora" into "Username", type "s3cret" into "Password", click "Login"`,
			`log in as nora with the password "s3cret" (via the Login / Get an account link)`,
		}, `{"user":"nora","ok":true}`},
	})
}
