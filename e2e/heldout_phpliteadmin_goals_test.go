//go:build heldout

package e2e

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// phpliteadminGoal is an everyday goal on phpLiteAdmin's pages, written three ways as a
// person writes it from what the pages show ({signin} is the phrasing's way of signing
// in); done reads the SQLite files and says "" when the goal's effect is there and nothing
// else changed, else what it found; do makes the effect through the pages along the goal's
// path, and miss a near miss the judge must not take for it (another row or table, a
// neighbouring name, value or type).
type phpliteadminGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, a *testenv.PhpLiteAdmin) string
	do, miss  func(t testing.TB, b *testenv.PhpLiteAdminBrowser)
}

const (
	phpliteadminBooks   = "library.sqlite/books"
	phpliteadminMembers = "library.sqlite/members"
	phpliteadminLoans   = "library.sqlite/loans"
)

var phpliteadminGoals = []phpliteadminGoal{
	{
		name: "insert a book",
		phrasings: [3]string{
			`{signin}, click "books", click "Insert", type "Children of Dune" into "title", type "Frank Herbert" into "author", type "1976" into "year", click the "Insert" button`,
			`{signin}, then open the books table, go to its Insert tab and add a book: title Children of Dune, author "Frank Herbert", year 1976 (leave id and isbn empty), then hit the Insert button`,
			`{signin} In the list of tables on the left click books, then click Insert in the tabs at the top. Fill in the value of title with "Children of Dune", the author field with Frank Herbert and the field labelled year with 1976, leave id and isbn blank, and press the Insert button below the form to add the row.`,
		},
		done: func(t testing.TB, a *testenv.PhpLiteAdmin) string { return phpliteadminBookAdded(t, a) },
		do:   func(t testing.TB, b *testenv.PhpLiteAdminBrowser) { phpliteadminInsertBook(t, b, "1976") },
		miss: func(t testing.TB, b *testenv.PhpLiteAdminBrowser) { phpliteadminInsertBook(t, b, "1977") },
	},
	{
		name: "correct a book's year",
		phrasings: [3]string{
			`{signin}, click "books", click "Edit" in the row "Pride and Prejudice", type "1813" into "year", click "Save Changes"`,
			`{signin}, then browse the books table, edit the row of Pride and Prejudice, change its year to 1813 and click Save Changes`,
			`{signin} Open books from the menu on the left. In the row of "Pride and Prejudice" click the Edit link, replace 1811 with 1813 in the year field and hit Save Changes. Leave the other books alone.`,
		},
		done: func(t testing.TB, a *testenv.PhpLiteAdmin) string {
			return phpliteadminExactly(t, a, func(s testenv.PhpLiteAdminState) {
				s["row"][phpliteadminBooks+"/3"] = strings.Replace(s["row"][phpliteadminBooks+"/3"], "year=1811", "year=1813", 1)
			})
		},
		do: func(t testing.TB, b *testenv.PhpLiteAdminBrowser) {
			phpliteadminEditRow(t, b, "books", "Pride and Prejudice", "3", "1813")
		},
		miss: func(t testing.TB, b *testenv.PhpLiteAdminBrowser) {
			phpliteadminEditRow(t, b, "books", "Emma", "3", "1813")
		},
	},
	{
		name: "delete a member",
		phrasings: [3]string{
			`{signin}, click "members", click "Delete" in the row "Tomas Weller", click "Confirm"`,
			`{signin} then open the members table and delete the member Tomas Weller (the Delete link in his row), confirming with Confirm`,
			`{signin} Next, click members in the list of tables on the left. Find the row of Tomas Weller (not Tom Weller), click Delete in that row and press the Confirm button when phpLiteAdmin asks whether you are sure.`,
		},
		done: func(t testing.TB, a *testenv.PhpLiteAdmin) string {
			return phpliteadminExactly(t, a, func(s testenv.PhpLiteAdminState) { delete(s["row"], phpliteadminMembers+"/4") })
		},
		do:   func(t testing.TB, b *testenv.PhpLiteAdminBrowser) { phpliteadminDeleteMember(t, b, "Tomas Weller") },
		miss: func(t testing.TB, b *testenv.PhpLiteAdminBrowser) { phpliteadminDeleteMember(t, b, "Tom Weller") },
	},
	{
		name: "rename a table",
		phrasings: [3]string{
			`{signin}, click "loans", click "Rename", type "checkouts" into "Rename table 'loans' to", click the "Rename" button`,
			`{signin}, open the loans table, go to its Rename tab, replace loans with checkouts in the new name field and press the Rename button`,
			`{signin} We call loans checkouts from now on. Click the table loans on the left, choose Rename from the tabs at the top, and in the field after "Rename table 'loans' to" write checkouts instead of loans. Then click Rename.`,
		},
		done: func(t testing.TB, a *testenv.PhpLiteAdmin) string {
			return phpliteadminExactly(t, a, func(s testenv.PhpLiteAdminState) {
				s.RenameTable(phpliteadminLoans, "checkouts")
				const index = "library.sqlite/index/loans_member"
				s["schema"][index] = strings.Replace(s["schema"][index], " ON loans ", ` ON "checkouts" `, 1)
			})
		},
		do:   func(t testing.TB, b *testenv.PhpLiteAdminBrowser) { phpliteadminRenameLoans(t, b, "checkouts") },
		miss: func(t testing.TB, b *testenv.PhpLiteAdminBrowser) { phpliteadminRenameLoans(t, b, "checkout") },
	},
	{
		name: "add a column to a table",
		phrasings: [3]string{
			`{signin}, click "members", click "Structure", click "Go" next to "field(s) at end of table", type "phone" into "Field", select "TEXT" in "Type", click "Add Fields"`,
			`{signin}; open members, Structure tab, add 1 field at end of table (Go), name it phone with the type TEXT, then Add Fields`,
			`{signin} Members need a phone number. Open the members table, switch to its Structure tab and, where it says Add 1 field(s) at end of table, press Go. Type phone into the Field box, pick TEXT from the Type list, leave Primary Key, Autoincrement and Not NULL unticked and give no default value, and click Add Fields.`,
		},
		done: func(t testing.TB, a *testenv.PhpLiteAdmin) string {
			return phpliteadminExactly(t, a, func(s testenv.PhpLiteAdminState) {
				s["table"][phpliteadminMembers] += ", phone TEXT"
				for id, row := range s.RowsOf(phpliteadminMembers) {
					s["row"][phpliteadminMembers+"/"+id] = row + "; phone="
				}
			})
		},
		do:   func(t testing.TB, b *testenv.PhpLiteAdminBrowser) { phpliteadminAddPhone(t, b, "TEXT") },
		miss: func(t testing.TB, b *testenv.PhpLiteAdminBrowser) { phpliteadminAddPhone(t, b, "INTEGER") },
	},
	{
		name: "create a table",
		phrasings: [3]string{
			`{signin}, type "authors" into "Name" under "Create new table on database 'library.sqlite'", type "3" into "Number of Fields", click "Go", type "id" into the first "Field", select "INTEGER" in its "Type", tick "Primary Key" in its row, type "name" into the second "Field", select "TEXT" in its "Type", type "country" into the third "Field", select "TEXT" in its "Type", click "Create"`,
			`{signin}, then on the library.sqlite page create a new table authors with 3 fields: id INTEGER as the primary key, name TEXT and country TEXT (Go, then Create)`,
			`{signin} Under "Create new table on database 'library.sqlite'" enter authors as the Name and 3 as the Number of Fields and press Go. On the next page fill in the three rows: id of type INTEGER with Primary Key ticked, name of type TEXT, and country of type TEXT, nothing else ticked. Finish with the Create button.`,
		},
		done: func(t testing.TB, a *testenv.PhpLiteAdmin) string { return phpliteadminTableCreated(t, a) },
		do: func(t testing.TB, b *testenv.PhpLiteAdminBrowser) {
			phpliteadminCreateAuthors(t, b, "id INTEGER", "name TEXT", "country TEXT")
		},
		miss: func(t testing.TB, b *testenv.PhpLiteAdminBrowser) {
			phpliteadminCreateAuthors(t, b, "id INTEGER", "name TEXT")
		},
	},
	{
		name: "find a member and change their city",
		phrasings: [3]string{
			`{signin}, click "members", click "Search", type "lisa.novak@example.org" into "email", click the "Search" button, click "Edit" in the row "Lisa Novak", type "Stavanger" into "city", click "Save Changes"`,
			`{signin}, then search the members table for the email lisa.novak@example.org, edit the member it finds and set the city to Stavanger (Save Changes)`,
			`{signin} Lisa has moved. Open the members table and use its Search tab: put "lisa.novak@example.org" in the Value box of the email field, press Search, click Edit in the one row it finds, change the city field from Bergen to Stavanger and press Save Changes.`,
		},
		done: func(t testing.TB, a *testenv.PhpLiteAdmin) string {
			return phpliteadminExactly(t, a, func(s testenv.PhpLiteAdminState) {
				s["row"][phpliteadminMembers+"/5"] = strings.Replace(s["row"][phpliteadminMembers+"/5"], "city=Bergen", "city=Stavanger", 1)
			})
		},
		do: func(t testing.TB, b *testenv.PhpLiteAdminBrowser) {
			phpliteadminSearchAndMove(t, b, "lisa.novak@example.org", "Lisa Novak")
		},
		miss: func(t testing.TB, b *testenv.PhpLiteAdminBrowser) {
			phpliteadminSearchAndMove(t, b, "lisa.nowak@example.org", "Lisa Nowak")
		},
	},
}

