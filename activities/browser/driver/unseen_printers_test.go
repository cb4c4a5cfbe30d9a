package driver_test

import "testing"

// TestPagesAndTabsOfTheThirteenthPool: from the thirteenth pool (read after its blind
// run): a print server's pages under a bar of links along its top that no element marks
// as a navigation, asked for as tabs and as pages ("On the Administration page click …",
// "In the Jobs tab …"), a page asked for when it is the one shown (by its heading: no
// link of that name is there); an admin's menu that marks the page shown only by a class
// on its item, clicked while it is that page (nothing changes: being there is all its
// click does); a form's fields listed with their values, unquoted, one with a comma.
func TestPagesAndTabsOfTheThirteenthPool(t *testing.T) {
	runUnseen(t, newPool(t), []unseenCase{
		{"a class added from the page along the top bar", "unseen-printers.html#cups", "cups", []string{
			`On the Administration page click the Add Class button. Enter Lab-Room in the Name field, Lab printers in the Description field and Lab, ground floor in the field labelled Location, and hit the Add Class button.`,
			`In the Administration tab press Add Class. On the Add Class page, fill in Name with Lab-Room, Description with "Lab printers" and Location with "Lab, ground floor", then click Add Class.`,
			`click "Administration", click "Add Class", put Lab-Room in the Name field, Lab printers in Description and Lab, ground floor in the Location field, click "Add Class"`,
		}, `"name":"Lab-Room","description":"Lab printers","location":"Lab, ground floor"`},
		{"a job cancelled on the page of the top bar", "unseen-printers.html#cups", "jobs", []string{
			`In the Jobs tab click Cancel Job in the row of "Quarterly report"`,
			`On the Jobs page, press Cancel Job in the row of Quarterly report.`,
			`Open the Jobs tab and click Cancel Job in the row of "Quarterly report".`,
		}, `{"canceled":"Quarterly report"}`},
		{"the menu's item of the page shown, clicked", "unseen-printers.html#admin-users", "users", []string{
			`click "Users", click "Add a user", type "daniel" into "Username", type "Daniel Green" into "Name", click "OK"`,
			`Go to Users, press Add a user, put daniel in the Username field and Daniel Green in Name, then hit OK`,
			`On the Users tab, click Add a user; enter daniel in Username, Daniel Green in the Name field, and click OK.`,
		}, `{"username":"daniel","name":"Daniel Green"}`},
	})
}
