//go:build heldout

package e2e

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// pmaGoal is an everyday goal on phpMyAdmin, written three ways as a person writes it from
// what the pages show ({signin} is filled in per phrasing); done reads the MariaDB server
// itself and says "" when the goal's effect is there and nothing else it checks changed,
// else what it found; do makes the effect through phpMyAdmin's own forms and links, as
// its pages send them, and miss a near miss the judge must not take for it (what a run
// gone a little wrong leaves: a field left empty, another row, a copy for a rename).
type pmaGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, p *testenv.PhpMyAdmin) string
	do, miss  func(t testing.TB, p *testenv.PhpMyAdmin, b *testenv.PhpMyAdminBrowser)
}

const (
	pmaNewName     = "Alan Turing"
	pmaNewEmail    = "alan@example.org"
	pmaNewCity     = "Manchester"
	pmaMovedTo     = "Arlington"
	pmaNewDatabase = "inventory"
	pmaRenamed     = "purchases"
)

var pmaGoals = []pmaGoal{
	{
		name: "insert a customer",
		phrasings: [3]string{
			`{signin}, click "shop", click "customers", click "Insert", type "Alan Turing" into the "name" field, type "alan@example.org" into the "email" field, type "Manchester" into the "city" field, click "Go", then check that "1 row inserted." is visible`,
			`{signin}, then open the shop database, open the table customers and press "Insert"; fill name with "Alan Turing", fill email with alan@example.org, fill city with Manchester and press "Go"`,
			`{signin}. Click shop in the navigation panel, then click customers and open the Insert tab. Type Alan Turing in the Value box of the row "name", type "alan@example.org" in the Value box of "email" and "Manchester" in the Value box of "city", then press the first Go button and make sure "1 row inserted." is visible.`,
		},
		done: func(t testing.TB, p *testenv.PhpMyAdmin) string {
			return pmaExpect(t, p, func(s *pmaState) {
				s.rows["shop.customers"] = append(s.rows["shop.customers"], pmaRow("id", "*", "name", pmaNewName, "email", pmaNewEmail, "city", pmaNewCity))
			})
		},
		do: func(t testing.TB, p *testenv.PhpMyAdmin, b *testenv.PhpMyAdminBrowser) {
			pmaInsert(t, b, pmaNewName, pmaNewEmail, pmaNewCity)
		},
		miss: func(t testing.TB, p *testenv.PhpMyAdmin, b *testenv.PhpMyAdminBrowser) {
			pmaInsert(t, b, pmaNewName, pmaNewEmail, "")
		},
	},
	{
		name: "change a customer's city",
		phrasings: [3]string{
			`{signin}, click "shop", click "customers", click "Edit" in the row "Grace Hopper", clear the "city" field, type "Arlington" into the "city" field, click "Go", then check that "1 row affected." is visible`,
			`{signin}, then open the customers table of the shop database, press the Edit link in the row of "Grace Hopper", replace New York in city with "Arlington" and press "Go"`,
			`{signin}. Click shop, then customers. Click Edit on the row "Grace Hopper", change the value of the field labelled "city" from "New York" to "Arlington", click the "Go" button and make sure "Arlington" is visible.`,
		},
		done: func(t testing.TB, p *testenv.PhpMyAdmin) string {
			return pmaExpect(t, p, func(s *pmaState) {
				pmaReplace(s.rows["shop.customers"], "name", "Grace Hopper", "city", pmaMovedTo)
			})
		},
		do: func(t testing.TB, p *testenv.PhpMyAdmin, b *testenv.PhpMyAdminBrowser) {
			pmaEditCity(t, b, 2, pmaMovedTo)
		},
		miss: func(t testing.TB, p *testenv.PhpMyAdmin, b *testenv.PhpMyAdminBrowser) {
			pmaEditCity(t, b, 3, pmaMovedTo)
		},
	},
	{
		name: "delete an order",
		phrasings: [3]string{
			`{signin}, click "shop", click "orders", click "Delete" in the row "Stapler", click "OK", then check that "Stapler" is not visible`,
			`{signin}, then open the orders table in the shop database and press "Delete" on the row with Stapler; when asked "Do you really want to execute", press "OK"`,
			`{signin}. Click shop and then orders. Click the Delete link in the row "Stapler", click the OK button to confirm, and verify that "Stapler" is not visible.`,
		},
		done: func(t testing.TB, p *testenv.PhpMyAdmin) string {
			return pmaExpect(t, p, func(s *pmaState) { s.rows["shop.orders"] = pmaWithout(s.rows["shop.orders"], "item", "Stapler") })
		},
		do:   func(t testing.TB, p *testenv.PhpMyAdmin, b *testenv.PhpMyAdminBrowser) { pmaDeleteOrder(t, b, 2) },
		miss: func(t testing.TB, p *testenv.PhpMyAdmin, b *testenv.PhpMyAdminBrowser) { pmaDeleteOrder(t, b, 1) },
	},
	{
		name: "create a database",
		phrasings: [3]string{
			`{signin}, click "Databases", type "inventory" into "Database name", click "Create", then check that "inventory" is visible`,
			`{signin}, then go to the Databases tab, fill the "Database name" field with inventory and press "Create"`,
			`{signin}. Open Databases, type inventory into the field labelled "Database name" under "Create database", click the Create button and make sure "inventory" is visible.`,
		},
		done: func(t testing.TB, p *testenv.PhpMyAdmin) string {
			return pmaExpect(t, p, func(s *pmaState) { s.databases[pmaNewDatabase] = nil })
		},
		do: func(t testing.TB, p *testenv.PhpMyAdmin, b *testenv.PhpMyAdminBrowser) {
			pmaCreateDatabase(t, b, pmaNewDatabase)
		},
		miss: func(t testing.TB, p *testenv.PhpMyAdmin, b *testenv.PhpMyAdminBrowser) {
			pmaCreateDatabase(t, b, "inventories")
		},
	},
	{
		name: "rename a table",
		phrasings: [3]string{
			`{signin}, click "shop", click "orders", click "Operations", clear "Rename table to", type "purchases" into "Rename table to", click the "Go" button under "Table options", then check that "Table orders has been renamed to purchases." is visible`,
			`{signin}, then open the orders table of the shop database, press "Operations", replace orders in the "Rename table to" field with purchases and press "Go" in the Table options box`,
			`{signin}. Click shop, then orders, and open the Operations tab. In the field labelled "Rename table to" clear the text and type "purchases", then click the Go button at the bottom of "Table options" and verify that "purchases" is visible.`,
		},
		done: func(t testing.TB, p *testenv.PhpMyAdmin) string {
			return pmaExpect(t, p, func(s *pmaState) { s.rename("shop", "orders", pmaRenamed) })
		},
		do: func(t testing.TB, p *testenv.PhpMyAdmin, b *testenv.PhpMyAdminBrowser) {
			pmaOperation(t, b, "orders", `id="tableOptionsForm"`, pmaRenamed)
		},
		miss: func(t testing.TB, p *testenv.PhpMyAdmin, b *testenv.PhpMyAdminBrowser) {
			pmaOperation(t, b, "orders", `id="copyTable"`, pmaRenamed)
		},
	},
	{
		name: "add a column",
		phrasings: [3]string{
			`{signin}, click "shop", click "customers", click "Structure", click "Go" next to "Add 1 column(s)", type "phone" into "Name", select "VARCHAR" from "Type", type "20" into "Length/Values", click "Save", then check that "phone" is visible`,
			`{signin}, then open the customers table in the shop database and press "Structure"; press the Go button beside "Add 1 column(s) after city", fill "Name" with phone, choose VARCHAR in "Type", fill "Length/Values" with 20 and press "Save"`,
			`{signin}. Click shop, click customers, then open the Structure tab. Below the list of columns, click Go to add 1 column after city. Type phone into the field under "Name", pick VARCHAR from the Type list, enter 20 as the Length/Values, click the Save button and make sure "phone" is visible.`,
		},
		done: func(t testing.TB, p *testenv.PhpMyAdmin) string {
			// The goal says nothing of NULL: the new column may allow it or not (the
			// existing rows then hold NULL or "").
			return pmaExpect(t, p, func(s *pmaState) {
				s.columns["shop.customers"] = append(s.columns["shop.customers"], "phone varchar(20) *")
				for _, r := range s.rows["shop.customers"] {
					r["phone"] = "*"
				}
			})
		},
		do: func(t testing.TB, p *testenv.PhpMyAdmin, b *testenv.PhpMyAdminBrowser) {
			pmaAddColumn(t, b, "VARCHAR", "20")
		},
		// Type left at its first choice, INT.
		miss: func(t testing.TB, p *testenv.PhpMyAdmin, b *testenv.PhpMyAdminBrowser) { pmaAddColumn(t, b, "INT", "") },
	},
	{
		name: "empty a table",
		phrasings: [3]string{
			`{signin}, click "shop", click "orders", click "Operations", click "Empty the table (TRUNCATE)", click "OK", then check that "MySQL returned an empty result set" is visible`,
			`{signin}, then open the orders table in the shop database, go to "Operations" and press "Empty the table (TRUNCATE)"; confirm with "OK"`,
			`{signin}. Click shop, then orders, then the Operations tab. Under "Delete data or table" click the link "Empty the table (TRUNCATE)" and press OK when phpMyAdmin asks whether you really want to execute it.`,
		},
		done: func(t testing.TB, p *testenv.PhpMyAdmin) string {
			return pmaExpect(t, p, func(s *pmaState) { s.rows["shop.orders"] = nil })
		},
		do: func(t testing.TB, p *testenv.PhpMyAdmin, b *testenv.PhpMyAdminBrowser) {
			pmaConfirmLink(t, b, "index.php?route=/table/operations&db=shop&table=orders", `sql_query=TRUNCATE\+TABLE\+%60shop%60\.%60orders%60&`)
		},
		// The other link of the same box: the table dropped, not emptied.
		miss: func(t testing.TB, p *testenv.PhpMyAdmin, b *testenv.PhpMyAdminBrowser) {
			pmaConfirmLink(t, b, "index.php?route=/table/operations&db=shop&table=orders", `sql_query=DROP\+TABLE\+%60shop%60\.%60orders%60&`)
		},
	},
}

