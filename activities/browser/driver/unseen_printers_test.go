package driver_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/plan"
)

// TestPagesAndTabsOfTheThirteenthPool: from the thirteenth pool (read after its blind
// run): a print server's pages under a bar of links along its top that no element marks
// as a navigation, asked for as tabs and as pages ("On the Administration page click …",
// "In the Jobs tab …"), a page asked for when it is the one shown (by its heading: no
// link of that name is there); an admin's menu that marks the page shown only by a class
// on its item, clicked while it is that page (nothing changes: being there is all its
// click does); a form's fields listed with their values, unquoted, one with a comma; a
// step that ends with the page it is on; an amount typed into the box its click opened
// ("enter 180"), and named by its column ("the Budgeted amount"); a wizard's pages gone on from by a bare "Continue"; a button "at the
// bottom of the menu on the left"; a search "in" the box a person names ("use the search
// box to look for …"); a line added at the end of a wiki page's text; and from the
// fourteenth pool's run: a field a form lays out as a table's row, named by the row's
// first cell (phpLiteAdmin's insert form), and a row's text right-clicked where the row
// takes the pointer over its cells (Flood's list, where the click timed out); a text editor
// a script draws, named by the one label over it (Decap's Body).
func TestPagesAndTabsOfTheThirteenthPool(t *testing.T) {
	runUnseen(t, newPool(t), []unseenCase{
		{"a class added from the page along the top bar", "unseen-printers.html#cups", "cups", []string{
			`On the Administration page click the Add Class button. Enter Lab-Room in the Name field, Lab printers in the Description field and Lab, ground floor in the field labelled Location, and hit the Add Class button.`,
			`In the Administration tab press Add Class. On the Add Class page, fill in Name with Lab-Room, Description with "Lab printers" and Location with "Lab, ground floor", then click Add Class.`,
			`click "Administration", click "Add Class", put Lab-Room in the Name field, Lab printers in Description and Lab, ground floor in the Location field, click "Add Class"`,
		}, `"name":"Lab-Room","description":"Lab printers","location":"Lab, ground floor"`},
		{"a class's fields as a form's labels, or each value as its field", "unseen-printers.html#cups", "cups", []string{
			`click "Administration", click "Add Class", fill in Name: Lab-Room, Description: Lab printers, Location: Lab, ground floor, then click Add Class`,
			`On the Administration page press Add Class, type Lab-Room as the name, Lab printers as the description and Lab, ground floor as the location, and press Add Class.`,
			`Go to Administration, click Add Class, give it the name Lab-Room, give it the description Lab printers, put Lab, ground floor in the Location field and click Add Class.`,
		}, `"name":"Lab-Room","description":"Lab printers","location":"Lab, ground floor"`},
		{"a job cancelled on the page of the top bar", "unseen-printers.html#cups", "jobs", []string{
			`In the Jobs tab click Cancel Job in the row of "Quarterly report"`,
			`On the Jobs page, press Cancel Job in the row of Quarterly report.`,
			`Open the Jobs tab and click Cancel Job in the row of "Quarterly report".`,
		}, `{"canceled":"Quarterly report"}`},
		{"an intent, and the control that does it in brackets", "unseen-printers.html#cups", "jobs", []string{
			`On the Jobs page, cancel the job named Quarterly report (the Cancel Job button in its row).`,
			`Open the Jobs tab and cancel Quarterly report (the Cancel Job button in its row)`,
			`In the Jobs tab cancel the job called "Quarterly report" (the Cancel Job button in its row).`,
		}, `{"canceled":"Quarterly report"}`},
		{"a field named by its row's first cell", "unseen-printers.html#insert", "row", []string{
			`type "Children of Dune" into "title", type "1976" into "year", click the "Insert" button`,
			`Put "Children of Dune" in the title field and 1976 in year, then press Insert.`,
			`fill in title with "Children of Dune" and year with 1976, click Insert`,
		}, `{"title":"Children of Dune","year":"1976"}`},
		{"a text editor a script draws, under its label", "unseen-printers.html#post", "post", []string{
			`type "Balcony Herbs" into "Title", type "Basil grows." into "Body", click "Publish"`,
			`Put Balcony Herbs in the Title field, write "Basil grows." in the Body and press Publish.`,
			`type "Balcony Herbs" into the Title field, then type "Basil grows." into the Body editor and hit Publish`,
		}, `{"title":"Balcony Herbs","body":"Basil grows."}`},
		{"a row's text right-clicked where the row takes the pointer", "unseen-printers.html#torrents", "torrent", []string{
			`right-click "podcast-episode-42.mp3", click "Start"`,
			`Right-click podcast-episode-42.mp3 and choose Start from its menu.`,
			`right-click the torrent "podcast-episode-42.mp3", then click Start`,
		}, `{"started":"podcast-episode-42.mp3"}`},
		{"a printer on the page of the top bar", "unseen-printers.html#cups", "printer", []string{
			`click "Lab-Inkjet" on the Printers page`,
			`open Lab-Inkjet on the Printers page.`,
			`On the Printers page, click "Lab-Inkjet"`,
		}, `{"opened":"Lab-Inkjet"}`},
		{"an amount typed into the box its click opened", "unseen-printers.html#budget", "budget", []string{
			`click "150.00" in the row of "Dining Out", enter 180, press Enter`,
			`click 150.00 in the Dining Out row, type 180 and press Enter`,
			`Click 150.00 in the row of Dining Out, then enter "180" and hit Enter.`,
		}, `{"Dining Out":"180.00"}`},
		{"an amount named by its column, in a row", "unseen-printers.html#budget", "budget", []string{
			`click the "Budgeted" amount in the row of "Dining Out", enter 180, press Enter`,
			`click the Budgeted amount in the row of Dining Out, type 180 and press Enter`,
			`Click the amount in the Budgeted column of the "Dining Out" row, then enter "180" and hit Enter.`,
		}, `{"Dining Out":"180.00"}`},
		{"a line added at the end of a text area", "unseen-printers.html#notes", "notes", []string{
			`add the line "* 26 December" at the end of the text box, click "Save"`,
			`Add a new last line * 26 December to the text area and press Save.`,
			`append "* 26 December" to the text box, then click Save`,
		}, `"text":"Office closed on:\n* 24 December\n* 25 December\n* 26 December"`},
		{"a printer's connection, each page gone on from by its Continue", "unseen-printers.html#cups", "addprinter", []string{
			`Go to Administration and hit Add Printer. Pick AppSocket/HP JetDirect, Continue, put socket://192.168.10.25:9100 in the Connection field and Continue.`,
			`On the Administration page click Add Printer, choose "AppSocket/HP JetDirect" and press Continue, then enter socket://192.168.10.25:9100 in the field labelled Connection and Continue.`,
			`click "Administration", click "Add Printer", select "AppSocket/HP JetDirect", Continue, type "socket://192.168.10.25:9100" into "Connection", Continue`,
		}, `{"kind":"socket","uri":"socket://192.168.10.25:9100"}`},
		{"a button at the bottom of the menu on the left", "unseen-printers.html#accounts", "accounts", []string{
			`hit Add account at the bottom of the menu on the left`,
			`click "Add account" at the bottom of the menu on the left`,
			`Press the Add account button at the bottom of the menu on the left.`,
		}, `{"add":true}`},
		{"a search in the box a person names", "unseen-wiki.html#sidebar", "search", []string{
			`use the Search box in the menu on the left to look for "badge reader"`,
			`Use the search box to search for badge reader.`,
			`use the search box to look for "badge reader"`,
		}, `{"patterns":"badge reader"}`},
		{"the menu's item of the page shown, clicked", "unseen-printers.html#admin-users", "users", []string{
			`click "Users", click "Add a user", type "daniel" into "Username", type "Daniel Green" into "Name", click "OK"`,
			`Go to Users, press Add a user, put daniel in the Username field and Daniel Green in Name, then hit OK`,
			`On the Users tab, click Add a user; enter daniel in Username, Daniel Green in the Name field, and click OK.`,
		}, `{"username":"daniel","name":"Daniel Green"}`},
	})
}

