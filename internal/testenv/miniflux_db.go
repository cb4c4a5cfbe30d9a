package testenv

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// MinifluxState is what the judges compare of Miniflux's database: for each kind of thing
// its pages change, its rows by key, each row's value its settings as one line.
//
//	user      username → every setting of the user (JSON: theme, entries_per_page, is_admin…)
//	category  username>title → hide_globally
//	feed      username>feed URL → category, title and every other setting (JSON)
//	entry     username>entry URL → feed URL, starred, shared, title
//	apikey    username>description → ""
//
// Left out is what changes by itself or by merely looking: passwords (PasswordIs checks
// one), the time of the last sign-in, sessions, when a feed was last checked and its HTTP
// cache headers and errors, and whether an entry was read (opening an entry marks it read).
type MinifluxState map[string]map[string]string

// minifluxQueries are the queries MinifluxState is read with: each row a key and a value.
var minifluxQueries = map[string]string{
	"user": `SELECT username, (to_jsonb(u) - 'id' - 'username' - 'password' - 'last_login_at')::text FROM users u`,
	"category": `SELECT u.username || '>' || c.title, 'hide_globally=' || c.hide_globally
		FROM categories c JOIN users u ON u.id = c.user_id`,
	"feed": `SELECT u.username || '>' || f.feed_url, format('category=%s title=%s %s', c.title, f.title,
		(to_jsonb(f) - 'id' - 'user_id' - 'category_id' - 'title' - 'feed_url' - 'checked_at' - 'next_check_at'
		- 'etag_header' - 'last_modified_header' - 'parsing_error_msg' - 'parsing_error_count')::text)
		FROM feeds f JOIN users u ON u.id = f.user_id JOIN categories c ON c.id = f.category_id`,
	"entry": `SELECT u.username || '>' || e.url, format('feed=%s starred=%s shared=%s title=%s',
		f.feed_url, e.starred, coalesce(e.share_code, '') <> '', e.title)
		FROM entries e JOIN users u ON u.id = e.user_id JOIN feeds f ON f.id = e.feed_id`,
	"apikey": `SELECT u.username || '>' || k.description, '' FROM api_keys k JOIN users u ON u.id = k.user_id`,
}

// psql runs one query in the database db as the cluster's superuser and returns its rows,
// each a line of tab-separated fields.
func (m *Miniflux) psql(db, query string) ([]string, error) {
	return psqlRows(m.Socket, m.Port, db, query)
}

// Query runs a query in Miniflux's database and returns its rows (tab-separated fields),
// failing the test when psql does.
func (m *Miniflux) Query(t testing.TB, query string) []string {
	t.Helper()
	rows, err := m.psql("miniflux", query)
	if err != nil {
		t.Fatalf("miniflux: %s: %v", query, err)
	}
	return rows
}

// State reads the database's state now.
func (m *Miniflux) State(t testing.TB) MinifluxState {
	t.Helper()
	s := MinifluxState{}
	for kind, q := range minifluxQueries {
		s[kind] = map[string]string{}
		for _, row := range m.Query(t, q) {
			k, v, _ := strings.Cut(row, "\t")
			s[kind][k] = v
		}
	}
	return s
}

// Seed is the state the instance started with (a copy the caller may change).
func (m *Miniflux) Seed() MinifluxState { return m.seed.Clone() }

// Clone is a deep copy of the state.
func (s MinifluxState) Clone() MinifluxState {
	c := MinifluxState{}
	for k, rows := range s {
		c[k] = maps.Clone(rows)
	}
	return c
}

// Diff says how s differs from want ("" when it does not): each row missing, extra or
// different, by kind and key.
func (s MinifluxState) Diff(want MinifluxState) string {
	var out []string
	for _, kind := range slices.Sorted(maps.Keys(minifluxQueries)) {
		got, w := s[kind], want[kind]
		for _, k := range slices.Sorted(maps.Keys(w)) {
			if _, ok := got[k]; !ok {
				out = append(out, fmt.Sprintf("%s %s is missing", kind, k))
			}
		}
		for _, k := range slices.Sorted(maps.Keys(got)) {
			wv, ok := w[k]
			switch {
			case !ok:
				out = append(out, fmt.Sprintf("an extra %s %s (%s)", kind, k, got[k]))
			case wv != got[k]:
				out = append(out, fmt.Sprintf("%s %s has %s", kind, k, minifluxChanged(got[k], wv)))
			}
		}
	}
	return strings.Join(out, "; ")
}

// minifluxChanged says how a row's value differs from want's, by the parts that differ (a
// setting's JSON split at its commas), as "a, b where it should have c, d".
func minifluxChanged(got, want string) string {
	g, w := strings.Split(got, `, "`), strings.Split(want, `, "`)
	var extra, lacks []string
	for _, p := range g {
		if !slices.Contains(w, p) {
			extra = append(extra, p)
		}
	}
	for _, p := range w {
		if !slices.Contains(g, p) {
			lacks = append(lacks, p)
		}
	}
	return fmt.Sprintf("%q where it should have %q", strings.Join(extra, `, "`), strings.Join(lacks, `, "`))
}

// Differs says how the database differs from want ("" when it holds exactly that).
func (m *Miniflux) Differs(t testing.TB, want MinifluxState) string {
	t.Helper()
	return m.State(t).Diff(want)
}

