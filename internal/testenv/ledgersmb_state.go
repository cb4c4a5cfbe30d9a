package testenv

import (
	"strings"
	"testing"
)

// LedgerSMBState is what the judges compare of a LedgerSMB's company database: for each
// kind of thing its screens change, its rows by key, each row's value its fields as one
// line.
//
//	contact     control code → class and name (customers, vendors, employees…)
//	credit      account number (meta_number) → its contact, class, description, terms,
//	            credit limit, discount, currency
//	location    contact name|address → type, city, state, post code, country (kept on the
//	            contact itself or on one of its credit accounts, which the key then names)
//	channel     contact name|type|value → description (phone numbers, e-mail addresses)
//	note        contact name|subject → the note
//	account     account number → description, type, heading and options (charts' headings
//	            are keyed "H:" + number)
//	setting     key → value (System > Defaults and the sequences)
//	preference  username → date format, number format, language, stylesheet
//	user        username → the employee it belongs to
//	member      username>permission → "" (the permission's role without the company's
//	            prefix, e.g. "contact_create")
type LedgerSMBState map[string]map[string]string

// ledgersmbQueries are the queries the kinds are read with: each row a key and a value.
var ledgersmbQueries = map[string]string{
	"contact": `SELECT control_code, format('class=%s name=%s', entity_class, name) FROM entity WHERE control_code IS NOT NULL`,
	"credit": `SELECT c.meta_number, format('entity=%s class=%s description=%s terms=%s creditlimit=%s discount=%s curr=%s',
		e.name, c.entity_class, c.description, c.terms, c.creditlimit::numeric(20,2), coalesce(c.discount, 0)::numeric(20,2), c.curr)
		FROM entity_credit_account c JOIN entity e ON e.id = c.entity_id`,
	"location": `SELECT who || '|' || l.line_one, format('class=%s city=%s state=%s code=%s country=%s line2=%s',
		x.location_class, l.city, l.state, l.mail_code, l.country_id, l.line_two)
		FROM (SELECT e.name AS who, location_id, location_class FROM entity_to_location el JOIN entity e ON e.id = el.entity_id
		      UNION ALL SELECT c.meta_number, location_id, location_class FROM eca_to_location cl JOIN entity_credit_account c ON c.id = cl.credit_id) x
		JOIN location l ON l.id = x.location_id`,
	"channel": `SELECT who || '|' || contact_class_id || '|' || contact, coalesce(description, '')
		FROM (SELECT e.name AS who, contact_class_id, contact, ec.description FROM entity_to_contact ec JOIN entity e ON e.id = ec.entity_id
		      UNION ALL SELECT c.meta_number, contact_class_id, contact, cc.description FROM eca_to_contact cc JOIN entity_credit_account c ON c.id = cc.credit_id) x`,
	"note": `SELECT e.name || '|' || coalesce(n.subject, ''), n.note FROM entity_note n JOIN entity e ON e.id = n.ref_key`,
	"account": `SELECT a.accno, format('description=%s category=%s heading=%s contra=%s tax=%s obsolete=%s links=%s', a.description,
		a.category, h.accno, a.contra, a.tax, a.obsolete, (SELECT string_agg(description, ',' ORDER BY description) FROM account_link WHERE account_id = a.id))
		FROM account a JOIN account_heading h ON h.id = a.heading
		UNION ALL SELECT 'H:' || accno, format('description=%s parent=%s', description, parent_id) FROM account_heading`,
	"setting":    `SELECT setting_key, coalesce(value, '') FROM defaults WHERE setting_key NOT IN ('entity_control')`,
	"preference": `SELECT u.username, format('dateformat=%s numberformat=%s language=%s stylesheet=%s', p.dateformat, p.numberformat, p.language, p.stylesheet) FROM user_preference p JOIN users u ON u.id = p.id`,
	"user":       `SELECT u.username, e.name FROM users u JOIN entity e ON e.id = u.entity_id`,
}

// ledgersmbMembers reads each user's permissions: the company's roles each user's
// PostgreSQL role is a member of.
func (l *LedgerSMB) ledgersmbMembers(t testing.TB) map[string]string {
	t.Helper()
	prefix := "lsmb_" + l.Company + "__"
	rows := l.Query(t, `SELECT m.rolname, r.rolname FROM pg_auth_members am JOIN pg_roles r ON r.oid = am.roleid
		JOIN pg_roles m ON m.oid = am.member JOIN users u ON u.username = m.rolname WHERE r.rolname LIKE 'lsmb\_%'`)
	out := map[string]string{}
	for _, row := range rows {
		user, role, _ := strings.Cut(row, "\t")
		out[user+">"+strings.TrimPrefix(role, prefix)] = ""
	}
	return out
}

// State reads the company database now.
func (l *LedgerSMB) State(t testing.TB) LedgerSMBState {
	t.Helper()
	s := LedgerSMBState{}
	for kind, q := range ledgersmbQueries {
		s[kind] = map[string]string{}
		for _, row := range l.Query(t, q) {
			k, v, _ := strings.Cut(row, "\t")
			s[kind][k] = v
		}
	}
	s["member"] = l.ledgersmbMembers(t)
	return s
}

// Seed is the state the instance started with (a copy the caller may change).
func (l *LedgerSMB) Seed() LedgerSMBState { return l.seed.Clone() }

// Clone is a deep copy of the state.
func (s LedgerSMBState) Clone() LedgerSMBState { return LedgerSMBState(IcingaWebState(s).Clone()) }

// Diff says how s differs from want ("" when it does not): each row missing, extra or
// different, by kind and key (the same comparison as Icinga Web 2's, whose state has the
// same shape).
func (s LedgerSMBState) Diff(want LedgerSMBState) string {
	return IcingaWebState(s).Diff(IcingaWebState(want))
}

// Differs says how the company database differs from want ("" when it holds exactly
// that).
func (l *LedgerSMB) Differs(t testing.TB, want LedgerSMBState) string {
	t.Helper()
	return l.State(t).Diff(want)
}