// TestLineAddedOnce: a line added at the end of a text area, then the same step again (an
// attempt after one whose outcome was lost): the line is there once, and the second
// attempt says it found it there. A secret is never added after what a field holds.
func TestLineAddedOnce(t *testing.T) {
	s, app := openLab(t, newPool(t), "append", "unseen-printers.html#notes")
	steps, err := plan.Parse(`add the line "* 26 December" at the end of the text area`)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		out, err := s.Do(t.Context(), steps[0], driver.DoOptions{WaitBudget: 2 * time.Second})
		if err != nil || !out.OK {
			t.Fatalf("attempt %d: %v %+v (actions %q)", i+1, err, out.Feedback, out.Actions)
		}
		if i == 1 && !slices.ContainsFunc(out.Actions, func(a string) bool { return strings.Contains(a, "already ends with") }) {
			t.Errorf("the second attempt did not say it found the line there: %q", out.Actions)
		}
	}
	save, _ := plan.Parse(`click "Save"`)
	if out, err := s.Do(t.Context(), save[0], driver.DoOptions{WaitBudget: 2 * time.Second}); err != nil || !out.OK {
		t.Fatalf("save: %v %+v", err, out.Feedback)
	}
	want := `"text":"Office closed on:\n* 24 December\n* 25 December\n* 26 December"`
	if got := labSaved(app, "notes", holds(want)); !strings.Contains(got, want) {
		t.Errorf("saved %s, want %s", got, want)
	}
	if _, err := plan.Parse(`add "{{secret:wiki_password}}" to the text area`); err == nil {
		t.Error("a secret added after what a field holds was read as a step")
	}
}

// TestHeaderIsNoList: a value chosen from "the UPLOAD list" where the page's one thing of
// that name is a table's column header ("Upload Speed", which sorts the table when
// clicked): refused, and the header never clicked.
func TestHeaderIsNoList(t *testing.T) {
	s, app := openLab(t, newPool(t), "header", "unseen-printers.html#torrents")
	steps, err := plan.Parse(`select "500 kB/s" from the UPLOAD list`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Do(t.Context(), steps[0], driver.DoOptions{WaitBudget: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if out.OK {
		t.Fatalf("chose from a column header: %q", out.Actions)
	}
	time.Sleep(300 * time.Millisecond)
	if got := string(app.LabState("sort")); strings.Contains(got, "upload") {
		t.Errorf("the header was clicked: the table was sorted (%s)", got)
	}
}
