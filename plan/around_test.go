package plan

import (
	"strconv"
	"strings"
	"testing"
)

// TestWordsAroundASteps: the words people write around a step — a label before it, an
// aside in brackets, a place before it, a purpose after it, a name after "then" with the
// click understood, "it" and "its" for what the step before named, a question the page
// asks — are read into the steps they mean; what would change the step is kept and read
// or refused with it.
func TestWordsAroundASteps(t *testing.T) {
	readsAs(t, []struct{ goal, want string }{
		{`Sign in first: click the Login link at the top of the page, then type "ann" into "Username"`,
			`CLICK "Login link at the top of the page" | TYPE "Username"="ann"`},
		{`Subscribe to the feed at https://news.example/rss.xml: open the "Actions" menu`, `CLICK "\"Actions\" menu"`},
		{`press the Delete button (the trash can) next to "Old wiki"`, `CLICK "Delete button next to \"Old wiki\""`},
		{`set the field labelled "Color" to "#ff0000" (red)`, `TYPE "field labelled \"Color\""="#ff0000"`},
		{`click "Databases", then "shop", then customers`, `CLICK "Databases" | CLICK "shop" | CLICK "customers"`},
		{`In the Work calendar, click Edit`, `CLICK "Edit In the Work calendar"`},
		{`Under "Delete data or table" click the link "Empty the table"`, `CLICK "link \"Empty the table\" Under \"Delete data or table\""`},
		{`In the field labelled "Rename table to" clear the text`, `CLEAR "field labelled \"Rename table to\""`},
		{`press "Yes" to confirm`, `CLICK "Yes"`},
		{`click "Delete", when asked "Delete it?" click "OK"`, `CLICK "Delete" | CLICK "OK"`},
		{`click "Empty", then press OK when the app asks whether you really want to do it`, `CLICK "Empty" | CLICK "OK"`},
		{`confirm with "OK"`, `CLICK "OK"`},
		{`clear the field labelled "Title", then type "Office" into it`, `CLEAR "field labelled \"Title\"" | TYPE "field labelled \"Title\""="Office"`},
		{`find the bookmark "Old wiki" and click its Delete icon`, `ASSERT="Old wiki" | CLICK "the Delete icon in \"Old wiki\""`},
		{`open Preferences... from the "Actions" menu`, `CLICK "Actions" | CLICK "Preferences..."`},
		{`Next to the bookmark "Old wiki", click the Edit icon`, `CLICK "Edit icon Next to the bookmark \"Old wiki\""`},
		{`change the Tags field so that it holds "baking bread"`, `TYPE "Tags field"="baking bread"`},
		{`open Preferences... from the ☰ menu`, `CLICK "☰" | CLICK "Preferences..."`},
		{`select "Add category" from the "Categories" menu`, `CLICK "Categories" | CLICK "Add category"`},
		{`select "Red" from the dropdown menu`, `SELECT "dropdown menu"="Red"`},
		{`Sign in: in the Login window, type "x" into "Password" and click "Login"`, `TYPE "\"Password\" in the Login window"="x" | CLICK "Login"`},
		{`Click "Files". Delete the file "a.txt" for good: click "a.txt", then click "Delete"`, `CLICK "Files" | CLICK "\"a.txt\"" | CLICK "Delete"`},
		{`Add a comment to the host web01: click "web01"`, `CLICK "web01"`},
		{`click the "login" link under My LDAP Server`, `CLICK "\"login\" link under My LDAP Server"`},
		{`type "x" into the field labelled "Password" in the Add Torrents window`, `TYPE "field labelled \"Password\" in the Add Torrents window"="x"`},
		{`choose "Remove With Data" so that the downloaded file is deleted too`, `CLICK "\"Remove With Data\""`},
		{`right-click "x", choose Queue and then Top, so that it moves to the top of the queue`, `RIGHT_CLICK "x" | CLICK "Queue" | CLICK "Top"`},
		{`In the Filters panel, click Seeding so that only the seeding torrents are shown`, `CLICK "Seeding In the Filters panel"`},
		{`paste the magnet link "magnet:?xt=urn:btih:d8a" into the field labelled "Url"`, `TYPE "field labelled \"Url\""="magnet:?xt=urn:btih:d8a"`},
		{`confirm the change by pressing Update Object`, `CLICK "Update Object"`},
		{`open the Options tab in the Add Torrents window`, `CLICK "Options tab in the Add Torrents window"`},
		{`close the window`, `CLICK "close in the dialog"`},
		{`resize the textarea so that the height is larger than its initial size`, `DRAG "textarea"`},
		{`Open the Preferences dialog with the Edit Preferences button`, `CLICK "Edit Preferences button"`},
		{`Select the torrent "conference-talks" in the list`, `CLICK "\"conference-talks\" in the list"`},
		{`tick "Download (kB/s):", then type "250" into its field`, `CHECK "Download (kB/s):" | TYPE "the field in the row \"Download (kB/s):\""="250"`},
		{`make sure the field labelled "Login DN" holds cn=admin,dc=example,dc=org`, `ASSERT "field labelled \"Login DN\""="cn=admin,dc=example,dc=org"`},
	})
	for _, c := range []struct{ goal, why string }{
		{`Click on the grid coordinate (-1,0)`, "names several elements"},
		{`click "Save" (twice)`, "cannot tell what"},
		{`In parallel: click "A", click "B"`, "does not start with an action"},
		{`type the following: hello`, ""},
		{`click "Open" in a new window`, "opening in a new tab or window is not an action"},
		{`click here, then wait`, "could not be read"},
		{`type "x" into it`, "refers to nothing named before it"},
		{`go to https://example.com, click its Edit link`, "refers to no item named before it"},
		{`find the email by Rochella`, "could not be read"},
	} {
		if _, err := Parse(c.goal); err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%s: want a refusal saying %q, got %v", c.goal, c.why, err)
		}
	}
}

