package testenv

import (
	"maps"
	"slices"
	"testing"
)

// ZophState is what an instance's database holds, as the judges compare it: table → a
// row's key → column → value as text. Albums and categories are keyed by name, places by
// title, people by "first last", photos by file name; what links two of them by both
// ("photo > album", "photo > person"), a rating by "photo / user", a user's preferences by
// the user's name, a setting of the configuration by its name. A value left empty and one never set (NULL) read alike, as the edit
// pages show them. What changes by itself is left out: a photo's timestamp, a rating's
// address and time, a user's last login.
type ZophState map[string]map[string]map[string]string

// zophTables are the queries State reads each table with; a row's column k is its key.
var zophTables = map[string]string{
	"albums": `SELECT a.album AS k, IFNULL(p.album, CONCAT('#', a.parent_album_id)) AS parent,
		IFNULL(a.album_description, '') AS description, IFNULL(a.sortname, '') AS sortname,
		IFNULL(a.sortorder, '') AS sortorder FROM zoph_albums a LEFT JOIN zoph_albums p ON p.album_id = a.parent_album_id`,
	"categories": `SELECT c.category AS k, IFNULL(p.category, CONCAT('#', c.parent_category_id)) AS parent,
		IFNULL(c.category_description, '') AS description, IFNULL(c.sortname, '') AS sortname,
		IFNULL(c.sortorder, '') AS sortorder FROM zoph_categories c LEFT JOIN zoph_categories p ON p.category_id = c.parent_category_id`,
	"places": `SELECT l.title AS k, IFNULL(p.title, CONCAT('#', l.parent_place_id)) AS parent,
		IFNULL(l.address, '') AS address, IFNULL(l.address2, '') AS address2, IFNULL(l.city, '') AS city,
		IFNULL(l.state, '') AS state, IFNULL(l.zip, '') AS zip, IFNULL(l.country, '') AS country,
		IFNULL(l.url, '') AS url, IFNULL(l.notes, '') AS notes FROM zoph_places l LEFT JOIN zoph_places p ON p.place_id = l.parent_place_id`,
	"people": `SELECT CONCAT(first_name, ' ', last_name) AS k, first_name, IFNULL(middle_name, '') AS middle_name,
		last_name, IFNULL(called, '') AS called, IFNULL(gender, '') AS gender, IFNULL(email, '') AS email,
		IFNULL(notes, '') AS notes FROM zoph_people`,
	"photos": `SELECT ph.name AS k, IFNULL(ph.title, '') AS title, IFNULL(ph.description, '') AS description,
		IFNULL(l.title, IFNULL(ph.location_id, '')) AS location, IFNULL(ph.photographer_id, '') AS photographer,
		ph.date, ph.time, ph.level, IFNULL(ph.view, '') AS view, ph.width, ph.height
		FROM zoph_photos ph LEFT JOIN zoph_places l ON l.place_id = ph.location_id`,
	"photo_albums": `SELECT CONCAT(IFNULL(ph.name, CONCAT('#', pa.photo_id)), ' > ', IFNULL(a.album, CONCAT('#', pa.album_id))) AS k, 'yes' AS linked
		FROM zoph_photo_albums pa LEFT JOIN zoph_photos ph ON ph.photo_id = pa.photo_id LEFT JOIN zoph_albums a ON a.album_id = pa.album_id`,
	"photo_categories": `SELECT CONCAT(IFNULL(ph.name, CONCAT('#', pc.photo_id)), ' > ', IFNULL(c.category, CONCAT('#', pc.category_id))) AS k, 'yes' AS linked
		FROM zoph_photo_categories pc LEFT JOIN zoph_photos ph ON ph.photo_id = pc.photo_id LEFT JOIN zoph_categories c ON c.category_id = pc.category_id`,
	"photo_people": `SELECT CONCAT(IFNULL(ph.name, CONCAT('#', pp.photo_id)), ' > ', IFNULL(CONCAT(p.first_name, ' ', p.last_name), CONCAT('#', pp.person_id))) AS k,
		IFNULL(pp.position, '') AS position FROM zoph_photo_people pp LEFT JOIN zoph_photos ph ON ph.photo_id = pp.photo_id
		LEFT JOIN zoph_people p ON p.person_id = pp.person_id`,
	"photo_ratings": `SELECT CONCAT(IFNULL(ph.name, CONCAT('#', r.photo_id)), ' / ', IFNULL(u.user_name, CONCAT('#', r.user_id))) AS k, r.rating
		FROM zoph_photo_ratings r LEFT JOIN zoph_photos ph ON ph.photo_id = r.photo_id LEFT JOIN zoph_users u ON u.user_id = r.user_id`,
	"prefs": `SELECT IFNULL(u.user_name, CONCAT('#', p.user_id)) AS k, p.show_breadcrumbs, p.num_breadcrumbs, p.num_rows, p.num_cols,
		p.max_pager_size, p.random_photo_min_rating, p.reports_top_n, p.color_scheme_id, p.slideshow_time, IFNULL(p.language, '') AS language,
		p.recent_photo_days, p.auto_edit, p.camera_info, p.allexif, p.fullsize_new_win, p.view, p.autothumb, p.child_sortorder
		FROM zoph_prefs p LEFT JOIN zoph_users u ON u.user_id = p.user_id`,
	"conf": `SELECT conf_id AS k, IFNULL(value, '') AS value FROM zoph_conf`,
	"users": `SELECT user_name AS k, user_class, IFNULL(person_id, '') AS person_id, view_all_photos, delete_photos, edit_organizers,
		import, allow_rating FROM zoph_users`,
}

// Exec runs statements on Zoph's database, failing the test on an error.
func (z *Zoph) Exec(t testing.TB, stmt string) {
	t.Helper()
	if out, err := z.DB.client("zoph", stmt); err != nil {
		t.Fatalf("mariadb %s: %v\n%s", stmt, err, out)
	}
}

// Query reads Zoph's database with the mariadb CLI: one map per row, column → value as
// text ("NULL" for NULL).
func (z *Zoph) Query(t testing.TB, query string) []map[string]string {
	t.Helper()
	return z.DB.QueryIn(t, "zoph", query)
}

// State reads the tables the judges compare.
func (z *Zoph) State(t testing.TB) ZophState {
	t.Helper()
	return ZophState(keyedTables(zophTables, func(q string) []map[string]string { return z.Query(t, q) }))
}

// Seed is the state of the fresh instance, once seeded (a copy).
func (z *Zoph) Seed() ZophState { return ZophState(cloneRows(z.seed)) }

// Differs says how the database differs from the seed with changes made, "" when it does
// not (rowsDiffer says how changes read).
func (z *Zoph) Differs(t testing.TB, changes ZophState) string {
	t.Helper()
	return rowsDiffer(slices.Sorted(maps.Keys(zophTables)), z.Seed(), z.State(t), changes)
}