// pmaState is what the judges compare: the databases but the server's own, each with its
// tables; each table's columns ("name type NULL", see testenv.PhpMyAdmin.Columns) and
// rows (testenv.RowString), keyed "database.table". A "*" in a wanted column or row
// stands for any text without a comma.
type pmaState struct {
	databases, columns map[string][]string
	rows               map[string][]map[string]string
}

// pmaRow is a row from column, value pairs.
func pmaRow(kv ...string) map[string]string {
	r := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		r[kv[i]] = kv[i+1]
	}
	return r
}

// pmaSeeded is the state a fresh instance starts in (testenv.PhpMyAdminSeed).
func pmaSeeded() *pmaState {
	return &pmaState{
		databases: map[string][]string{"shop": {"customers", "orders"}},
		columns: map[string][]string{
			"shop.customers": {"id int(11) NOT NULL", "name varchar(100) NOT NULL", "email varchar(100) NULL", "city varchar(60) NULL"},
			"shop.orders":    {"id int(11) NOT NULL", "customer_id int(11) NOT NULL", "item varchar(100) NOT NULL", "quantity int(11) NOT NULL", "status varchar(20) NOT NULL"},
		},
		rows: map[string][]map[string]string{
			"shop.customers": {
				pmaRow("id", "1", "name", "Ada Lovelace", "email", "ada@example.org", "city", "London"),
				pmaRow("id", "2", "name", "Grace Hopper", "email", "grace@example.org", "city", "New York"),
				pmaRow("id", "3", "name", "Linus Torvalds", "email", "linus@example.org", "city", "Helsinki"),
				pmaRow("id", "4", "name", "Margaret Hamilton", "email", "margaret@example.org", "city", "Boston"),
			},
			"shop.orders": {
				pmaRow("id", "1", "customer_id", "1", "item", "Notebook", "quantity", "2", "status", "pending"),
				pmaRow("id", "2", "customer_id", "2", "item", "Stapler", "quantity", "1", "status", "pending"),
				pmaRow("id", "3", "customer_id", "1", "item", "Pencils", "quantity", "10", "status", "shipped"),
				pmaRow("id", "4", "customer_id", "3", "item", "Desk lamp", "quantity", "1", "status", "pending"),
			},
		},
	}
}

