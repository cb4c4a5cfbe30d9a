//go:build heldout

package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// adminerGoal is one everyday goal on Adminer, on the shop testenv.AdminerSeed makes: three
// phrasings a person would write (each after signing in, itself said three ways by
// adminerSignIn), the judge that reads the SQLite file, and the same effect done through
// Adminer's own forms, for the harness's check (TestHeldOutAdminerJudge).
type adminerGoal struct {
	name      string
	phrasings [3]string
	// judge says "" when the file holds what the goal asked for and nothing else changed.
	judge func(d *testenv.AdminerDB) string
	// do does the goal's effect as the app's forms do, and returns the page it lands on.
	do func(t *testing.T, s *testenv.AdminerSession) string
	// shows and hides are what that page must show (and not show): what the phrasings check.
	shows, hides []string
}

// adminerSignIn is the sign-in every phrasing starts with (the i-th way of saying it): the
// password is granted by the worker, the database is the file's path.
func adminerSignIn(i int, db string) string {
	const secret = "{{secret:adminer_password}}"
	switch i {
	case 0:
		return `select "SQLite 3" from "System", type "` + secret + `" into "Password", type "` + db + `" into "Database", click "Login", `
	case 1:
		return `Choose "SQLite 3" from the "System" field, enter "` + secret + `" into the "Password" field, enter "` + db + `" into the "Database" field, then press the "Login" button. Then `
	default:
		return `pick SQLite 3 from System; fill Password with "` + secret + `"; fill Database with "` + db + `"; click Login; `
	}
}

const adminerUpdate = `UPDATE orders SET status = 'shipped' WHERE status = 'pending'`

