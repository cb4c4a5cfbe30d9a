//go:build heldout

package e2e

import (
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// nocodbGoal is one everyday goal of a NocoDB user, written three ways: done says what
// NocoDB's SQLite file lacks ("" when it holds exactly the goal's effect and nothing else
// changed), do makes the effect through the requests NocoDB's pages send, miss makes a
// near miss of it.
type nocodbGoal struct {
	name      string
	phrasings [3]string
	done      func(t *testing.T, n *testenv.NocoDB) string
	do, miss  func(t *testing.T, b *testenv.NocoDBBrowser)
}

// nocodbWant is the seed with change made to it, and how the storage differs from that.
func nocodbWant(t *testing.T, n *testenv.NocoDB, change func(s testenv.NocoDBState)) string {
	s := n.Seed()
	change(s)
	return n.Differs(t, s)
}

// nocodbGoals are the goals: add a record through the form, search a record and edit it,
// add a field, rename a table, delete a record, make a grid view with a filter, rename the
// base.
var nocodbGoals = []nocodbGoal{
	{
		name: "add an author",
		phrasings: [3]string{
			`{signin}, click "Authors", click the arrow next to "New record", click "New record - Form", type "Ines Moreau" into "Name", type "France" into "Country", type "ines.moreau@example.com" into "Email", click "Save record"`,
			`{signin}. Open the Authors table from the menu on the left, pick New record - Form from the small arrow beside the New record button, fill in Name "Ines Moreau", Country France and Email ines.moreau@example.com, then press Save record.`,
			`{signin} Then add a new author in the Authors table through the form (the arrow next to "New record", then New record - Form): Name Ines Moreau, Country "France", Email "ines.moreau@example.com". Hit Save record when done.`,
		},
		done: func(t *testing.T, n *testenv.NocoDB) string {
			return nocodbWant(t, n, func(s testenv.NocoDBState) {
				s["record"]["Authors/Ines Moreau"] = "Country=France; Email=ines.moreau@example.com; Name=Ines Moreau"
			})
		},
		do: func(t *testing.T, b *testenv.NocoDBBrowser) {
			b.AddRecord(t, "Authors", map[string]any{"Name": "Ines Moreau", "Country": "France", "Email": "ines.moreau@example.com"})
		},
		miss: func(t *testing.T, b *testenv.NocoDBBrowser) {
			b.AddRecord(t, "Authors", map[string]any{"Name": "Ines Moreau", "Country": "Belgium", "Email": "ines.moreau@example.com"})
		},
	},
	{
		name: "search a book and change its stock",
		phrasings: [3]string{
			`{signin}, click "Books", click the search icon at the right of the toolbar, type "Northern Skies" into "Search In Title", press Enter, click the expand icon at the start of the row of "Northern Skies", type "20" into "Stock", click "Save record"`,
			`{signin}, go to the Books table and search for Northern Skies with the magnifier at the top right (Search In Title). Expand that row with the little arrows icon at its left, set Stock to 20 and press Save record.`,
			`{signin} In Books, use the search box (the magnifying glass on the right of the toolbar) to find "Northern Skies", open the record with the expand icon in its row, then change the Stock field to 20 and click Save record.`,
		},
		done: func(t *testing.T, n *testenv.NocoDB) string {
			return nocodbWant(t, n, func(s testenv.NocoDBState) {
				s["record"]["Books/Northern Skies"] = strings.Replace(s["record"]["Books/Northern Skies"], "Stock=12", "Stock=20", 1)
			})
		},
		do: func(t *testing.T, b *testenv.NocoDBBrowser) {
			b.EditRecord(t, "Books", "Northern Skies", map[string]any{"Stock": 20})
		},
		miss: func(t *testing.T, b *testenv.NocoDBBrowser) {
			b.EditRecord(t, "Books", "Northern Lights", map[string]any{"Stock": 20})
		},
	},
	{
		name: "add a field to a table",
		phrasings: [3]string{
			`{signin}, click "Authors", click the "+" at the right end of the header row, type "Website" into "Field name (Optional)", click "URL", click "Save Field"`,
			`{signin}, open Authors in the menu on the left and add a field: hit the + after the last column header, call it Website, choose the URL type and press Save Field.`,
			`{signin} Then in the Authors table click the "+" right of the Email column header, enter Website in the field labelled Field name (Optional), pick "URL" in the list of field types and click Save Field.`,
		},
		done: func(t *testing.T, n *testenv.NocoDB) string {
			return nocodbWant(t, n, func(s testenv.NocoDBState) {
				s["field"]["Authors.Website"] = "title=Website; type=URL; options="
			})
		},
		do: func(t *testing.T, b *testenv.NocoDBBrowser) { b.AddField(t, "Authors", "Website", "URL") },
		miss: func(t *testing.T, b *testenv.NocoDBBrowser) {
			b.AddField(t, "Authors", "Website", "SingleLineText")
		},
	},
	{
		name: "rename a table",
		phrasings: [3]string{
			`{signin}, click "..." next to "Orders" in the menu on the left, click "Rename table", type "Sales", press Enter`,
			`{signin}, then rename the Orders table to Sales: open its ... menu in the list of tables on the left, choose Rename table, type Sales and hit Enter.`,
			`{signin} In the Tables list on the left, click the three dots beside "Orders", pick "Rename table", replace the name with "Sales" and press Enter.`,
		},
		done: func(t *testing.T, n *testenv.NocoDB) string {
			return nocodbWant(t, n, func(s testenv.NocoDBState) { s["table"]["Orders"] = "title=Sales" })
		},
		do:   func(t *testing.T, b *testenv.NocoDBBrowser) { b.RenameTable(t, "Orders", "Sales") },
		miss: func(t *testing.T, b *testenv.NocoDBBrowser) { b.RenameTable(t, "Orders", "Sale") },
	},
	{
		name: "delete a book",
		phrasings: [3]string{
			`{signin}, click "Books", right-click the row of "The Silent Forest", click "Delete record"`,
			`{signin}, open the Books table, right-click The Silent Forest and choose Delete record.`,
			`{signin} Go to Books in the menu on the left, then right-click the "The Silent Forest" row and hit "Delete record" in the menu that opens.`,
		},
		done: func(t *testing.T, n *testenv.NocoDB) string {
			return nocodbWant(t, n, func(s testenv.NocoDBState) { delete(s["record"], "Books/The Silent Forest") })
		},
		do:   func(t *testing.T, b *testenv.NocoDBBrowser) { b.DeleteRecord(t, "Books", "The Silent Forest") },
		miss: func(t *testing.T, b *testenv.NocoDBBrowser) { b.DeleteRecord(t, "Books", "The Silent Harbor") },
	},
	{
		name: "make a grid view with a filter",
		phrasings: [3]string{
			`{signin}, click "Books", click "Create View" under "Books" in the menu on the left, click "Grid", type "Fantasy books" into the view name, click "Create view", click "Filter", click "Add filter", pick "Genre" in place of "Title", type "Fantasy" into the value box after "is equal"`,
			`{signin}, open Books, then Create View > Grid in the menu on the left, name it Fantasy books and press Create view. In that new view click Filter, then Add filter, and set it to Genre is equal Fantasy.`,
			`{signin} Under the Books table on the left click "Create View" and choose Grid; call the view "Fantasy books" and hit Create view. Then use the Filter button in the toolbar: Add filter, field Genre, is equal, value Fantasy.`,
		},
		done: func(t *testing.T, n *testenv.NocoDB) string {
			return nocodbWant(t, n, func(s testenv.NocoDBState) {
				s["view"]["Books/Fantasy books"] = "title=Fantasy books; type=grid; filters=Genre eq Fantasy; sorts="
			})
		},
		do: func(t *testing.T, b *testenv.NocoDBBrowser) {
			b.CreateGridView(t, "Books", "Fantasy books")
			b.AddFilter(t, "Books", "Fantasy books", "Genre", "eq", "Fantasy")
		},
		miss: func(t *testing.T, b *testenv.NocoDBBrowser) {
			b.CreateGridView(t, "Books", "Fantasy books")
			b.AddFilter(t, "Books", "Fantasy books", "Genre", "eq", "Mystery")
		},
	},
	{
		name: "rename the base",
		phrasings: [3]string{
			`{signin}, click "Bookshop" at the top of the menu on the left, click "Rename", type "Corner Bookshop", press Enter`,
			`{signin}, then rename the base: click its name Bookshop at the top left, choose Rename, type Corner Bookshop and hit Enter.`,
			`{signin} Click the base name "Bookshop" above the menu on the left, pick Rename in the menu that opens, change the name to "Corner Bookshop" and press Enter.`,
		},
		done: func(t *testing.T, n *testenv.NocoDB) string {
			return nocodbWant(t, n, func(s testenv.NocoDBState) { s["base"]["Bookshop"] = "title=Corner Bookshop" })
		},
		do:   func(t *testing.T, b *testenv.NocoDBBrowser) { b.RenameBase(t, "Corner Bookshop") },
		miss: func(t *testing.T, b *testenv.NocoDBBrowser) { b.RenameBase(t, "Corner Books") },
	},
}