// phpliteadminExactly says whether the SQLite files hold the seed changed by change and
// nothing else.
func phpliteadminExactly(t testing.TB, a *testenv.PhpLiteAdmin, change func(testenv.PhpLiteAdminState)) string {
	want := a.Seed()
	change(want)
	return a.Differs(t, want)
}

// phpliteadminBookAdded says whether books holds the seed's rows and one new row, Children
// of Dune by Frank Herbert from 1976 with no isbn, and nothing else changed.
func phpliteadminBookAdded(t testing.TB, a *testenv.PhpLiteAdmin) string {
	got, seed := a.State(t), a.Seed()
	var added []string
	for id := range got.RowsOf(phpliteadminBooks) {
		if _, old := seed["row"][phpliteadminBooks+"/"+id]; !old {
			added = append(added, id)
		}
	}
	if len(added) != 1 {
		return fmt.Sprintf("books has %d new rows, not one", len(added))
	}
	key := phpliteadminBooks + "/" + added[0]
	want := "id=" + added[0] + "; title=Children of Dune; author=Frank Herbert; year=1976; isbn="
	if got["row"][key] != want {
		return fmt.Sprintf("the new book is %q, not %q", got["row"][key], want)
	}
	delete(got["row"], key)
	return got.Diff(seed)
}

