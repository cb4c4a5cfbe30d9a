package testenv

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TrytonState is what the judges compare of a Tryton: for each kind of record its pages
// change, its records by name (a second record of the same name as "NAME #2"), each one's
// fields as one line, "field=value; field=value" sorted by field.
//
//	party     name → active, addresses (each its fields that are filled in, "street: …, city: …"),
//	          categories, contacts (each "type:value")
//	category  a party category's name → active, parent
//	product   a product's name → active, list_price, type, uom, variants
//	user      login → active, email, groups, language, name, password (a digest of its hash)
type TrytonState map[string]map[string]string

// trytonQueries read the records of each kind: each row's "k" its name, "id" its id (for
// the lines of the queries in trytonLines) and the rest its fields.
var trytonQueries = map[string]string{
	"party": `SELECT id, name AS k, active FROM party_party`,
	"category": `SELECT c.id, c.name AS k, c.active, coalesce(p.name, '') AS parent
		FROM party_category c LEFT JOIN party_category p ON p.id = c.parent`,
	"product": `SELECT t.id, t.name AS k, t.active, t.type, coalesce(u.name, '') AS uom,
		(SELECT group_concat(coalesce(list_price, ''), ' / ') FROM product_list_price WHERE template = t.id) AS list_price,
		(SELECT count(*) FROM product_product p WHERE p.template = t.id) AS variants
		FROM product_template t LEFT JOIN product_uom u ON u.id = t.default_uom`,
	"user": `SELECT u.id, u.login AS k, u.name, u.active, coalesce(u.email, '') AS email,
		coalesce(u.password_hash, '') AS password, coalesce(l.code, '') AS language
		FROM res_user u LEFT JOIN ir_lang l ON l.id = u.language WHERE u.id != 0`,
}

// trytonLines read the lines a kind's records hold, each row's "id" the record's: the
// field they make and how each line reads.
var trytonLines = map[string][]struct{ field, query string }{
	"party": {
		{"addresses", `SELECT a.party AS id, a.active, coalesce(a.party_name, '') || char(31) || coalesce(a.name, '') || char(31) ||
			coalesce(a.street, '') || char(31) || coalesce(a.postal_code, '') || char(31) || coalesce(a.city, '') || char(31) ||
			coalesce(c.code, '') || char(31) || coalesce(s.name, '') AS line
			FROM party_address a LEFT JOIN country_country c ON c.id = a.country LEFT JOIN country_subdivision s ON s.id = a.subdivision`},
		{"contacts", `SELECT party AS id, active, type || ':' || coalesce(value, '') AS line FROM party_contact_mechanism`},
		{"categories", `SELECT r.party AS id, 1 AS active, c.name AS line FROM party_category_rel r JOIN party_category c ON c.id = r.category`},
	},
	"user": {
		{"groups", `SELECT r.user AS id, 1 AS active, g.name AS line FROM "res_user-res_group" r JOIN res_group g ON g.id = r."group"`},
	},
}

// State reads the database now.
func (w *Tryton) State(t testing.TB) TrytonState {
	t.Helper()
	s := TrytonState{}
	for kind, q := range trytonQueries {
		lines := map[string]map[string][]string{} // id → field → lines
		for _, l := range trytonLines[kind] {
			for _, r := range SQLiteRows(t, w.DB, l.query) {
				line := trytonLine(r["line"])
				if r["active"] == "0" {
					line += " (inactive)"
				}
				if lines[r["id"]] == nil {
					lines[r["id"]] = map[string][]string{}
				}
				lines[r["id"]][l.field] = append(lines[r["id"]][l.field], line)
			}
		}
		s[kind] = map[string]string{}
		for _, r := range SQLiteRows(t, w.DB, q+" ORDER BY 1") {
			fields := map[string]string{}
			for k, v := range r {
				if k != "id" && k != "k" {
					fields[k] = v
				}
			}
			for _, l := range trytonLines[kind] {
				got := lines[r["id"]][l.field]
				slices.Sort(got)
				fields[l.field] = strings.Join(got, " | ")
			}
			trytonNormalize(fields)
			key := r["k"]
			for n := 2; s[kind][key] != ""; n++ {
				key = fmt.Sprintf("%s #%d", r["k"], n)
			}
			s[kind][key] = TrytonRow(fields)
		}
	}
	return s
}

