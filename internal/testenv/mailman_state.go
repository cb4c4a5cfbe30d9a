package testenv

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// MailmanState is what the judges compare of a Mailman: for each kind of thing the web UI
// changes in the core's SQLite database, its rows by key, each row's value one line.
//
//	domain   mail host → description=…
//	list     list id/setting → value: every column of each list (its settings, its name,
//	         its description…), one row each, blobs as hexadecimal
//	member   list id>address>role (member, owner, moderator, nonmember) →
//	         moderation=…; delivery=…; status=… (as the member's own preferences set them)
//	address  address → name=…; verified=0|1; user=0|1
//	ban      list id>address ("*" for the list id of a global ban) → ""
//	pending  type>list id>address → token_owner=… (a subscription or unsubscription
//	         waiting for someone's confirmation or approval)
//	request  list id>request type>key → "" (held messages and requests for moderators)
type MailmanState map[string]map[string]string

// mailmanQueries are the queries the kinds are read with but "list" (read column by
// column) and "pending" (read key by key): each row a key and a value.
var mailmanQueries = map[string]string{
	"domain": `SELECT mail_host AS k, 'description=' || coalesce(description, '') AS v FROM domain`,
	"member": `SELECT m.list_id || '>' || a.email || '>' ||
		CASE m.role WHEN 1 THEN 'member' WHEN 2 THEN 'owner' WHEN 3 THEN 'moderator' WHEN 4 THEN 'nonmember' ELSE m.role END AS k,
		'moderation=' || CASE m.moderation_action WHEN 0 THEN 'hold' WHEN 1 THEN 'reject' WHEN 2 THEN 'discard'
			WHEN 3 THEN 'accept' WHEN 4 THEN 'defer' ELSE 'list default' END ||
		'; delivery=' || coalesce(p.delivery_mode, '') || '; status=' || coalesce(p.delivery_status, '') AS v
		FROM member m JOIN address a ON a.id = m.address_id LEFT JOIN preferences p ON p.id = m.preferences_id`,
	"address": `SELECT email AS k, 'name=' || coalesce(display_name, '') || '; verified=' || (verified_on IS NOT NULL) ||
		'; user=' || (user_id IS NOT NULL) AS v FROM address`,
	"ban": `SELECT coalesce(list_id, '*') || '>' || email AS k, '' AS v FROM ban`,
	"request": `SELECT coalesce(l.list_id, r.mailing_list_id) || '>' || r.request_type || '>' || r."key" AS k, '' AS v
		FROM _request r LEFT JOIN mailinglist l ON l.id = r.mailing_list_id`,
}

// State reads the core's database now.
func (m *Mailman) State(t testing.TB) MailmanState {
	t.Helper()
	s := MailmanState{}
	for kind, q := range mailmanQueries {
		s[kind] = map[string]string{}
		for _, r := range SQLiteRows(t, m.DB, q) {
			s[kind][r["k"]] = r["v"]
		}
	}
	s["list"] = m.listRows(t)
	s["pending"] = m.pendingRows(t)
	return s
}

// listRows reads every column of every list but its row id, one row each keyed list
// id/column; blobs (the pickled lists of addresses) as hexadecimal.
func (m *Mailman) listRows(t testing.TB) map[string]string {
	t.Helper()
	var cols, names []string
	for _, c := range SQLiteRows(t, m.DB, `SELECT name, type FROM pragma_table_info('mailinglist')`) {
		name := c["name"]
		switch {
		case name == "id" || name == "list_id":
			continue
		case strings.EqualFold(c["type"], "BLOB"):
			cols = append(cols, fmt.Sprintf(`hex("%s") AS "%s"`, name, name))
		default:
			cols = append(cols, fmt.Sprintf(`"%s"`, name))
		}
		names = append(names, name)
	}
	out := map[string]string{}
	for _, r := range SQLiteRows(t, m.DB, "SELECT list_id, "+strings.Join(cols, ", ")+" FROM mailinglist") {
		for _, name := range names {
			out[r["list_id"]+"/"+name] = r[name] // "" for NULL
		}
	}
	return out
}

// pendingRows reads what waits for a confirmation or an approval: each pended token's
// type, list and address (kept as JSON strings), and who holds the token.
func (m *Mailman) pendingRows(t testing.TB) map[string]string {
	t.Helper()
	pends := map[string]map[string]string{}
	for _, r := range SQLiteRows(t, m.DB, `SELECT pended_id, "key", value FROM pendedkeyvalue`) {
		if pends[r["pended_id"]] == nil {
			pends[r["pended_id"]] = map[string]string{}
		}
		pends[r["pended_id"]][r["key"]] = strings.Trim(r["value"], `"`)
	}
	out := map[string]string{}
	for _, p := range pends {
		who := p["email"]
		if who == "" {
			who = p["subscriber"] + p["address"]
		}
		out[p["type"]+">"+p["list_id"]+">"+who] = "token_owner=" + p["token_owner"]
	}
	return out
}

