package driver_test

import (
	"strings"
	"testing"
)

// TestMechanicsOfUnseenApps reproduces what stopped goals on real apps nobody here had
// seen, each goal written three ways a person would: a sign-in whose button repeats the
// first field's name; an issue page whose toolbar is shown twice (one control, one
// target) beside two "Delete" links that differ (a tie, refused); a to-do whose checkbox
// is labelled by its text, hovered to show its delete button; the edit box a double-click
// opens; tabs whose list items carry the role, named by their number; a dialog's close
// control by its purpose. Each is judged by what the page saved on the server.
func TestMechanicsOfUnseenApps(t *testing.T) {
	runUnseen(t, newPool(t), []unseenCase{
		{"a sign-in whose button repeats the field's name", "unseen-signin.html", "signin", []string{
			`type "admin" into "Login", type "s3cret" into "Password", click "Login"`,
			`type admin into the Login field, then type s3cret into the field labelled Password and press the Login button`,
			`enter "admin" in the "Login" field; enter "s3cret" in "Password"; then click the "Login" button`,
		}, `{"user":"admin","ok":true}`},
		{"a toolbar shown twice", "unseen-issue.html", "issue", []string{
			`click "Edit", type "Crash when saving" into "Subject", click "Submit"`,
			`click Edit, then type Crash when saving into the Subject field and press Submit`,
			`press the "Edit" link; fill "Subject" with "Crash when saving"; then click the "Submit" button`,
		}, `"subject":"Crash when saving"`},
		{"log time from a toolbar shown twice", "unseen-issue.html", "issue", []string{
			`click "Log time", type "2" into "Hours", click "Create"`,
			`click Log time, then type 2 into the Hours field and press Create`,
			`press the "Log time" link; fill "Hours" with "2"; then click the "Create" button`,
		}, `"hours":2`},
		{"two controls called Delete that differ", "unseen-issue.html", "issue", []string{
			`click "Delete"`,
			`click Delete`,
			`press the "Delete" link`,
		}, ""},
		{"a row hovered by its labelled checkbox", "unseen-todos.html", "todos", []string{
			`hover over "Buy milk", click the delete button in the row "Buy milk"`,
			`hover over Buy milk, then click the Delete button in the row "Buy milk"`,
			`move the mouse over "Buy milk" and click "Delete" in the row "Buy milk"`,
		}, `[{"id":2,"title":"Walk the dog","done":false}]`},
		{"the edit box a double-click opens", "unseen-todos.html", "todos", []string{
			`double-click "Buy milk", type "Buy oat milk" into the edit field in the row, press Enter`,
			`double-click Buy milk, then type Buy oat milk into the edit box and press Enter`,
			`dblclick "Buy milk"; type "Buy oat milk" into the text field that opened; press Enter`,
		}, `"title":"Buy oat milk"`},
		{"a tab named by its number", "unseen-tabs.html", "tabs", []string{
			`click on Tab #2, then click "perspiciatis"`,
			`click the 2nd tab and click "perspiciatis"`,
			`switch to tab 2, then click the link "perspiciatis"`,
		}, `"tab":2,"picked":"perspiciatis"`},
		{"a menu whose box lies over its label", "unseen-menu.html", "menu", []string{
			`click "More", then click "Move"`,
			`click More and click Move`,
			`open the "More" menu; press "Move"`,
		}, `"last":"move"`},
		{"an item chosen from the menu its control opens", "unseen-menu.html", "menu", []string{
			`choose "Move" from the "More" menu`,
			`select Move from the More menu`,
			`Pick "Move" from the More menu.`,
		}, `"last":"move"`},
		{"one place linked twice, named in two cases", "unseen-menu.html", "menu", []string{
			`click "Watch", then click "Watchlist"`,
			`click Watch and click Watchlist`,
			`press the "Watch" link; then press the "Watchlist" link`,
		}, `"last":"watchlist"`},
		{"a row's actions placed off the page until it is hovered", "unseen-menu.html", "menu", []string{
			`hover over "Old announcement", click "Trash"`,
			`move the mouse over Old announcement and click Trash`,
			`hover over "Old announcement"; then press the "Trash" link`,
		}, `"last":"trash-2"`},
		{"a field named by its row, past a list of functions", "unseen-rowform.html", "rowform", []string{
			`type "Alan Turing" into "name", type "alan@example.org" into "email", click "Save"`,
			`type Alan Turing into the name field, then type alan@example.org into the email field and press Save`,
			`fill "name" with "Alan Turing"; fill the field labelled email with "alan@example.org"; then click the "Save" button`,
		}, `{"name":"Alan Turing","email":"alan@example.org"}`},
		{"a field named by the words before it in its paragraph", "unseen-rowform.html", "wikinew", []string{
			`type "Release Plan" into "Name of new wiki page", click "Create"`,
			`type Release Plan into the field labelled "Name of new wiki page" and press Create`,
			`fill "Name of new wiki page" with "Release Plan"; then click the "Create" button`,
		}, `{"page":"Release Plan"}`},
		{"a dialog's close control by its purpose", "unseen-tabs.html", "tabs", []string{
			`close the dialog`,
			`dismiss the "Newsletter" dialog`,
			`click the close button of the dialog`,
		}, `"dialog":"closed"`},
		{"a toolbar's commands marked as menu items, beside a button titled with their words", "unseen-mail.html", "mail", []string{
			`click "Weekly deals", click "Reply"`,
			`open the message "Weekly deals", then press the Reply button`,
			`Click the Weekly deals message, then click the "Reply" button.`,
		}, `"replied":"Weekly deals"`},
		{"one verb for two controls; a message by its subject and its noun", "unseen-mail.html", "mail", []string{
			`click "Project kickoff notes", click "Mark", click "As unread"`,
			`open the message "Project kickoff notes", then press "Mark" and "As unread"`,
			`Click the message Project kickoff notes, then click the Mark button and click "As unread" in the menu.`,
		}, `"marked":{"Project kickoff notes":"unread"}`},
		{"a folder picker in a popover", "unseen-mail.html", "mail", []string{
			`click "Weekly deals", click "More", click "Move to...", then click "Receipts" in the dialog`,
			`open the message "Weekly deals", press "More", press "Move to..." and choose "Receipts" in the dialog`,
			`Click the message "Weekly deals", click the More button, click "Move to..." and then click "Receipts" in the popup.`,
		}, `"moved":{"Weekly deals":"Receipts"}`},
		{"a panel whose first click the app lost while it started", "unseen-mail.html", "mail", []string{
			`click "Music", click "Pause"`,
			`open the "Music" folder and press "Pause"`,
			`Click Music. Then click the Pause button in the Music panel.`,
		}, `"paused":["Music"]`},
		{"the Create command and a path the page writes out", "unseen-mail.html", "mail", []string{
			`click "Create", type "Fiona" into "First Name", type "~/Photos" into "Folder Path", click "Save"`,
			`press the Create button; fill "First Name" with "Fiona", fill "Folder Path" with "~/Photos" and press "Save"`,
			`Click the Create button. Type Fiona into the First Name field, type "~/Photos" into the field labelled "Folder Path", then click the Save button.`,
		}, `{"first":"Fiona","last":"","path":"/home/ann/Photos"}`},
		{"a range, filled, not clicked for a field it opens", "unseen-range.html", "range", []string{
			`type "40" into "Volume"`,
			`fill "Volume" with "40"`,
			`enter 40 in "Volume"`,
		}, `"volume":"40"`},
		{"a tab a script library draws from a link", "unseen-mail.html", "mail", []string{
			`click the "Sharing" tab, tick "Home NAS"`,
			`open the "Sharing" tab and tick "Home NAS"`,
			`Click the Sharing tab, then tick the checkbox for Home NAS.`,
		}, `"shared":true`},
		{"a block editor's placeholder, and a title cleared", "unseen-mail.html", "mail", []string{
			`clear "Add title", type "Weekend hike" into "Add title", type "We walk to the lake." into "Type / to choose a block", click "Publish"`,
			`clear the "Add title" field, then fill "Add title" with "Weekend hike", enter "We walk to the lake." in "Type / to choose a block" and press "Publish"`,
			`Clear the title field labelled "Add title" and type Weekend hike into the field labelled "Add title". Write "We walk to the lake." in "Type / to choose a block", then click the Publish button.`,
		}, `"post":{"title":"Weekend hike","body":"We walk to the lake."}`},
		{"a top menu bar people call tabs; a field placed under its card's header", "unseen-admin.html", "admin", []string{
			`click the "Databases" tab, type "inventory" into the field labelled "Database name" under "Create database", click "Create"`,
			`open the Databases tab, then fill Database name with inventory and press Create`,
			`Switch to the Databases tab. Type inventory into the Database name field and click the Create button.`,
		}, `"created":"inventory"`},
		{"one of two Go buttons, named by the box it ends", "unseen-admin.html", "admin", []string{
			`click "Operations", replace "orders" in "Rename table to" with "purchases", click the "Go" button under "Table options"`,
			`open the Operations tab, change the "Rename table to" field to purchases and press the Go button at the bottom of "Table options"`,
			`Click Operations. Clear the field labelled "Rename table to", then type purchases into it and click "Go" in "Table options".`,
		}, `"renamed":"purchases"`},
		{"fields named by the line above them", "unseen-admin.html", "admin", []string{
			`type "Team Events" into "Title", type "Parties" into "Description", click "Create"`,
			`fill "Title" with Team Events and "Description" with "Parties", then press Create`,
			`Type Team Events into the Title field and "Parties" into the field labelled "Description", then click the Create button.`,
		}, `"calendar":{"title":"Team Events","description":"Parties"}`},
		{"an item's action in a list of its own, named by the item", "unseen-admin.html", "admin", []string{
			`click "Delete" under "Old Projects"`,
			`press the Delete link of the "Old Projects" calendar`,
			`In the Old Projects item, click Delete.`,
		}, `"deleted":"Old Projects"`},
		{"an item's icon-only link, each of its controls in a box of its own", "unseen-admin.html", "admin", []string{
			`click the "Edit" icon of "PostgreSQL manual"`,
			`find the bookmark "PostgreSQL manual" and click its Edit button`,
			`Press Edit for the "PostgreSQL manual" bookmark.`,
		}, `"edit":"PostgreSQL manual"`},
		{"a menu bar's link drawn as an icon and a word, called a button", "unseen-admin.html", "admin", []string{
			`click the "Shaare" button`,
			`press the Shaare button`,
			`Click the button labelled Shaare.`,
		}, `"shaare":true`},
		{"a link whose one child is drawn as a button", "unseen-admin.html", "admin", []string{
			`click the "Configure your site" button`,
			`press the Configure your site button`,
			`Click the button "Configure your site".`,
		}, `"configure":true`},
		{"an item named by the words after under", "unseen-admin.html", "admin", []string{
			`click Delete under Old Projects`,
			`press the Delete link under Old Projects`,
			`Click the Delete link under "Old Projects".`,
		}, `"deleted":"Old Projects"`},
		{"a field under the suggestions the field before it opened", "unseen-admin.html", "admin", []string{
			`type "docs" into "Tag", type "documentation" into "New name", click "Rename tag"`,
			`fill "Tag" with docs and "New name" with documentation and press "Rename tag"`,
			`Type docs into the Tag field, then type documentation into the field labelled "New name" and click the Rename tag button.`,
		}, `"tag":{"from":"docs","to":"documentation"}`},
		{"the page's own question, answered by the OK the goal writes after the click", "unseen-admin.html", "admin", []string{
			`click "Remove Chores", then click "OK"`,
			`press Remove Chores and press OK when asked "Remove the Chores calendar?"`,
			`Click the Remove Chores button, then click the OK button.`,
		}, `"removed":"Chores"`},
		{"an editor that fades in: its fields, not the button that opened it nor a field sharing a word", "unseen-entrance.html", "entrance", []string{
			`click "Create a new note", type "Groceries" into "New note", type "bread" into "Type the text for this note", type "errands" into "tag name", click "done"`,
			`press the "new note" button, then fill "New note" with Groceries, type bread into the field labelled "Type the text for this note" and errands into "tag name", and press done`,
			`Click Create a new note. Type Groceries into the New note field, type bread into "Type the text for this note" and type errands into the tag name field, then click the done button.`,
		}, `{"notes":[{"title":"Groceries","text":"bread","tag":"errands"}]}`},
		{"a window a script library draws with no ARIA, named by its title; a label before the steps", "unseen-window.html", "window", []string{
			`Sign in: in the Login window, type "s3cret" into the field labelled "Password" and click the Login button.`,
			`type s3cret into the Password field in the Login window, then press the Login button in the Login window`,
			`Sign in to the torrent client first: type "s3cret" into "Password" in the "Login" window and press "Login" in the "Login" window.`,
		}, `{"login":"s3cret"}`},
		{"a tab of a script library's tab strip, in its window", "unseen-window.html", "window", []string{
			`click the "Options" tab in the Login window, then tick "Remember me"`,
			`open the Options tab in the Login window and tick Remember me`,
			`In the Login window, switch to the Options tab. Then tick the checkbox labelled "Remember me".`,
		}, `{"remember":true}`},
		{"its field: the field in the row of the box ticked before", "unseen-window.html", "window", []string{
			`tick "Download (kB/s):", then type "250" into its field`,
			`check Download (kB/s): and enter 250 in its field`,
			`Tick the checkbox labelled "Download (kB/s):" and type 250 into its field.`,
		}, `{"limit":{"on":true,"kbps":"250"}}`},
		{"a list with no label, chosen from, beside a menu of the same words", "unseen-overview.html", "forms", []string{
			`select "example.org" in the domain list`,
			`pick example.org in the domain list`,
			`In the domain list, choose example.org.`,
		}, `{"domain":"example.org"}`},
		{"a link a script turned into its menu's button, the menu holding the link again", "unseen-forms.html", "forms", []string{
			`click "Virtual List", click "Load mailboxes"`,
			`press Virtual List, then press Load mailboxes`,
			`Click Virtual List at the top. Click the Load mailboxes button.`,
		}, `{"view":"virtual","all":true}`},
		{"an item of the menu a link's click opened", "unseen-forms.html", "forms", []string{
			`click "Virtual List", click "Add Mailbox"`,
			`press Virtual List, then press Add Mailbox`,
			`Click Virtual List at the top and then click Add Mailbox.`,
		}, `{"view":"add"}`},
		{"a menu asked to open stays open", "unseen-forms.html", "forms", []string{
			`open the Virtual List menu, click "Add Mailbox"`,
			`open the Virtual List menu and press Add Mailbox`,
			`Open the "Virtual List" menu. Then click Add Mailbox.`,
		}, `{"view":"add"}`},
		{"a list alike the page's own filter, in the section the step before opened", "unseen-sections.html", "sections", []string{
			`click "Add a new queue", select "staging" in "Virtual host", type "payments" into "Name", click "Add queue"`,
			`open Add a new queue, pick staging as the Virtual host, enter payments as the Name and press Add queue`,
			`Click "Add a new queue". Select staging in the field labelled "Virtual host", type "payments" in the field labelled "Name" and click the "Add queue" button.`,
		}, `{"queue":"payments","vhost":"staging"}`},
		{"a text area named by its table's label, in a section opened", "unseen-sections.html", "sections", []string{
			`click "Publish message", type "order 1042 shipped" into "Payload", click the "Publish message" button`,
			`expand Publish message, fill Payload with order 1042 shipped and press the Publish message button`,
			`Open the "Publish message" section, write "order 1042 shipped" in the field labelled "Payload" and click the "Publish message" button.`,
		}, `{"payload":"order 1042 shipped"}`},
		{"a list a script draws as a button showing its choice, named by its row's label", "unseen-forms.html", "forms", []string{
			`select "IT Helpdesk" in "Queue"`,
			`pick IT Helpdesk as the Queue`,
			`Choose IT Helpdesk from the Queue list.`,
		}, `{"queue":"IT Helpdesk"}`},
		{"a list a script draws as a button, typed into: the option of that text chosen", "unseen-forms.html", "forms", []string{
			`type "IT Helpdesk" into "Queue"`,
			`enter IT Helpdesk in the Queue field`,
			`Write "IT Helpdesk" in the field labelled "Queue".`,
		}, `{"queue":"IT Helpdesk"}`},
		{"a link named by the heading of its section", "unseen-sections.html", "sections", []string{
			`click "Add" in the "Networks" section`,
			`press Add in the Networks section`,
			`In the "Networks" section, click the "Add" link.`,
		}, `{"add":"network"}`},
		{"an item of the menu hovered before, beside a button of its name", "unseen-forms.html", "forms", []string{
			`hover over "Users", click "Create"`,
			`open Users > Create`,
			`Point at Users in the menu, then click Create.`,
		}, `{"create":"user"}`},
		{"a field of the form being filled in, alike one in another form", "unseen-sections.html", "sections", []string{
			`select "staging" in "Virtual Host" under "Set permission", type "^ci-.*" into "Write regexp", click the "Set permission" button`,
			`select staging in the Virtual Host list under Set permission, change Write regexp to ^ci-.* and press Set permission`,
			`In the "Set permission" section, select "staging" in the field labelled "Virtual Host". Replace the text in the field labelled "Write regexp" with ^ci-.* and click the Set permission button.`,
		}, `{"permission":{"vhost":"staging","write":"^ci-.*"}}`},
		{"fields named by the buttons above them, in words an icon font draws beside", "unseen-studio.html", "studio", []string{
			`type "Harbour news" into "Title", type "ed@example.org" into "Email", click "Save"`,
			`type Harbour news into the Title field, then fill Email with ed@example.org and press Save`,
			`Fill the field labelled "Title" with "Harbour news" and the Email with ed@example.org, then hit the Save button.`,
		}, `{"title":"Harbour news","email":"ed@example.org","body":""}`},
		{"a link whose icon is a word the icon font draws", "unseen-studio.html", "studio", []string{
			`click "Authors"`,
			`click Authors`,
			`press the Authors link`,
		}, `{"opened":"authors"}`},
		{"a link to the page already shown", "unseen-studio.html", "studio", []string{
			`click "Content"`,
			`click Content`,
			`open the Content link`,
		}, `{"opened":"content"}`},
		{"an item opened by a click on its title in a row the table opens as a whole", "unseen-studio.html", "studio", []string{
			`click "Library Extends Weekend Hours"`,
			`click Library Extends Weekend Hours`,
			`Click on Library Extends Weekend Hours.`,
		}, `{"item":"2"}`},
		{"the heading of a section of a menu that flies out when its cog is pointed at", "unseen-monitor.html", "monitor", []string{
			`click "Configuration", click "Access Control"`,
			`click Configuration, then click Access Control`,
			`Click the "Configuration" heading and then click "Access Control".`,
		}, `{"opened":"access control"}`},
		{"a menu entry in a section the menu keeps folded, its header clicked to unfold it", "unseen-console.html", "console", []string{
			`click "Trees"`,
			`click Trees`,
			`Open the "Trees" link.`,
		}, `{"opened":"trees"}`},
		{"a link in a layer with no height until its header is pointed at", "unseen-console.html", "console", []string{
			`click "Groups"`,
			`click Groups`,
			`press the Groups link`,
		}, `{"opened":"groups"}`},
		{"an entry folded away, exactly named, over a link in sight that holds its name", "unseen-console.html", "console", []string{
			`click "Devices"`,
			`click Devices`,
			`press the "Devices" link`,
		}, `{"opened":"devices"}`},
		{"a row's checkbox drawn by its label, a list named by its prompt, the Go it enables", "unseen-console.html", "console", []string{
			`check the box in the row of "Old Printer", select "Delete" from "Choose an action", click "Go", click "Continue"`,
			`tick Old Printer, choose Delete in the "Choose an action" list, press Go and then Continue`,
			`Tick the checkbox in the row "Old Printer". From the "Choose an action" list choose "Delete" and click Go. On the next page click the "Continue" button.`,
		}, `{"action":"Delete","devices":["Old Printer"]}`},
		{"fields below the fold named by the cells before their boxes", "unseen-console.html", "console", []string{
			`type "+45 3312 4499" into "Telephone number", click "Save"`,
			`fill Telephone number with +45 3312 4499 and press Save`,
			`Replace the Telephone number with "+45 3312 4499", then click the "Save" button.`,
		}, `{"phone":"+45 3312 4499","fax":""}`},
		{"a menu behind an icon font's glyph", "unseen-console.html", "console", []string{
			`click "⋮", click "Edit topic"`,
			`press the ⋮ button, then click Edit topic`,
			`Open the menu with the ⋮ button and click "Edit topic".`,
		}, `{"topic":"edit"}`},
		{"labels a form draws beside its controls without tying them", "unseen-forms.html", "forms", []string{
			`type "jobs" into "Alias", type "carol@example.org" into "To", untick "Active", click "Add Alias"`,
			`fill Alias with jobs, put carol@example.org in the "To" box, clear the checkbox labelled "Active" and press Add Alias`,
			`Type "jobs" into the field labelled "Alias". Write carol@example.org in the To field, untick Active, then click the Add Alias button.`,
		}, `{"alias":"jobs@example.net","to":"carol@example.org","recipients":[],"active":false}`},
		{"a list shown open, named by the label beside its first line", "unseen-forms.html", "forms", []string{
			`select "dave@example.org" in "Recipients", click "Add Alias"`,
			`choose dave@example.org in the Recipients list, then press Add Alias`,
			`In the list labelled "Recipients", select dave@example.org. Click the Add Alias button.`,
		}, `"recipients":["dave@example.org"]`},
		{"an entry of a menu that CSS shows on hover, its list in a box of no size", "unseen-classic.html", "classic", []string{
			`click "List Users"`,
			`go to List Users`,
			`Open List Users under User Functions in the menu`,
		}, `{"page":"users"}`},
		{"a row's text, the row made to be clicked once pointed at", "unseen-classic.html#users", "classic", []string{
			`click "alice"`,
			`click alice`,
			`open alice`,
		}, `{"opened":"u1001"}`},
		{"a button whose name ends with an exclamation mark", "unseen-classic.html", "classic", []string{
			`click "GO!"`,
			`press GO!`,
			`click the GO! button`,
		}, `{"pressed":"GO!"}`},
		{"an item's link named by the item", "unseen-admin.html", "admin", []string{
			`click "Edit" under "Work"`,
			`press the Edit link of the "Work" calendar`,
			`In the Work calendar, click Edit.`,
		}, `"edit":"Work"`},
	})
}

// TestIconFontWordsNameNothing: the words an icon font draws as pictures (in the page's
// text, or from the stylesheet's content) are no part of a control's name; they are its
// hints, and an icon-only control keeps its word as its name.
func TestIconFontWordsNameNothing(t *testing.T) {
	pool := newPool(t)
	s, _ := openLab(t, pool, "icons", "unseen-studio.html")
	obs, err := s.Observe(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, e := range obs.Elements {
		names[e.Name] = true
		if strings.Contains(e.Name, "arrow_drop_down") || strings.Contains(e.Name, "star") {
			t.Errorf("%s: an icon's word in its name", e.Ref())
		}
	}
	for _, want := range []string{"Title", "Status", "Body", "Articles", "Save"} {
		if !names[want] {
			t.Errorf("no control named %q:\n%s", want, obs.Compact())
		}
	}
}