// trytonAddressFields name the parts of an address's line, in the order the query gives
// them (the labels of the address form).
var trytonAddressFields = []string{"party name", "building name", "street", "postal code", "city", "country", "subdivision"}

// trytonLine is a line's parts (split by the unit separator the queries put between
// them): an address's labelled by their field, those that are empty left out; any
// other line's as it is.
func trytonLine(s string) string {
	parts := strings.Split(s, "\x1f")
	if len(parts) != len(trytonAddressFields) {
		return s
	}
	var out []string
	for i, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, trytonAddressFields[i]+": "+p)
		}
	}
	return strings.Join(out, ", ")
}

// trytonNormalize writes a record's fields as the judges compare them: a list price with
// two decimals, a password hash as a short digest ("" for none).
func trytonNormalize(fields map[string]string) {
	if p, ok := fields["list_price"]; ok && p != "" {
		if f, err := strconv.ParseFloat(p, 64); err == nil {
			fields["list_price"] = strconv.FormatFloat(f, 'f', 2, 64)
		}
	}
	if h, ok := fields["password"]; ok && h != "" {
		sum := md5.Sum([]byte(h))
		fields["password"] = hex.EncodeToString(sum[:4])
	}
}

// TrytonRow is a record's fields as one line of a TrytonState.
func TrytonRow(fields map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		parts = append(parts, k+"="+fields[k])
	}
	return strings.Join(parts, "; ")
}

// TrytonFields is a line of a TrytonState as its fields.
func TrytonFields(row string) map[string]string {
	fields := map[string]string{}
	for _, part := range strings.Split(row, "; ") {
		k, v, _ := strings.Cut(part, "=")
		fields[k] = v
	}
	return fields
}

// TrytonPartyRow is how a new party p reads in a TrytonState.
func TrytonPartyRow(p TrytonParty) string {
	var addresses []string
	for _, a := range p.Addresses {
		addresses = append(addresses, trytonLine(strings.Join([]string{"", "", a[0], a[1], a[2], "", ""}, "\x1f")))
	}
	slices.Sort(addresses)
	categories, contacts := slices.Sorted(slices.Values(p.Categories)), slices.Sorted(slices.Values(p.Contacts))
	return TrytonRow(map[string]string{"active": trytonBool(p.Active), "addresses": strings.Join(addresses, " | "),
		"categories": strings.Join(categories, " | "), "contacts": strings.Join(contacts, " | ")})
}

// TrytonProductRow is how a new product p reads in a TrytonState (with the one variant
// the form adds and Unit as its unit).
func TrytonProductRow(p TrytonProduct) string {
	kind := "goods"
	if p.Service {
		kind = "service"
	}
	return TrytonRow(map[string]string{"active": "1", "list_price": p.ListPrice, "type": kind, "uom": "Unit", "variants": "1"})
}

func trytonBool(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// Set sets one field of the record key of kind (which must be there).
func (s TrytonState) Set(kind, key, field, value string) {
	fields := TrytonFields(s[kind][key])
	fields[field] = value
	s[kind][key] = TrytonRow(fields)
}

// Rename moves the record key of kind to the name to.
func (s TrytonState) Rename(kind, key, to string) {
	s[kind][to] = s[kind][key]
	delete(s[kind], key)
}

// Seed is the state the instance started with (a copy the caller may change).
func (w *Tryton) Seed() TrytonState { return w.seed.Clone() }

// Clone is a deep copy of the state.
func (s TrytonState) Clone() TrytonState { return TrytonState(IcingaWebState(s).Clone()) }

// Diff says how s differs from want ("" when it does not): each record missing, extra or
// different, by kind and name.
func (s TrytonState) Diff(want TrytonState) string {
	return IcingaWebState(s).Diff(IcingaWebState(want))
}

// Differs says how the instance's database differs from want ("" when it holds exactly
// that).
func (w *Tryton) Differs(t testing.TB, want TrytonState) string {
	t.Helper()
	return w.State(t).Diff(want)
}