// phpliteadminColumn is a column of the state's table line: its name, its type and its
// place in the primary key (NOT NULL and a default are left out).
var phpliteadminColumn = regexp.MustCompile(`^(\S+) (\S*)(?: NOT NULL)?(?: DEFAULT .*?)?( PK \d+)?$`)

// phpliteadminTableCreated says whether library.sqlite holds a new, empty table authors
// whose columns are id INTEGER (the primary key), name TEXT and country TEXT in that order,
// and nothing else changed.
func phpliteadminTableCreated(t testing.TB, a *testenv.PhpLiteAdmin) string {
	got := a.State(t)
	const key = "library.sqlite/authors"
	line, ok := got["table"][key]
	if !ok {
		return "no table authors in library.sqlite"
	}
	var cols []string
	for _, c := range strings.Split(line, ", ") {
		m := phpliteadminColumn.FindStringSubmatch(c)
		if m == nil {
			return fmt.Sprintf("the table authors has a column %q", c)
		}
		cols = append(cols, strings.TrimSpace(m[1]+" "+m[2]+m[3]))
	}
	if want := []string{"id INTEGER PK 1", "name TEXT", "country TEXT"}; !slices.Equal(cols, want) {
		return fmt.Sprintf("the table authors has the columns %q, not %q", cols, want)
	}
	if n := len(got.RowsOf(key)); n != 0 {
		return fmt.Sprintf("the table authors has %d rows, not none", n)
	}
	delete(got["table"], key)
	return got.Diff(a.Seed())
}

// phpliteadminInsertBook opens books, its Insert tab, and inserts Children of Dune by
// Frank Herbert from year, id and isbn left empty.
func phpliteadminInsertBook(t testing.TB, b *testenv.PhpLiteAdminBrowser, year string) {
	t.Helper()
	b.Home(t)
	b.ClickText(t, "books")
	b.ClickText(t, "Insert")
	f := b.Form(t, "action=row_create&amp;confirm=1")
	f.Fields.Set("0:1", "Children of Dune")
	f.Fields.Set("0:2", "Frank Herbert")
	f.Fields.Set("0:3", year)
	b.Send(t, f, "Insert")
}