var adminerGoals = []adminerGoal{{
	name: "add a customer with New item",
	phrasings: [3]string{
		`click "customers", click "New item", type "Alan Turing" into "name", type "alan@example.org" into "email", type "Manchester" into "city", click "Save", then check that "Alan Turing" is visible`,
		`open "customers" and press "New item", then enter "Alan Turing" into the field labelled "name", enter "alan@example.org" into the field labelled "email", enter "Manchester" into the field labelled "city" and press "Save"`,
		`click customers; click New item; fill name with "Alan Turing"; fill email with "alan@example.org"; fill city with "Manchester"; click Save; make sure "Alan Turing" is visible`,
	},
	judge: func(d *testenv.AdminerDB) string {
		return adminerChange(d, "customers", nil, []map[string]string{{"name": "Alan Turing", "email": "alan@example.org", "city": "Manchester"}}) + d.Unchanged(nil, "orders")
	},
	do: func(t *testing.T, s *testenv.AdminerSession) string {
		return adminerSubmit(t, s, "edit=customers", "fields[name]", "Alan Turing", "fields[email]", "alan@example.org", "fields[city]", "Manchester")
	},
	shows: []string{"Alan Turing"},
}, {
	name: "edit a customer's city",
	phrasings: [3]string{
		`click "customers", click "Select data", click the "edit" link in the row "Grace Hopper", clear "city", type "Arlington" into "city", click "Save", then check that "Arlington" is visible`,
		`open "customers", press "Select data" and then press the "edit" link in the row "Grace Hopper", type "Arlington" into the "city" field and press "Save"`,
		`click customers; click Select data; click the edit link in the row "Grace Hopper"; clear the text in the city field; enter "Arlington" in city; click Save`,
	},
	judge: func(d *testenv.AdminerDB) string {
		return adminerChange(d, "customers", []map[string]string{{"id": "2"}}, []map[string]string{{"id": "2", "name": "Grace Hopper", "email": "grace@example.org", "city": "Arlington"}}) + d.Unchanged(nil, "orders")
	},
	do: func(t *testing.T, s *testenv.AdminerSession) string {
		return adminerSubmit(t, s, "edit=customers&where%5Bid%5D=2", "fields[city]", "Arlington")
	},
	shows: []string{"Arlington"},
}, {
	name: "delete an order",
	phrasings: [3]string{
		`click "orders", click "Select data", click the "edit" link in the row "Stapler", click "Delete", then check that "Stapler" is not visible`,
		`open "orders", press "Select data", press the "edit" link in the row "Stapler" and press "Delete"`,
		`click orders; click Select data; tick the checkbox for "Stapler"; click Delete; make sure "Stapler" is not visible`,
	},
	judge: func(d *testenv.AdminerDB) string {
		return adminerChange(d, "orders", []map[string]string{{"item": "Stapler"}}, nil) + d.Unchanged(nil, "customers")
	},
	do: func(t *testing.T, s *testenv.AdminerSession) string {
		return adminerSubmit(t, s, "edit=orders&where%5Bid%5D=2", "delete", "Delete")
	},
	hides: []string{"Stapler"},
}, {
	name: "create a table with two columns",
	phrasings: [3]string{
		`click "Create table", type "suppliers" into "Table name", type "name" into "Column name", select "text" from "Type", click the second "Add next" button, type "phone", click "Save", then check that "suppliers" is visible`,
		`press "Create table", then enter "suppliers" into the "Table name" field, enter "name" into the "Column name" field, choose "text" from "Type", press the second "Add next" button, enter "phone" into the second "Column name" field, choose "text" from the second "Type" field and press "Save"`,
		`click Create table; fill Table name with "suppliers"; fill Column name with "name"; pick text from Type; click the second Add next button; type "phone"; click Save`,
	},
	judge: adminerSuppliers,
	do: func(t *testing.T, s *testenv.AdminerSession) string {
		// The "Add next" button of the first column's row clones it (its type too) as the
		// row its script names fields[11].
		form := s.Form(t, "create=")
		form.Set("name", "suppliers")
		form.Set("fields[1][field]", "name")
		form.Set("fields[1][type]", "text")
		form.AddRow("fields[1]", "fields[11]", "phone")
		return s.Post(t, "create=", form)
	},
	shows: []string{"suppliers", "phone"},
}, {
	name: "add a column with Alter table",
	phrasings: [3]string{
		`click "customers", click "Alter table", click the last "Add next" button, type "phone", click "Save", then check that "phone" is visible`,
		`open "customers", press "Alter table", then press the last "Add next" button, type "phone" and press "Save"`,
		`click customers; click Alter table; click the last Add next icon; type "phone"; click Save; make sure "phone" is visible`,
	},
	judge: adminerPhoneColumn,
	do: func(t *testing.T, s *testenv.AdminerSession) string {
		// The last row's "Add next" clones the city column's row as fields[41].
		form := s.Form(t, "create=customers")
		form.AddRow("fields[4]", "fields[41]", "phone")
		return s.Post(t, "create=customers", form)
	},
	shows: []string{"phone"},
}, {
	name: "update rows with an SQL command",
	phrasings: [3]string{
		`click "SQL command", type "` + adminerUpdate + `" into the text area, click "Execute", then check that "Query executed OK" is visible`,
		`press "SQL command" and enter "` + adminerUpdate + `" into the text area, then press "Execute"`,
		`click SQL command; write “` + adminerUpdate + `” in the text area; click Execute`,
	},
	judge: func(d *testenv.AdminerDB) string {
		shipped := func(id, customer, item, qty string) map[string]string {
			return map[string]string{"id": id, "customer_id": customer, "item": item, "quantity": qty, "status": "shipped"}
		}
		return adminerChange(d, "orders", []map[string]string{{"id": "1"}, {"id": "2"}, {"id": "4"}},
			[]map[string]string{shipped("1", "1", "Notebook", "2"), shipped("2", "2", "Stapler", "1"), shipped("4", "3", "Desk lamp", "1")}) + d.Unchanged(nil, "customers")
	},
	do: func(t *testing.T, s *testenv.AdminerSession) string {
		return adminerSubmit(t, s, "sql=", "query", adminerUpdate)
	},
	shows: []string{"Query executed OK"},
}, {
	name: "find a customer by city and change their email",
	phrasings: [3]string{
		`click "customers", click "Select data", click "Search", type "Helsinki" into the search field, click the "Select" button, click "edit", type "linus@linux.example" into "email", click "Save", then check that "linus@linux.example" is visible`,
		`open "customers", press "Select data", press "Search" and enter "Helsinki" into the search field, press the "Select" button, then press the "edit" link, enter "linus@linux.example" into the "email" field and press "Save"`,
		`click customers; click Select data; click Search; fill the search field with "Helsinki"; click the Select button; click edit; clear email; type "linus@linux.example" into email; click Save`,
	},
	judge: func(d *testenv.AdminerDB) string {
		return adminerChange(d, "customers", []map[string]string{{"id": "3"}}, []map[string]string{{"id": "3", "name": "Linus Torvalds", "email": "linus@linux.example", "city": "Helsinki"}}) + d.Unchanged(nil, "orders")
	},
	do: func(t *testing.T, s *testenv.AdminerSession) string {
		found := s.Get(t, "select=customers&where%5B0%5D%5Bcol%5D=&where%5B0%5D%5Bop%5D=%3D&where%5B0%5D%5Bval%5D=Helsinki")
		if n := strings.Count(found, "class='edit'"); n != 1 || !strings.Contains(found, "Linus Torvalds") {
			t.Errorf("searching customers for Helsinki shows %d rows to edit, not Linus Torvalds's alone", n)
		}
		return adminerSubmit(t, s, "edit=customers&where%5Bid%5D=3", "fields[email]", "linus@linux.example")
	},
	shows: []string{"linus@linux.example"},
}}

