package testenv

import (
	"strings"
	"testing"
)

// writeSeed writes the seed through the browser b, signed in as admin: the configuration
// wizard's steps marked done (a new database would open that wizard at the first sign-in),
// then the party categories, the parties, the products and the users.
func (w *Tryton) writeSeed(t testing.TB, b *TrytonBrowser) {
	t.Helper()
	if items := b.Search(t, "ir.module.config_wizard.item"); len(items) > 0 {
		b.Write(t, "ir.module.config_wizard.item", items, map[string]any{"state": "done"})
	}
	category := map[string]int{}
	for _, name := range TrytonSeedCategories {
		category[name] = b.Create(t, "party.category", map[string]any{"name": name})[0]
	}
	for _, p := range TrytonSeedParties {
		b.Create(t, "party.party", TrytonPartyValues(p, category))
	}
	unit := b.ID(t, "product.uom", "Unit")
	for _, p := range TrytonSeedProducts {
		b.Create(t, "product.template", TrytonProductValues(p, unit))
	}
	for _, u := range TrytonSeedUsers {
		var groups []int
		for _, g := range u.Groups {
			groups = append(groups, b.ID(t, "res.group", g))
		}
		b.Create(t, "res.user", map[string]any{"login": u.Login, "name": u.Name, "email": u.Email,
			"password": TrytonSeedPassword, "groups": []any{[]any{"add", groups}}})
	}
}

// TrytonPartyValues is what a party form's Save sends for a new party p: its name, its
// addresses and contact mechanisms as new lines, its categories (ids by name) added.
func TrytonPartyValues(p TrytonParty, category map[string]int) map[string]any {
	var addresses, contacts []any
	for _, a := range p.Addresses {
		addresses = append(addresses, map[string]any{"street": a[0], "postal_code": a[1], "city": a[2]})
	}
	for _, c := range p.Contacts {
		kind, value, _ := strings.Cut(c, ":")
		contacts = append(contacts, map[string]any{"type": kind, "value": value})
	}
	var categories []int
	for _, c := range p.Categories {
		categories = append(categories, category[c])
	}
	v := map[string]any{"name": p.Name, "active": p.Active}
	if addresses != nil {
		v["addresses"] = []any{[]any{"create", addresses}}
	}
	if contacts != nil {
		v["contact_mechanisms"] = []any{[]any{"create", contacts}}
	}
	if categories != nil {
		v["categories"] = []any{[]any{"add", categories}}
	}
	return v
}

// TrytonProductValues is what the product form's Save sends for a new product p: its
// name, type, default unit of measure (the id of Unit), list price and the one variant the
// form adds to a new product.
func TrytonProductValues(p TrytonProduct, unit int) map[string]any {
	kind := "goods"
	if p.Service {
		kind = "service"
	}
	return map[string]any{"name": p.Name, "type": kind, "default_uom": unit, "list_price": TrytonDecimal(p.ListPrice),
		"products": []any{[]any{"create", []any{map[string]any{}}}}}
}