// phpliteadminEditRow opens table, follows Edit in the row that shows row and saves the
// field at column index col (the edit form's field col[]) as value.
func phpliteadminEditRow(t testing.TB, b *testenv.PhpLiteAdminBrowser, table, row, col, value string) {
	t.Helper()
	b.Home(t)
	b.ClickText(t, table)
	b.ClickInRow(t, row, "Edit")
	phpliteadminSave(t, b, col, value)
}

// phpliteadminSave sets the field at column index col of the edit form the browser is on
// to value and presses Save Changes.
func phpliteadminSave(t testing.TB, b *testenv.PhpLiteAdminBrowser, col, value string) {
	t.Helper()
	f := b.Form(t, "action=row_edit&amp;confirm=1")
	f.Fields.Set(col+"[]", value)
	b.Send(t, f, "Save Changes")
}

// phpliteadminDeleteMember opens members, follows Delete in the row of name and confirms.
func phpliteadminDeleteMember(t testing.TB, b *testenv.PhpLiteAdminBrowser, name string) {
	t.Helper()
	b.Home(t)
	b.ClickText(t, "members")
	b.ClickInRow(t, name, "Delete")
	b.Send(t, b.Form(t, "action=row_delete&amp;confirm=1"), "Confirm")
}

// phpliteadminRenameLoans opens loans, its Rename tab, and renames the table to name.
func phpliteadminRenameLoans(t testing.TB, b *testenv.PhpLiteAdminBrowser, name string) {
	t.Helper()
	b.Home(t)
	b.ClickText(t, "loans")
	b.ClickText(t, "Rename")
	f := b.Form(t, "name='newname'")
	f.Fields.Set("newname", name)
	b.Send(t, f, "Rename")
}

// phpliteadminAddPhone opens members, its Structure tab, asks to add 1 field at the end
// of the table and adds phone of type typ.
func phpliteadminAddPhone(t testing.TB, b *testenv.PhpLiteAdminBrowser, typ string) {
	t.Helper()
	b.Home(t)
	b.ClickText(t, "members")
	b.ClickText(t, "Structure")
	b.Send(t, b.Form(t, `value="column_create"`), "Go")
	f := b.Form(t, "name='0_field'")
	f.Fields.Set("0_field", "phone")
	f.Fields.Set("0_type", typ)
	b.Send(t, f, "Add Fields")
}

// phpliteadminCreateAuthors creates the table authors on the database page with the
// columns cols ("name TYPE" each), the first one the primary key.
func phpliteadminCreateAuthors(t testing.TB, b *testenv.PhpLiteAdminBrowser, cols ...string) {
	t.Helper()
	b.Home(t)
	f := b.Form(t, `value="table_create"`)
	f.Fields.Set("tablename", "authors")
	f.Fields.Set("tablefields", fmt.Sprint(len(cols)))
	b.Send(t, f, "Go")
	f = b.Form(t, "name='0_field'")
	for i, c := range cols {
		name, typ, _ := strings.Cut(c, " ")
		f.Fields.Set(fmt.Sprintf("%d_field", i), name)
		f.Fields.Set(fmt.Sprintf("%d_type", i), typ)
	}
	f.Fields.Set("0_primarykey", "on")
	b.Send(t, f, "Create")
}

// phpliteadminSearchAndMove opens members, its Search tab, searches for the email email,
// follows Edit in the found row of name and saves its city as Stavanger.
func phpliteadminSearchAndMove(t testing.TB, b *testenv.PhpLiteAdminBrowser, email, name string) {
	t.Helper()
	b.Home(t)
	b.ClickText(t, "members")
	b.ClickText(t, "Search")
	f := b.Form(t, "name='field_2_value'")
	f.Fields.Set("field_2_value", email)
	if page := testenv.PhpLiteAdminText(b.Send(t, f, "Search")); !strings.Contains(page, "Total: 1 ") {
		t.Fatalf("the search for %s did not find one row: %s", email, page)
	}
	b.ClickInRow(t, name, "Edit")
	phpliteadminSave(t, b, "3", "Stavanger")
}
