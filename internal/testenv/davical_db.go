package testenv

import (
	"crypto/sha1"
	"encoding/base64"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// DAViCalState is what the judges compare of DAViCal's database: for each kind of thing
// the admin pages change, its rows by key, each row's value its settings as one line.
//
//	principal   username → type, active, admin, fullname, email, displayname, default privileges
//	collection  DAV path (/alice/calendar/) → displayname, calendar, addressbook, public, description
//	member      group>member → ""
//	grant       grantor>grantee (a principal's username or a collection's path) → privileges
//	ticket      ticket id → owner, target path, privileges
//
// Passwords are left out: DAViCal's edit page sends its password fields' placeholder back
// when a principal is saved, which changes the stored hash (PasswordIs reads one).
type DAViCalState map[string]map[string]string

// davicalQueries are the queries DAViCalState is read with: each row a key and a value.
var davicalQueries = map[string]string{
	"principal": `SELECT u.username, format('type=%s active=%s admin=%s fullname=%s email=%s displayname=%s privileges=%s',
		p.type_id, u.active, EXISTS (SELECT 1 FROM role_member r WHERE r.role_no = 1 AND r.user_no = u.user_no),
		u.fullname, u.email, p.displayname, bits_to_privilege(p.default_privileges))
		FROM usr u JOIN principal p USING (user_no)`,
	"collection": `SELECT dav_name, format('displayname=%s calendar=%s addressbook=%s public=%s description=%s',
		dav_displayname, is_calendar, is_addressbook, publicly_readable, replace(coalesce(description, ''), E'\n', ' '))
		FROM collection`,
	"member": `SELECT g.username || '>' || m.username, '' FROM group_member gm
		JOIN principal gp ON gp.principal_id = gm.group_id JOIN usr g ON g.user_no = gp.user_no
		JOIN principal mp ON mp.principal_id = gm.member_id JOIN usr m ON m.user_no = mp.user_no`,
	"grant": `SELECT coalesce(fu.username, c.dav_name) || '>' || tu.username, bits_to_privilege(gr.privileges)::text FROM grants gr
		LEFT JOIN principal fp ON fp.principal_id = gr.by_principal LEFT JOIN usr fu ON fu.user_no = fp.user_no
		LEFT JOIN collection c ON c.collection_id = gr.by_collection
		JOIN principal tp ON tp.principal_id = gr.to_principal JOIN usr tu ON tu.user_no = tp.user_no`,
	"ticket": `SELECT a.ticket_id, format('owner=%s target=%s privileges=%s', o.username, c.dav_name, bits_to_privilege(a.privileges))
		FROM access_ticket a JOIN principal op ON op.principal_id = a.dav_owner_id JOIN usr o ON o.user_no = op.user_no
		JOIN collection c ON c.collection_id = a.target_collection_id`,
}

// psql runs one query in the database db as the cluster's superuser and returns its rows,
// each a line of tab-separated fields.
func (d *DAViCal) psql(db, query string) ([]string, error) {
	return psqlRows(d.Socket, d.Port, db, query)
}

// Query runs a query in DAViCal's database and returns its rows (tab-separated fields),
// failing the test when psql does.
func (d *DAViCal) Query(t testing.TB, query string) []string {
	t.Helper()
	rows, err := d.psql("davical", query)
	if err != nil {
		t.Fatalf("davical: %s: %v", query, err)
	}
	return rows
}

// State reads the database's state now.
func (d *DAViCal) State(t testing.TB) DAViCalState {
	t.Helper()
	s := DAViCalState{}
	for kind, q := range davicalQueries {
		s[kind] = map[string]string{}
		for _, row := range d.Query(t, q) {
			k, v, _ := strings.Cut(row, "\t")
			s[kind][k] = v
		}
	}
	return s
}

// Seed is the state the instance started with (a copy the caller may change).
func (d *DAViCal) Seed() DAViCalState { return d.seed.Clone() }

// Clone is a deep copy of the state.
func (s DAViCalState) Clone() DAViCalState {
	c := DAViCalState{}
	for k, rows := range s {
		c[k] = maps.Clone(rows)
	}
	return c
}

// Diff says how s differs from want ("" when it does not): each row missing, extra or
// different, by kind and key.
func (s DAViCalState) Diff(want DAViCalState) string {
	var out []string
	for _, kind := range slices.Sorted(maps.Keys(davicalQueries)) {
		got, w := s[kind], want[kind]
		keys := slices.Sorted(maps.Keys(got))
		for _, k := range slices.Sorted(maps.Keys(w)) {
			if _, ok := got[k]; !ok {
				out = append(out, fmt.Sprintf("%s %s is missing", kind, k))
			}
		}
		for _, k := range keys {
			wv, ok := w[k]
			switch {
			case !ok:
				out = append(out, fmt.Sprintf("an extra %s %s (%s)", kind, k, got[k]))
			case wv != got[k]:
				out = append(out, fmt.Sprintf("%s %s is %q, not %q", kind, k, got[k], wv))
			}
		}
	}
	return strings.Join(out, "; ")
}

// Differs says how the database differs from want ("" when it holds exactly that).
func (d *DAViCal) Differs(t testing.TB, want DAViCalState) string {
	t.Helper()
	return d.State(t).Diff(want)
}

// PrincipalID is the principal id of the principal username ("" when there is none).
func (d *DAViCal) PrincipalID(t testing.TB, username string) string {
	t.Helper()
	rows := d.Query(t, "SELECT p.principal_id FROM principal p JOIN usr u USING (user_no) WHERE u.username = "+sqlQuote(username))
	if len(rows) == 0 {
		return ""
	}
	return rows[0]
}

// PasswordIs says whether username's stored password is password, in either form DAViCal
// keeps: "**" and the password itself, or "*salt*{SSHA}" and the base64 of the password's
// salted SHA-1 followed by the salt.
func (d *DAViCal) PasswordIs(t testing.TB, username, password string) bool {
	t.Helper()
	rows := d.Query(t, "SELECT password FROM usr WHERE username = "+sqlQuote(username))
	if len(rows) == 0 {
		return false
	}
	stored := rows[0]
	if plain, ok := strings.CutPrefix(stored, "**"); ok {
		return plain == password
	}
	parts := strings.SplitN(stored, "*", 3)
	if len(parts) != 3 || parts[0] != "" {
		return false
	}
	salt, rest := parts[1], parts[2]
	b64, ok := strings.CutPrefix(rest, "{SSHA}")
	if !ok {
		return false
	}
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(raw) < sha1.Size {
		return false
	}
	sum := sha1.Sum([]byte(password + salt))
	return string(raw[:sha1.Size]) == string(sum[:])
}