// rename moves a table of database, its columns and rows, to a new name.
func (s *pmaState) rename(database, from, to string) {
	tables := slices.DeleteFunc(slices.Clone(s.databases[database]), func(n string) bool { return n == from })
	s.databases[database] = append(tables, to)
	slices.Sort(s.databases[database])
	s.columns[database+"."+to], s.rows[database+"."+to] = s.columns[database+"."+from], s.rows[database+"."+from]
	delete(s.columns, database+"."+from)
	delete(s.rows, database+"."+from)
}

// pmaReplace gives column the value in the rows whose where column holds is.
func pmaReplace(rows []map[string]string, where, is, column, value string) {
	for _, r := range rows {
		if r[where] == is {
			r[column] = value
		}
	}
}

// pmaWithout is rows without those whose where column holds is.
func pmaWithout(rows []map[string]string, where, is string) []map[string]string {
	return slices.DeleteFunc(rows, func(r map[string]string) bool { return r[where] == is })
}

// pmaRead reads the state the judges compare from the server.
func pmaRead(t testing.TB, p *testenv.PhpMyAdmin) *pmaState {
	s := &pmaState{databases: map[string][]string{}, columns: map[string][]string{}, rows: map[string][]map[string]string{}}
	for _, d := range p.Databases(t) {
		s.databases[d] = p.Tables(t, d)
		for _, table := range s.databases[d] {
			key := d + "." + table
			s.columns[key] = p.Columns(t, d, table)
			s.rows[key] = p.Rows(t, d, table)
		}
	}
	return s
}