// FeedURL is the address of the feed server's document at path, as Miniflux's Feed URL
// field shows it.
func (m *Miniflux) FeedURL(path string) string { return m.Feeds + path }

// FeedID is the id of admin's feed whose title is title ("" when there is none).
func (m *Miniflux) FeedID(t testing.TB, title string) string {
	t.Helper()
	return m.first(t, "SELECT f.id FROM feeds f JOIN users u ON u.id = f.user_id WHERE u.username = 'admin' AND f.title = "+sqlQuote(title))
}

// CategoryID is the id of admin's category whose title is title ("" when there is none).
func (m *Miniflux) CategoryID(t testing.TB, title string) string {
	t.Helper()
	return m.first(t, "SELECT c.id FROM categories c JOIN users u ON u.id = c.user_id WHERE u.username = 'admin' AND c.title = "+sqlQuote(title))
}

// EntryID is the id of admin's entry whose title is title ("" when there is none).
func (m *Miniflux) EntryID(t testing.TB, title string) string {
	t.Helper()
	return m.first(t, "SELECT e.id FROM entries e JOIN users u ON u.id = e.user_id WHERE u.username = 'admin' AND e.title = "+sqlQuote(title))
}

func (m *Miniflux) first(t testing.TB, query string) string {
	t.Helper()
	rows := m.Query(t, query)
	if len(rows) == 0 {
		return ""
	}
	return rows[0]
}

// PasswordIs says whether username signs in to Miniflux's API with password (Miniflux
// keeps only a bcrypt hash): /v1/me answers 200 to the right pair and 401 to any other.
func (m *Miniflux) PasswordIs(t testing.TB, username, password string) bool {
	t.Helper()
	status, _ := m.api(t, http.MethodGet, "v1/me", nil, username, password)
	return status == http.StatusOK
}

// api calls Miniflux's REST API as username with password (Basic authentication) and
// returns the status and the answer's body.
func (m *Miniflux) api(t testing.TB, method, path string, body any, username, password string) (int, []byte) {
	t.Helper()
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte(username+":"+password))
	return callJSON(t, method, m.URL+path, body, map[string]string{"Authorization": auth})
}

// adminAPI calls the API as admin, fails the test on an answer of 300 or more, and reads
// the answer into out (nil to drop it).
func (m *Miniflux) adminAPI(t testing.TB, method, path string, body, out any) {
	t.Helper()
	status, b := m.api(t, method, path, body, m.User, m.Password)
	if status >= 300 {
		t.Fatalf("miniflux: %s /%s answered %d: %s", method, path, status, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("miniflux: %s /%s: %v: %s", method, path, err, b)
		}
	}
}

// seedAPI writes the seed through Miniflux's API as admin: the categories, the
// subscriptions (each fetched from the feed server as Miniflux subscribes), the entries
// starred and read, and the other users; then keeps what the database holds as the fresh
// state.
func (m *Miniflux) seedAPI(t testing.TB) {
	t.Helper()
	var cats []struct {
		ID    int64  `json:"id"`
		Title string `json:"title"`
	}
	for _, c := range MinifluxCategories {
		m.adminAPI(t, http.MethodPost, "v1/categories", map[string]string{"title": c}, nil)
	}
	m.adminAPI(t, http.MethodGet, "v1/categories", nil, &cats)
	ids := map[string]int64{}
	for _, c := range cats {
		ids[c.Title] = c.ID
	}
	for _, f := range MinifluxFeeds {
		m.adminAPI(t, http.MethodPost, "v1/feeds", map[string]any{"feed_url": m.FeedURL(f.Path), "category_id": ids[f.Category]}, nil)
	}
	var read []int64
	for _, title := range MinifluxRead {
		read = append(read, m.entryID(t, title))
	}
	m.adminAPI(t, http.MethodPut, "v1/entries", map[string]any{"entry_ids": read, "status": "read"}, nil)
	for _, title := range MinifluxStarred {
		m.adminAPI(t, http.MethodPut, fmt.Sprintf("v1/entries/%d/bookmark", m.entryID(t, title)), nil, nil)
	}
	for _, u := range MinifluxUsers {
		m.adminAPI(t, http.MethodPost, "v1/users", map[string]any{"username": u, "password": MinifluxSeedPassword}, nil)
	}
	m.seed = m.State(t)
	entries := 0
	for _, f := range MinifluxFeeds {
		entries += len(f.Entries)
	}
	if n, f, e := len(m.seed["user"]), len(m.seed["feed"]), len(m.seed["entry"]); n != len(MinifluxUsers)+1 || f != len(MinifluxFeeds) || e != entries {
		t.Fatalf("miniflux: the seed stored %d users, %d feeds and %d entries, not %d, %d and %d: %v",
			n, f, e, len(MinifluxUsers)+1, len(MinifluxFeeds), entries, m.seed)
	}
}

// entryID is EntryID as a number, failing the test when there is no such entry.
func (m *Miniflux) entryID(t testing.TB, title string) int64 {
	t.Helper()
	var id int64
	if _, err := fmt.Sscan(m.EntryID(t, title), &id); err != nil {
		t.Fatalf("miniflux: no entry %q", title)
	}
	return id
}
