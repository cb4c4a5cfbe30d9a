//go:build heldout

package e2e

import (
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// trytonGoal is one everyday goal on Tryton's web client: three ways of writing it (with
// {signin} where the sign-in goes), its judge (what the database lacks of exactly its
// effect, "" when it holds that and nothing else changed), its effect made through sao's
// own requests, and a near miss of it (a similar record, another field, the wrong value).
type trytonGoal struct {
	name      string
	phrasings [3]string
	done      func(t *testing.T, w *testenv.Tryton) string
	do, miss  func(t *testing.T, b *testenv.TrytonBrowser)
}

// trytonGoals are seven things a Tryton user does every day, each from the web client's
// page (its Login dialog first).
var trytonGoals = []trytonGoal{
	{
		name: "create a party with its city",
		phrasings: [3]string{
			`{signin}, click "Party" in the menu, click "Parties", click "New", type "Greenfield Organics" into "Name", type "Springfield" into "City", click "Save"`,
			`{signin}. Then open Party > Parties in the menu on the left, hit New, put Greenfield Organics in the Name field and Springfield in the City field of its address, and click Save.`,
			`{signin} In the menu on the left click Party, then Parties. Press the "New" button, type "Greenfield Organics" as the Name, enter Springfield in the field labelled City and save it with "Save".`,
		},
		done: func(t *testing.T, w *testenv.Tryton) string {
			want := w.Seed()
			want["party"]["Greenfield Organics"] = testenv.TrytonPartyRow(trytonNewParty("Springfield"))
			return w.Differs(t, want)
		},
		do: func(t *testing.T, b *testenv.TrytonBrowser) {
			b.Create(t, "party.party", testenv.TrytonPartyValues(trytonNewParty("Springfield"), nil))
		},
		miss: func(t *testing.T, b *testenv.TrytonBrowser) {
			// The city typed into the address's Street.
			b.Create(t, "party.party", map[string]any{"name": "Greenfield Organics",
				"addresses": []any{[]any{"create", []any{map[string]any{"street": "Springfield"}}}}})
		},
	},
	{
		name: "rename a party found by search",
		phrasings: [3]string{
			`{signin}, click "Party" in the menu, click "Parties", type "Andersen" into "Search", press Enter, double-click "Andersen Logistics", change "Name" to "Andersen Freight", click "Save"`,
			`{signin}, go to Party → Parties, search for Andersen, open Andersen Logistics (double-click its row), change its Name to "Andersen Freight" and hit Save`,
			`{signin} Then in the left menu choose Party and then Parties. Type Andersen into the Search box and press Enter, double-click the row of Andersen Logistics, replace the text in the Name field with Andersen Freight, then click Save.`,
		},
		done: func(t *testing.T, w *testenv.Tryton) string {
			want := w.Seed()
			want.Rename("party", "Andersen Logistics", "Andersen Freight")
			return w.Differs(t, want)
		},
		do: func(t *testing.T, b *testenv.TrytonBrowser) {
			b.Write(t, "party.party", []int{b.ID(t, "party.party", "Andersen Logistics")}, map[string]any{"name": "Andersen Freight"})
		},
		miss: func(t *testing.T, b *testenv.TrytonBrowser) {
			b.Write(t, "party.party", []int{b.ID(t, "party.party", "Anderson Logistics")}, map[string]any{"name": "Andersen Freight"})
		},
	},
	{
		name: "add a category to a party",
		phrasings: [3]string{
			`{signin}, click "Party" in the menu, click "Parties", double-click "Baker Street Bakery", type "Wholesale" into the "Categories" box, click "Wholesale" in the list that appears, click "Save"`,
			`{signin}. Open Party, then Parties, and double-click Baker Street Bakery. In its Categories box type Wholesale, pick Wholesale from the suggestions, then press Save.`,
			`{signin}, then in the menu on the left go to Party > Parties, open the party "Baker Street Bakery", add the category Wholesale by typing it into the Categories field and choosing it from the list, and hit the Save button`,
		},
		done: func(t *testing.T, w *testenv.Tryton) string {
			want := w.Seed()
			want.Set("party", "Baker Street Bakery", "categories", "Customer | Retail | Wholesale")
			return w.Differs(t, want)
		},
		do: func(t *testing.T, b *testenv.TrytonBrowser) {
			trytonAddCategory(t, b, "Baker Street Bakery", "Wholesale")
		},
		miss: func(t *testing.T, b *testenv.TrytonBrowser) {
			trytonAddCategory(t, b, "Baker & Sons Catering", "Wholesale")
		},
	},
	{
		name: "create a product with its list price",
		phrasings: [3]string{
			`{signin}, click "Product" in the menu, click "Products", click "New", type "Walnut Bookshelf" into "Name", type "Unit" into "Default UOM", click "Unit" in the list that appears, type "249.00" into "List Price", click "Save"`,
			`{signin}. Go to Product > Products in the left menu and hit New. Name: Walnut Bookshelf; in Default UOM type Unit and choose Unit from the suggestions; List Price: 249.00. Then click Save.`,
			`{signin}, then open Products under Product in the menu on the left, press "New", enter Walnut Bookshelf in the Name field, put Unit in the field labelled Default UOM and pick "Unit" from the list, type 249.00 as the List Price and press Save`,
		},
		done: func(t *testing.T, w *testenv.Tryton) string {
			want := w.Seed()
			want["product"]["Walnut Bookshelf"] = testenv.TrytonProductRow(testenv.TrytonProduct{Name: "Walnut Bookshelf", ListPrice: "249.00"})
			return w.Differs(t, want)
		},
		do: func(t *testing.T, b *testenv.TrytonBrowser) {
			trytonCreateProduct(t, b, "249.00")
		},
		miss: func(t *testing.T, b *testenv.TrytonBrowser) {
			trytonCreateProduct(t, b, "24.90")
		},
	},
	{
		name: "change your name in Preferences",
		phrasings: [3]string{
			`{signin}, click "Administrator" at the top right, type "Dana Whitfield" into "Name", click "OK"`,
			`{signin}, then open your Preferences by clicking your name (Administrator) in the top bar, change the Name field to Dana Whitfield and press OK`,
			`{signin} Click Administrator in the upper right corner to open the Preferences, replace the name there with "Dana Whitfield" and hit OK.`,
		},
		done: func(t *testing.T, w *testenv.Tryton) string {
			want := w.Seed()
			want.Set("user", "admin", "name", "Dana Whitfield")
			return w.Differs(t, want)
		},
		do: func(t *testing.T, b *testenv.TrytonBrowser) {
			b.SetPreferences(t, map[string]any{"name": "Dana Whitfield"})
		},
		miss: func(t *testing.T, b *testenv.TrytonBrowser) {
			// Another user renamed in Administration > Users rather than yourself.
			b.Write(t, "res.user", []int{b.ID(t, "res.user", "maria")}, map[string]any{"name": "Dana Whitfield"})
		},
	},
	{
		name: "create a user in a group",
		phrasings: [3]string{
			`{signin}, click "Administration" in the menu, click "Users", click "Users" under it, click "New", type "Priya Natarajan" into "Name", type "priya" into "Login", click the "Access Permissions" tab, type "Product Administration" into the "Groups" box, click "Product Administration" in the list that appears, click "Save"`,
			`{signin}. In the left menu open Administration > Users > Users and press New. Fill in Name Priya Natarajan and Login priya, then on the Access Permissions tab type Product Administration into Groups and pick it from the suggestions. Hit Save.`,
			`{signin}, then go to Administration, Users, and Users again in the menu on the left, click New, enter "Priya Natarajan" as the Name and priya as the Login, switch to the tab Access Permissions, add the group Product Administration by typing it in the Groups field and choosing it from the list, and click Save`,
		},
		done: func(t *testing.T, w *testenv.Tryton) string {
			want := w.Seed()
			want["user"]["priya"] = testenv.TrytonRow(map[string]string{"active": "1", "email": "", "groups": "Product Administration",
				"language": "", "name": "Priya Natarajan", "password": ""})
			return w.Differs(t, want)
		},
		do: func(t *testing.T, b *testenv.TrytonBrowser) {
			trytonCreateUser(t, b, "Product Administration")
		},
		miss: func(t *testing.T, b *testenv.TrytonBrowser) {
			trytonCreateUser(t, b, "Party Administration")
		},
	},
	{
		name: "deactivate a party found by search",
		phrasings: [3]string{
			`{signin}, click "Party" in the menu, click "Parties", type "Cartwright" into "Search", press Enter, double-click "Cartwright Office Supplies", uncheck "Active", click "Save"`,
			`{signin}. Go to Party > Parties, search for Cartwright and double-click Cartwright Office Supplies in the results; untick the Active box at the top (next to Code) and hit Save.`,
			`{signin}, then in the menu on the left click Party and Parties, type Cartwright into the Search box and press Enter, open the row of "Cartwright Office Supplies" with a double-click, clear the Active checkbox beside the Code field and press Save`,
		},
		done: func(t *testing.T, w *testenv.Tryton) string {
			want := w.Seed()
			want.Set("party", "Cartwright Office Supplies", "active", "0")
			return w.Differs(t, want)
		},
		do: func(t *testing.T, b *testenv.TrytonBrowser) {
			b.Write(t, "party.party", []int{b.ID(t, "party.party", "Cartwright Office Supplies")}, map[string]any{"active": false})
		},
		miss: func(t *testing.T, b *testenv.TrytonBrowser) {
			b.Write(t, "party.party", []int{b.ID(t, "party.party", "Carter Office Supplies")}, map[string]any{"active": false})
		},
	},
}

// trytonNewParty is the party the first goal makes: Greenfield Organics, its one address
// (the one a new party's form holds) with city alone filled in.
func trytonNewParty(city string) testenv.TrytonParty {
	return testenv.TrytonParty{Name: "Greenfield Organics", Active: true, Addresses: [][3]string{{"", "", city}}}
}

// trytonAddCategory adds the category named category to the party named party, as the
// party form's Categories box and Save do.
func trytonAddCategory(t *testing.T, b *testenv.TrytonBrowser, party, category string) {
	b.Write(t, "party.party", []int{b.ID(t, "party.party", party)},
		map[string]any{"categories": []any{[]any{"add", []int{b.ID(t, "party.category", category)}}}})
}

// trytonCreateProduct saves a new product Walnut Bookshelf, its unit Unit, at price, as
// the product form's Save does (with the one variant the form adds, its cost price 0).
func trytonCreateProduct(t *testing.T, b *testenv.TrytonBrowser, price string) {
	v := testenv.TrytonProductValues(testenv.TrytonProduct{Name: "Walnut Bookshelf", ListPrice: price}, b.ID(t, "product.uom", "Unit"))
	v["products"] = []any{[]any{"create", []any{map[string]any{"cost_price": testenv.TrytonDecimal("0")}}}}
	b.Create(t, "product.template", v)
}

// trytonCreateUser saves a new user Priya Natarajan (login priya) in group, as the user
// form's Save does.
func trytonCreateUser(t *testing.T, b *testenv.TrytonBrowser, group string) {
	b.Create(t, "res.user", map[string]any{"name": "Priya Natarajan", "login": "priya",
		"groups": []any{[]any{"add", []int{b.ID(t, "res.group", group)}}}})
}
