package testenv

import (
	"strings"
	"testing"
)

// LedgerSMBContact is a customer or vendor of the seed: its control code, class (1 vendor,
// 2 customer), name, credit account (number, payment terms in days, credit limit) and
// billing address (none when Street is "").
type LedgerSMBContact struct {
	Code   string
	Class  int
	Name   string
	Number string
	Terms  string
	Limit  string
	Street string
	City   string
	State  string
	Zip    string
}

// LedgerSMBEmployee is an employee of the seed with a user of its own and that user's
// permissions (roles without the company's prefix).
type LedgerSMBEmployee struct {
	Code, First, Last, Username string
	Roles                       []string
}

// The seed every instance starts from, besides the US General chart of accounts and admin
// (Dana Whitfield, every permission): customers and vendors with similar names, two
// employees with users of their own, and the company's name, address and numbers in
// System > Defaults.
var (
	LedgerSMBSeedContacts = []LedgerSMBContact{
		{"C-1001", 2, "Harbor Lights Cafe", "C-1001", "30", "5000", "210 Front Avenue", "Portland", "OR", "97204"},
		{"C-1002", 2, "Harbor Lights Bakery", "C-1002", "30", "3000", "18 Pier Road", "Astoria", "OR", "97103"},
		{"C-1003", 2, "Harborview Catering", "C-1003", "15", "8000", "", "", "", ""},
		{"V-2001", 1, "Northwind Paper Supply", "V-2001", "30", "0", "", "", "", ""},
		{"V-2002", 1, "Northwind Paper Traders", "V-2002", "45", "0", "9 Cannery Lane", "Tacoma", "WA", "98402"},
		{"V-2003", 1, "Northgate Office Furniture", "V-2003", "30", "0", "", "", "", ""},
	}
	LedgerSMBSeedEmployees = []LedgerSMBEmployee{
		{"E-002", "Maria", "Lopez", "mlopez", []string{"contact_read", "ar_transaction_list"}},
		{"E-003", "James", "Chen", "jchen", []string{"contact_read", "ap_transaction_list"}},
	}
	// LedgerSMBSeedDefaults are the System > Defaults fields the seed fills in.
	LedgerSMBSeedDefaults = map[string]string{
		"company_name":    "Brightwater Supply Co.",
		"company_address": "48 Quay Street, Portland, OR 97209",
		"company_phone":   "+1 503 555 0100",
		"company_fax":     "+1 503 555 0199",
	}
)

// seedData signs in as admin and enters the seed through the app's own screens.
func (l *LedgerSMB) seedData(t testing.TB) {
	t.Helper()
	b := l.Browser()
	b.SignIn(t)
	b.Open(t, "/configuration.pl?action=defaults_screen")
	b.Send(t, b.Form(t, "save_defaults"), LedgerSMBSeedDefaults)
	for _, c := range LedgerSMBSeedContacts {
		b.AddContact(t, c)
	}
	for _, e := range LedgerSMBSeedEmployees {
		b.AddEmployeeUser(t, e, LedgerSMBSeedPassword)
	}
	if rows := l.Query(t, "SELECT count(*) FROM entity_credit_account"); len(rows) != 1 || rows[0] != "6" {
		t.Fatalf("ledgersmb: the seed stored %v credit accounts, not 6", rows)
	}
}

// AddContact adds a company as Contacts > Add Contact does (Class, Control Code, Name,
// Country: United States, Save), then its credit account on the Credit Accounts tab (Save
// New) and, when it has one, its billing address on the Addresses tab (Save New
// Location).
func (b *LedgerSMBBrowser) AddContact(t testing.TB, c LedgerSMBContact) {
	t.Helper()
	class := string(rune('0' + c.Class))
	b.Open(t, "/contact.pl?action=add")
	b.Send(t, b.Form(t, "save_company"), map[string]string{"entity_class": class, "control_code": c.Code,
		"legal_name": c.Name, "country_id": ledgersmbUS})
	control := "2100" // Accounts Payable
	if c.Class == 2 {
		control = "1200" // Accounts Receivables
	}
	account := b.l.Query(t, "SELECT id FROM account WHERE accno = "+pgQuote(control))
	b.Send(t, b.Form(t, "save_credit_new"), map[string]string{"entity_class": class, "meta_number": c.Number,
		"description": c.Name, "terms": c.Terms, "creditlimit": c.Limit, "curr": "USD", "ar_ap_account_id": account[0]})
	if c.Street != "" {
		b.Send(t, b.Form(t, "save_new_location"), map[string]string{"location_class": "1", "line_one": c.Street,
			"city": c.City, "state": c.State, "mail_code": c.Zip, "country_id": ledgersmbUS})
	}
}

// AddEmployeeUser adds an employee as HR > Employees > Add Employee does, then a user
// for it on the User tab (Add User) and ticks its permissions (Save Groups).
func (b *LedgerSMBBrowser) AddEmployeeUser(t testing.TB, e LedgerSMBEmployee, password string) {
	t.Helper()
	b.Open(t, "/contact.pl?action=add&entity_class=3")
	b.Post(t, "/contact.pl", map[string][]string{"action": {"save_employee"}, "entity_class": {"3"}, "control_code": {e.Code},
		"first_name": {e.First}, "last_name": {e.Last}, "country_id": {ledgersmbUS}, "employeenumber": {e.Code},
		"start_date": {"2023-01-09"}, "salutation_id": {"5"}, "target_div": {"hr_div"}})
	b.Send(t, b.Form(t, "create_user"), map[string]string{"username": e.Username, "reset_password": password, "pls_import": "0"})
	roles := map[string]string{}
	for _, r := range e.Roles {
		roles["role__"+r] = "1"
	}
	b.SaveRoles(t, roles)
}

// SaveRoles changes the ticks of the employee's permissions on its User tab (by field
// name: "role__contact_create" → "1" ticks, "" unticks) and presses Save Groups.
func (b *LedgerSMBBrowser) SaveRoles(t testing.TB, roles map[string]string) string {
	t.Helper()
	f := b.Form(t, "save_roles")
	for k, v := range roles {
		if v == "" {
			f.Fields.Del(k)
		} else {
			f.Fields.Set(k, v)
		}
	}
	return b.Send(t, f, nil)
}

// LedgerSMBSeedContact is the seed's contact named name.
func LedgerSMBSeedContact(name string) LedgerSMBContact {
	for _, c := range LedgerSMBSeedContacts {
		if strings.EqualFold(c.Name, name) {
			return c
		}
	}
	panic("ledgersmb: no seed contact " + name)
}