// TestEditingVerbsAndSeveralFields: "change", "replace" and "update" give a field its
// value ("from" the old one too), one verb may give several fields theirs, and a value
// with no field of its own is still refused.
func TestEditingVerbsAndSeveralFields(t *testing.T) {
	readsAs(t, []struct{ goal, want string }{
		{`change the "Site title" field to Reading List`, `TYPE "\"Site title\" field"="Reading List"`},
		{`replace "Title" with "Office"`, `TYPE "Title"="Office"`},
		{`replace New York in the "City" field with "Arlington"`, `TYPE "\"City\" field"="Arlington"`},
		{`change the value of the field labelled "city" from "New York" to "Arlington"`, `TYPE "field labelled \"city\""="Arlington"`},
		{`change "Purge articles older than" from 60 to 30`, `TYPE "Purge articles older than"="30"`},
		{`fill "Title" with "Learn Rust", "Description" with "Books." and "Tags" with "rust"`,
			`TYPE "Title"="Learn Rust" | TYPE "Description"="Books." | TYPE "Tags"="rust"`},
		{`fill "Tag" with docs and "New name" with documentation and press "Rename"`,
			`TYPE "Tag"="docs" | TYPE "New name"="documentation" | CLICK "Rename"`},
		{`type admin into the field labelled "Username" and "s3cret" into the Password field`,
			`TYPE "field labelled \"Username\""="admin" | TYPE "Password field"="s3cret"`},
		{`change the "Title" field to "A" and the "Notes" field to "B"`, `TYPE "\"Title\" field"="A" | TYPE "\"Notes\" field"="B"`},
	})
	if steps, err := Parse(`click "Delete", then click "OK"`); err != nil || !steps[0].AcceptDialog || !steps[1].AnswersDialog {
		t.Errorf("an OK after a click answers its question: %+v %v", steps, err)
	}
	if steps, err := Parse(`click "Delete", then click "OK" in the dialog`); err != nil || steps[0].AcceptDialog || steps[1].AnswersDialog {
		t.Errorf("an OK placed in a box the page draws is clicked as written: %+v %v", steps, err)
	}
	if _, err := Parse(`Type "a" and "b" into "Name"`); err == nil {
		t.Errorf("two values for one field read as steps")
	}
}

// TestPlacesNamedByRelation: an element named by where it is relative to a quoted place —
// under a heading, of or for an item of some kind, beside a text — is read as that element
// inside that place, its own name unquoted and held as any unquoted name.
func TestPlacesNamedByRelation(t *testing.T) {
	for _, c := range []struct {
		desc      string
		name, row string
	}{
		{`"Edit" under "Work"`, "Edit", "Work"},
		{`the Edit link of the "Work" calendar`, "Edit", "Work"},
		{`Edit for the "Work" calendar`, "Edit", "Work"},
		{`the Delete link of the "Friends" address book`, "Delete", "Friends"},
		{`the "Edit" icon of "PostgreSQL manual"`, "Edit", "PostgreSQL manual"},
		{`the + next to "Work"`, "+", "Work"},
		{`the Value box of "email"`, "Value", "email"},
		{`the Go button at the bottom of "Table options"`, "Go", "Table options"},
		{`"Delete" on the row with Stapler`, "Delete", "Stapler"},
		{`"Edit" in the row for Grace Hopper`, "Edit", "Grace Hopper"},
		{`the star icon beside "New coffee machine" in the list of articles`, "star", "New coffee machine"},
		{`the Edit icon next to the bookmark "Old wiki"`, "Edit", "Old wiki"},
		{`the Edit icon of "Sourdough starter guide" in the results`, "Edit", "Sourdough starter guide"},
	} {
		if reason := exactTarget(maskedOf(c.desc)); reason != "" {
			t.Errorf("%s: refused: %s", c.desc, reason)
		}
		p := ParseTarget(c.desc)
		if p.Name != c.name || p.Row != c.row {
			t.Errorf("%s: read as %+v, want the name %q in %q", c.desc, p, c.name, c.row)
		}
	}
	if p := ParseTarget(`open the context menu of "Report.pdf"`); p.Row != "" {
		t.Errorf("a quote with no element's kind before it is no place: %+v", p)
	}
}

func maskedOf(s string) (string, []string) { return mask(s) }

// readsAs checks that each goal is read as the steps brief writes as want.
func readsAs(t *testing.T, cases []struct{ goal, want string }) {
	t.Helper()
	for _, c := range cases {
		steps, err := Parse(c.goal)
		if err != nil {
			t.Errorf("%s: %v", c.goal, err)
			continue
		}
		if got := brief(steps); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.goal, got, c.want)
		}
	}
}

// brief writes steps as ACTION "target"="value", joined by " | ".
func brief(steps []Step) string {
	var parts []string
	for _, s := range steps {
		p := string(s.Action)
		if s.TargetDescription != "" {
			p += " " + strconv.Quote(s.TargetDescription)
		}
		if s.Value != "" && s.Action != Click {
			p += "=" + strconv.Quote(s.Value)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " | ")
}
