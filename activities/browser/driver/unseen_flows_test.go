package driver_test

import "testing"

// TestMenusAndCardsOfTheEleventhPool: from the eleventh pool (read after its blind run):
// a side menu that folds a section by its height (what a folded section holds is not on
// the page, though its boxes are); a menu drawn a moment after the click that opens it,
// whose item shares its name with a link in every card below; a list of cards the whole
// of which opens its item, its name a heading; the "⋮" of a card asked for as "..."; a
// toolkit's lists drawn as tables that show their choice inside them, in a form beside a
// tree that is the page's menu.
func TestMenusAndCardsOfTheEleventhPool(t *testing.T) {
	runUnseen(t, newPool(t), []unseenCase{
		{"a section's item in a side menu that folds by height", "unseen-flows.html", "flows", []string{
			`click "Security", click "Settings", check "Allow Readonly Access", click "Save"`,
			`open Security, then Settings, tick Allow Readonly Access and press Save`,
			`Click on "Security" and then on "Settings". Check the box "Allow Readonly Access" and hit the Save button.`,
		}, `"allowReadonly":true`},
		{"an item of a menu drawn after its click, its name in every card too", "unseen-flows.html", "flows", []string{
			`click "Preferences", click "Personal", type "Brooks-Ortiz" into "Last Name", click "Save"`,
			`open Preferences, choose Personal, put Brooks-Ortiz in the Last Name field and press Save`,
			`Click Preferences and pick "Personal". Replace the Last Name with Brooks-Ortiz, then hit Save.`,
		}, `"lastName":"Brooks-Ortiz"`},
		{"a card opened by its name, a heading", "unseen-flows.html", "flows", []string{
			`click "Invoice Sync (EU)"`,
			`open the workflow Invoice Sync (EU)`,
			`Click on Invoice Sync (EU) in the workflow list.`,
		}, `"opened":"Invoice Sync (EU)"`},
		{"a card's three dots asked for as ...", "unseen-flows.html", "flows", []string{
			`click the "..." menu in the row of "Newsletter Draft 2023", click "Archive"`,
			`click "..." in the row "Newsletter Draft 2023", click "Archive"`,
			`In the row of "Newsletter Draft 2023" click the "⋮" button, then click Archive.`,
		}, `"archive":"Newsletter Draft 2023"`},
		{"lists a toolkit draws as tables, in a form beside a tree menu", "unseen-books.html", "books", []string{
			`click "Contacts" in the menu, click "Add Contact", type "C-1004" into "Control Code", select "Customer" in "Class", type "Harbor Lights Deli" into "Name", select "Canada" in "Country", click "Save"`,
			`In the menu on the left open Contacts and click Add Contact. Put C-1004 in the Control Code field, choose Customer in Class, enter Harbor Lights Deli as the Name, pick Canada from Country and press Save.`,
			`open Contacts in the menu, then Add Contact; type "C-1004" into "Control Code", select "Customer" from the Class list, type "Harbor Lights Deli" into "Name", select "Canada" from the Country list, hit Save`,
		}, `{"code":"C-1004","name":"Harbor Lights Deli","cls":"Customer","country":"Canada"}`},
		{"a field on the tab that is open", "unseen-books.html", "books", []string{
			`click "General Journal" in the menu, type "1070" into "Account Number" on the "Account" tab, click "Save"`,
			`Open General Journal in the menu on the left. On the Account tab enter 1070 as the Account Number and press Save.`,
			`open General Journal, then put 1070 in the Account Number field on the Account tab and hit Save`,
		}, `{"account":"1070"}`},
		// "and then Confirm" was read as accepting the browser's own question only: with none
		// asked, the page's Confirm was never pressed (a false success in the twelfth pool).
		{"a question the page asks on a page of its own, answered", "unseen-books.html", "members", []string{
			`type "carla@example.org" into "Email address", click "Add", click "Confirm"`,
			`put carla@example.org in the Email address field, press Add and then Confirm.`,
			`type "carla@example.org" into "Email address", click "Add" and confirm`,
		}, `{"added":"carla@example.org"}`},
		{"a sign-in that names the company whose books to open", "unseen-books.html", "signin", []string{
			`log in as admin / "s3cret" to the company brightwater`,
			`type "admin" into "User Name", type "s3cret" into "Password", type "brightwater" into "Company", click "Login"`,
			`sign in as admin with the password "s3cret" to the company brightwater`,
		}, `{"user":"admin","ok":true,"company":"brightwater"}`},
		{"a question the browser asks, answered", "unseen-books.html", "members", []string{
			`click "Remove tom@example.org", click "OK"`,
			`press Remove tom@example.org and then Confirm.`,
			`click "Remove tom@example.org" and confirm`,
		}, `{"removed":"tom@example.org"}`},
	})
}