// pmaExpect says "" when the server is in the seeded state changed by change, else the
// first difference.
func pmaExpect(t testing.TB, p *testenv.PhpMyAdmin, change func(*pmaState)) string {
	want, got := pmaSeeded(), pmaRead(t, p)
	change(want)
	if w, g := slices.Sorted(maps.Keys(want.databases)), slices.Sorted(maps.Keys(got.databases)); !slices.Equal(w, g) {
		return fmt.Sprintf("the databases are %q; want %q", g, w)
	}
	for _, d := range slices.Sorted(maps.Keys(want.databases)) {
		if w, g := want.databases[d], got.databases[d]; !slices.Equal(w, g) {
			return fmt.Sprintf("the tables of %s are %q; want %q", d, g, w)
		}
		for _, table := range want.databases[d] {
			key := d + "." + table
			if w, g := want.columns[key], got.columns[key]; !pmaMatch(w, g, true) {
				return fmt.Sprintf("the columns of %s are %q; want %q", key, g, w)
			}
			if w, g := pmaRowStrings(want.rows[key]), pmaRowStrings(got.rows[key]); !pmaMatch(w, g, false) {
				return fmt.Sprintf("the rows of %s are %q; want %q", key, g, w)
			}
		}
	}
	return ""
}

// pmaRowStrings are rows as testenv.RowString writes them.
func pmaRowStrings(rows []map[string]string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = testenv.RowString(r)
	}
	return out
}

// pmaMatch says whether got holds exactly the wanted lines ("*" in one standing for any
// text without a comma): in order when ordered, else as a multiset.
func pmaMatch(want, got []string, ordered bool) bool {
	if len(want) != len(got) {
		return false
	}
	fits := func(w, g string) bool {
		re := "^" + strings.ReplaceAll(regexp.QuoteMeta(w), `\*`, `[^,]*`) + "$"
		return regexp.MustCompile(re).MatchString(g)
	}
	if ordered {
		for i := range want {
			if !fits(want[i], got[i]) {
				return false
			}
		}
		return true
	}
	left := slices.Clone(got)
	// Exact lines first, so that a pattern does not take a line an exact one needs.
	wants := slices.Clone(want)
	slices.SortStableFunc(wants, func(a, b string) int {
		return strings.Count(a, "*") - strings.Count(b, "*")
	})
	for _, w := range wants {
		i := slices.IndexFunc(left, func(g string) bool { return fits(w, g) })
		if i < 0 {
			return false
		}
		left = slices.Delete(left, i, i+1)
	}
	return true
}

// pmaType sets a field of the Insert or Edit form (its row set, the table's column) as
// typing into it does: its value, and its "Null" box unticked, as the page's script
// unticks it.
func pmaType(t testing.TB, form url.Values, set int, column, value string) {
	t.Helper()
	prefix := fmt.Sprintf("fields_name[multi_edit][%d][", set)
	for k, v := range form {
		if strings.HasPrefix(k, prefix) && len(v) == 1 && v[0] == column {
			hash := strings.TrimPrefix(k, "fields_name")
			form.Set("fields"+hash, value)
			form.Del("fields_null" + hash)
			return
		}
	}
	t.Fatalf("no field %s in the form", column)
}

