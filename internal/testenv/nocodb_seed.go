package testenv

import (
	"net/http"
	"testing"
)

// NocoDBSeedField is a field of a seeded table: its title and its type (NocoDB's name:
// SingleLineText, Number, Decimal, Email, SingleSelect), with a single select's options.
type NocoDBSeedField struct {
	Title, Type string
	Options     []string
}

// NocoDBSeedTable is a table of the seed: its title, its fields (the first its display
// field) and its records, each by its fields' titles.
type NocoDBSeedTable struct {
	Title   string
	Fields  []NocoDBSeedField
	Records []map[string]any
}

// NocoDBBase is the title of the seed's base.
const NocoDBBase = "Bookshop"

// NocoDBSeed is the seed every instance starts from, besides the owner: the Bookshop base
// with its books, authors and orders, in rows alike enough for a near miss (two books of
// each author with titles that start alike, two authors named alike, orders of the same
// customers and books).
var NocoDBSeed = []NocoDBSeedTable{
	{"Books", []NocoDBSeedField{{"Title", "SingleLineText", nil}, {"Author", "SingleLineText", nil},
		{"Genre", "SingleLineText", nil}, {"Price", "Decimal", nil}, {"Stock", "Number", nil}},
		[]map[string]any{
			{"Title": "The Silent Harbor", "Author": "Maria Lopez", "Genre": "Mystery", "Price": 12.5, "Stock": 8},
			{"Title": "The Silent Forest", "Author": "Maria Lopez", "Genre": "Mystery", "Price": 11, "Stock": 5},
			{"Title": "Northern Lights", "Author": "Tom Becker", "Genre": "Fantasy", "Price": 14.9, "Stock": 3},
			{"Title": "Northern Skies", "Author": "Tom Becker", "Genre": "Fantasy", "Price": 13.9, "Stock": 12},
			{"Title": "A Year of Gardens", "Author": "Ana Silva", "Genre": "Non-fiction", "Price": 22, "Stock": 4},
			{"Title": "A Year of Recipes", "Author": "Ana Silva", "Genre": "Non-fiction", "Price": 19.5, "Stock": 6},
		}},
	{"Authors", []NocoDBSeedField{{"Name", "SingleLineText", nil}, {"Country", "SingleLineText", nil}, {"Email", "Email", nil}},
		[]map[string]any{
			{"Name": "Maria Lopez", "Country": "Spain", "Email": "maria.lopez@example.com"},
			{"Name": "Tom Becker", "Country": "Germany", "Email": "tom.becker@example.com"},
			{"Name": "Ana Silva", "Country": "Portugal", "Email": "ana.silva@example.com"},
			{"Name": "Anna Silber", "Country": "Austria", "Email": "anna.silber@example.com"},
		}},
	{"Orders", []NocoDBSeedField{{"Order No", "SingleLineText", nil}, {"Customer", "SingleLineText", nil},
		{"Book", "SingleLineText", nil}, {"Quantity", "Number", nil}, {"Status", "SingleSelect", []string{"Open", "Shipped"}}},
		[]map[string]any{
			{"Order No": "ORD-1001", "Customer": "Lena Fischer", "Book": "Northern Lights", "Quantity": 1, "Status": "Open"},
			{"Order No": "ORD-1002", "Customer": "Paul Meyer", "Book": "The Silent Harbor", "Quantity": 2, "Status": "Shipped"},
			{"Order No": "ORD-1003", "Customer": "Lena Fischer", "Book": "A Year of Recipes", "Quantity": 1, "Status": "Open"},
			{"Order No": "ORD-1004", "Customer": "Omar Haddad", "Book": "Northern Skies", "Quantity": 3, "Status": "Shipped"},
		}},
}

// seedAPI signs the owner up through NocoDB's sign-up API (the first user is its super
// admin), makes an API token, skips the welcome questions the first sign-in asks (as
// their Skip does), deletes the sample base sign-up makes and writes the seed through the
// REST API with the token, then keeps the database's state as the seed the judges
// compare with, each seeded thing known by its name there.
func (n *NocoDB) seedAPI(t testing.TB) {
	t.Helper()
	b := n.Browser()
	var signup struct {
		Token string `json:"token"`
	}
	b.Do(t, http.MethodPost, "/api/v1/auth/user/signup", map[string]any{
		"email": n.Email, "password": n.Password, "firstname": "Nora", "lastname": "Quinn",
	}, &signup)
	b.header, b.token = "xc-auth", signup.Token
	var tok struct {
		Token string `json:"token"`
	}
	b.Do(t, http.MethodPost, "/api/v1/tokens", map[string]any{"description": "seed"}, &tok)
	n.Token = tok.Token
	b.Do(t, http.MethodPatch, "/api/v1/user/profile", map[string]any{"is_new_user": false}, nil)
	s := n.tokenBrowser()
	var bases struct {
		List []struct{ ID, Title string } `json:"list"`
	}
	s.Do(t, http.MethodGet, "/api/v2/meta/bases", nil, &bases)
	var base struct {
		ID string `json:"id"`
	}
	s.Do(t, http.MethodPost, "/api/v2/meta/bases", map[string]any{"title": NocoDBBase}, &base)
	n.BaseID = base.ID
	for _, old := range bases.List {
		s.Do(t, http.MethodDelete, "/api/v2/meta/bases/"+old.ID, nil, nil)
	}
	for _, tb := range NocoDBSeed {
		n.seedTable(t, s, tb)
	}
	n.alias = map[string]string{}
	for _, th := range n.things(t) {
		n.alias[th.id] = th.name
	}
	n.seed = n.State(t)
	if got := len(n.seed["record"]); got != 14 {
		t.Fatalf("nocodb: the seed stored %d records, not 14: %v", got, n.seed["record"])
	}
}

// seedTable makes a table of the seed with its fields and records, as the UI's Create New
// Table and its grid would.
func (n *NocoDB) seedTable(t testing.TB, s *NocoDBBrowser, tb NocoDBSeedTable) {
	t.Helper()
	var cols []map[string]any
	for i, f := range tb.Fields {
		c := map[string]any{"title": f.Title, "column_name": f.Title, "uidt": f.Type}
		if i == 0 {
			c["pv"] = true
		}
		if len(f.Options) > 0 {
			var opts []map[string]any
			for _, o := range f.Options {
				opts = append(opts, map[string]any{"title": o})
			}
			c["colOptions"] = map[string]any{"options": opts}
		}
		cols = append(cols, c)
	}
	var made struct {
		ID string `json:"id"`
	}
	s.Do(t, http.MethodPost, "/api/v2/meta/bases/"+n.BaseID+"/tables",
		map[string]any{"title": tb.Title, "table_name": tb.Title, "columns": cols}, &made)
	s.Do(t, http.MethodPost, "/api/v2/tables/"+made.ID+"/records", tb.Records, nil)
}