// adminerSubmit posts the main form of the page at query as it stands but for the fields
// given (name, value, name, value...), as a person's typing and clicking it would.
func adminerSubmit(t *testing.T, s *testenv.AdminerSession, query string, set ...string) string {
	form := s.Form(t, query)
	for i := 0; i+1 < len(set); i += 2 {
		if field, ok := strings.CutPrefix(set[i], "fields["); ok {
			form.Type(strings.TrimSuffix(field, "]"), set[i+1])
		} else {
			form.Set(set[i], set[i+1])
		}
	}
	return s.Post(t, query, form)
}

// adminerChange says "" when a table differs from the seed by exactly the rows gone (seed
// rows, each matched by the fields given) and the rows added (new rows, each matched by
// the fields given), compared on cols alone when some are named.
func adminerChange(d *testenv.AdminerDB, table string, gone, added []map[string]string, cols ...string) string {
	removed, now, err := d.Diff(table, cols...)
	if err != nil {
		return err.Error()
	}
	if !adminerRowsMatch(removed, gone) || !adminerRowsMatch(now, added) {
		return fmt.Sprintf("table %s: rows gone %s and new %s; wanted gone %s and new %s; ", table,
			testenv.RowsString(removed), testenv.RowsString(now), testenv.RowsString(gone), testenv.RowsString(added))
	}
	return ""
}

// adminerRowsMatch says whether each row has the fields of one want, one to one.
func adminerRowsMatch(rows, want []map[string]string) bool {
	if len(rows) != len(want) {
		return false
	}
	used := make([]bool, len(rows))
next:
	for _, w := range want {
		for i, r := range rows {
			if used[i] {
				continue
			}
			ok := true
			for k, v := range w {
				ok = ok && r[k] == v
			}
			if ok {
				used[i] = true
				continue next
			}
		}
		return false
	}
	return true
}

// adminerSuppliers: a new, empty table "suppliers" with the text columns name and phone.
func adminerSuppliers(d *testenv.AdminerDB) string {
	if why := d.Unchanged([]string{"suppliers"}); why != "" {
		return why
	}
	cols, err := d.Columns("suppliers")
	if err != nil {
		return err.Error()
	}
	var got []string
	for _, c := range cols {
		got = append(got, c.Name+" "+strings.ToLower(c.Type))
	}
	if strings.Join(got, ", ") != "name text, phone text" {
		return fmt.Sprintf("table suppliers has the columns %q, not name and phone, both text", got)
	}
	if rows, err := d.Rows("suppliers"); err != nil || len(rows) != 0 {
		return fmt.Sprintf("table suppliers has rows %s (%v)", testenv.RowsString(rows), err)
	}
	return ""
}

// adminerPhoneColumn: customers has a new column phone beside its own, its rows kept.
func adminerPhoneColumn(d *testenv.AdminerDB) string {
	cols, err := d.Columns("customers")
	if err != nil {
		return err.Error()
	}
	var names, others []string
	for _, c := range cols {
		names = append(names, c.Name)
		if c.Name != "phone" {
			others = append(others, c.Name)
		}
	}
	if len(names) != 5 || strings.Join(others, ",") != "id,name,email,city" {
		return fmt.Sprintf("customers has the columns %v, not id, name, email, city and phone", names)
	}
	return adminerChange(d, "customers", nil, nil, "id", "name", "email", "city") + d.Unchanged(nil, "orders")
}