// pmaInsert fills the customers table's Insert tab (its first row set; the second is
// left ignored, as the page has it) and presses Go; an empty city is left untouched.
func pmaInsert(t testing.TB, b *testenv.PhpMyAdminBrowser, name, email, city string) {
	t.Helper()
	page := b.Get(t, "index.php?route=/table/change&db=shop&table=customers")
	action, form := testenv.PhpMyAdminForm(t, page, `id="insertForm"`)
	pmaType(t, form, 0, "name", name)
	pmaType(t, form, 0, "email", email)
	if city != "" {
		pmaType(t, form, 0, "city", city)
	}
	t.Logf("phpMyAdmin answers: %.300s", b.SubmitPage(t, action, form))
}

// pmaEditCity follows the Edit link of the customer's row on the table's Browse page,
// changes the city and presses Go.
func pmaEditCity(t testing.TB, b *testenv.PhpMyAdminBrowser, id int, city string) {
	t.Helper()
	browse := b.Get(t, "index.php?route=/sql&db=shop&table=customers&pos=0")
	link := testenv.PhpMyAdminDataPost(t, browse, regexp.MustCompile(fmt.Sprintf(`^route=/table/change&db=shop&table=customers&where_clause=%%60customers%%60\.%%60id%%60\+%%3D\+%d&.*default_action=update`, id)))
	action, form := testenv.PhpMyAdminForm(t, b.Post(t, "index.php", link), `id="insertForm"`)
	pmaType(t, form, 0, "city", city)
	t.Logf("phpMyAdmin answers: %.300s", b.SubmitPage(t, action, form))
}

// pmaDeleteOrder clicks the Delete link of the order's row on the table's Browse page
// and confirms, as the page's OK button does.
func pmaDeleteOrder(t testing.TB, b *testenv.PhpMyAdminBrowser, id int) {
	t.Helper()
	pmaConfirmLink(t, b, "index.php?route=/sql&db=shop&table=orders&pos=0",
		fmt.Sprintf(`sql_query=DELETE\+FROM\+%%60orders%%60\+WHERE\+%%60orders%%60\.%%60id%%60\+%%3D\+%d&`, id))
}

// pmaConfirmLink clicks the link on the page at path whose data-post matches re and
// presses OK in the confirmation phpMyAdmin asks for.
func pmaConfirmLink(t testing.TB, b *testenv.PhpMyAdminBrowser, path, re string) {
	t.Helper()
	link := testenv.PhpMyAdminDataPost(t, b.Get(t, path), regexp.MustCompile(re))
	link.Set("is_js_confirmed", "1")
	t.Logf("phpMyAdmin answers: %.300s", b.Submit(t, "index.php", link))
}

// pmaCreateDatabase fills "Database name" on the Databases tab and presses Create.
func pmaCreateDatabase(t testing.TB, b *testenv.PhpMyAdminBrowser, name string) {
	t.Helper()
	action, form := testenv.PhpMyAdminForm(t, b.Get(t, "index.php?route=/server/databases"), `id="create_database_form"`)
	form.Set("new_db", name)
	t.Logf("phpMyAdmin answers: %.300s", b.Submit(t, action, form))
}

// pmaOperation fills the table name of one of the Operations tab's boxes (marker: its
// form) and presses its Go.
func pmaOperation(t testing.TB, b *testenv.PhpMyAdminBrowser, table, marker, name string) {
	t.Helper()
	action, form := testenv.PhpMyAdminForm(t, b.Get(t, "index.php?route=/table/operations&db=shop&table="+table), marker)
	form.Set("new_name", name)
	t.Logf("phpMyAdmin answers: %.300s", b.Submit(t, action, form))
}

// pmaAddColumn presses Go beside "Add 1 column(s) after city" on the customers table's
// Structure tab, fills the new column's Name, Type and Length/Values and presses Save.
func pmaAddColumn(t testing.TB, b *testenv.PhpMyAdminBrowser, typ, length string) {
	t.Helper()
	action, form := testenv.PhpMyAdminForm(t, b.Get(t, "index.php?route=/table/structure&db=shop&table=customers"), `id="addColumns"`)
	action, form = testenv.PhpMyAdminForm(t, b.Post(t, action, form), `class="append_fields_form`)
	form.Set("field_name[0]", "phone")
	form.Set("field_type[0]", typ)
	form.Set("field_length[0]", length)
	form.Set("do_save_data", "1")
	t.Logf("phpMyAdmin answers: %.300s", b.Submit(t, action, form))
}