// Seed is the state the instance started with (a copy the caller may change).
func (m *Mailman) Seed() MailmanState { return m.seed.Clone() }

// Clone is a deep copy of the state.
func (s MailmanState) Clone() MailmanState {
	c := MailmanState{}
	for k, rows := range s {
		c[k] = maps.Clone(rows)
	}
	return c
}

// Diff says how s differs from want ("" when it does not): each row missing, extra or
// different, by kind and key.
func (s MailmanState) Diff(want MailmanState) string {
	var out []string
	kinds := map[string]bool{}
	for k := range s {
		kinds[k] = true
	}
	for k := range want {
		kinds[k] = true
	}
	for _, kind := range slices.Sorted(maps.Keys(kinds)) {
		got, w := s[kind], want[kind]
		if kind == "list" {
			var whole []string
			whole, got, w = mailmanWholeLists(got, w)
			out = append(out, whole...)
		}
		for _, k := range slices.Sorted(maps.Keys(w)) {
			if _, ok := got[k]; !ok {
				out = append(out, fmt.Sprintf("%s %q is missing", kind, k))
			}
		}
		for _, k := range slices.Sorted(maps.Keys(got)) {
			wv, ok := w[k]
			switch {
			case !ok:
				out = append(out, fmt.Sprintf("an extra %s %q (%s)", kind, k, got[k]))
			case wv != got[k]:
				out = append(out, fmt.Sprintf("%s %q is %q, not %q", kind, k, got[k], wv))
			}
		}
	}
	return strings.Join(out, "; ")
}

// mailmanWholeLists says which lists got has and want lacks altogether, or want has and
// got lacks (one line each rather than one a setting), and returns got and want without
// their rows.
func mailmanWholeLists(got, want map[string]string) ([]string, map[string]string, map[string]string) {
	ids := func(rows map[string]string) map[string]bool {
		out := map[string]bool{}
		for k := range rows {
			id, _, _ := strings.Cut(k, "/")
			out[id] = true
		}
		return out
	}
	inGot, inWant := ids(got), ids(want)
	var out []string
	got, want = maps.Clone(got), maps.Clone(want)
	for _, id := range slices.Sorted(maps.Keys(inGot)) {
		if !inWant[id] {
			out = append(out, strings.TrimSuffix(fmt.Sprintf("an extra list %q (%s)", id, got[id+"/display_name"]), " ()"))
			MailmanDeleteList(MailmanState{"list": got}, id)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(inWant)) {
		if !inGot[id] {
			name := ""
			if n := want[id+"/display_name"]; n != "" {
				name = " (" + n + ")"
			}
			out = append(out, fmt.Sprintf("list %q%s is missing", id, name))
			MailmanDeleteList(MailmanState{"list": want}, id)
		}
	}
	return out, got, want
}

// Differs says how the core's database differs from want ("" when it holds exactly that).
func (m *Mailman) Differs(t testing.TB, want MailmanState) string {
	t.Helper()
	return m.State(t).Diff(want)
}

// Exactly says how the core's database differs from the seed with change made to it (""
// when it holds exactly that): change edits a copy of the seed into what the goal leaves,
// given the state now (to take a row whose value no goal names, a new list's settings).
func (m *Mailman) Exactly(t testing.TB, change func(want, now MailmanState)) string {
	t.Helper()
	now, want := m.State(t), m.Seed()
	change(want, now)
	return now.Diff(want)
}

// MailmanDeleteList takes a list and its memberships, bans and requests out of s, as
// deleting the list does (the addresses stay).
func MailmanDeleteList(s MailmanState, listID string) {
	for _, kind := range []string{"list", "member", "ban", "pending", "request"} {
		for k := range s[kind] {
			if strings.HasPrefix(k, listID+"/") || strings.HasPrefix(k, listID+">") || strings.Contains(k, ">"+listID+">") {
				delete(s[kind], k)
			}
		}
	}
}

// MailmanTake copies into want the rows of kind in now whose key begins with prefix (a new
// list's settings, a new address), whatever their values.
func MailmanTake(want, now MailmanState, kind, prefix string) {
	if want[kind] == nil {
		want[kind] = map[string]string{}
	}
	for k, v := range now[kind] {
		if strings.HasPrefix(k, prefix) {
			want[kind][k] = v
		}
	}
}
