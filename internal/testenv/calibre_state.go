package testenv

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"testing"
)

// CalibreState is what a library's metadata.db holds, as the judges compare it: table →
// a row's key → column → value as text ("" for none). Its one table, book, has a row for
// each book, by its id ("1"…"9" for the seed's, in CalibreSeedBooks' order), with what the
// web interface shows and edits of it: title, authors (in their order, joined by " & "),
// tags (sorted, joined by ", "), series and series_index, publisher, rating (twice the
// stars), languages, identifiers, comments, publication date, date added, ISBN, formats
// and whether it has a cover. What calibre derives by itself is left out: the sort forms
// of the title and authors, the book's folder, its time of change, its uuid.
type CalibreState map[string]map[string]map[string]string

// calibreTables are the queries State reads each table with; a row's column k is its key.
var calibreTables = map[string]string{
	"book": `SELECT b.id AS k, b.title,
		coalesce((SELECT group_concat(name, ' & ') FROM (SELECT a.name FROM books_authors_link l
			JOIN authors a ON a.id = l.author WHERE l.book = b.id ORDER BY l.id)), '') AS authors,
		coalesce((SELECT group_concat(name, ', ') FROM (SELECT t.name FROM books_tags_link l
			JOIN tags t ON t.id = l.tag WHERE l.book = b.id ORDER BY t.name)), '') AS tags,
		coalesce((SELECT s.name FROM books_series_link l JOIN series s ON s.id = l.series WHERE l.book = b.id), '') AS series,
		printf('%g', b.series_index) AS series_index,
		coalesce((SELECT p.name FROM books_publishers_link l JOIN publishers p ON p.id = l.publisher WHERE l.book = b.id), '') AS publisher,
		coalesce((SELECT r.rating FROM books_ratings_link l JOIN ratings r ON r.id = l.rating WHERE l.book = b.id), '') AS rating,
		coalesce((SELECT group_concat(code, ',') FROM (SELECT g.lang_code AS code FROM books_languages_link l
			JOIN languages g ON g.id = l.lang_code WHERE l.book = b.id ORDER BY l.item_order)), '') AS languages,
		coalesce((SELECT group_concat(type || ':' || val, ',') FROM (SELECT type, val FROM identifiers
			WHERE book = b.id ORDER BY type)), '') AS identifiers,
		coalesce((SELECT text FROM comments WHERE book = b.id), '') AS comments,
		coalesce(b.pubdate, '') AS pubdate, coalesce(b.timestamp, '') AS added, coalesce(b.isbn, '') AS isbn,
		coalesce((SELECT group_concat(format, ',') FROM (SELECT format FROM data WHERE book = b.id ORDER BY format)), '') AS formats,
		b.has_cover
		FROM books b`,
}

// Query reads the library's metadata.db with the sqlite3 CLI, read-only: one map per row,
// column → value as text.
func (c *Calibre) Query(t testing.TB, query string) []map[string]string {
	t.Helper()
	return SQLiteRows(t, filepath.Join(c.Library, "metadata.db"), query)
}

// State reads the tables the judges compare.
func (c *Calibre) State(t testing.TB) CalibreState {
	t.Helper()
	return CalibreState(keyedTables(calibreTables, func(q string) []map[string]string { return c.Query(t, q) }))
}

// Seed is the state of the fresh instance, once seeded (a copy).
func (c *Calibre) Seed() CalibreState { return CalibreState(cloneRows(c.seed)) }

// Differs says how the library differs from the seed with changes made, "" when it does
// not (rowsDiffer says how changes read: a book's key → nil for a book gone, or the
// columns that changed).
func (c *Calibre) Differs(t testing.TB, changes CalibreState) string {
	t.Helper()
	return rowsDiffer(slices.Sorted(maps.Keys(calibreTables)), c.Seed(), c.State(t), changes)
}

// CalibreBookChange is changes to one book of the seed: its columns (as CalibreState
// names them) with their new values, or, with no columns, the book gone.
func CalibreBookChange(title string, cols map[string]string) CalibreState {
	id := CalibreSeedID(title)
	if len(cols) == 0 {
		return CalibreState{"book": {id: nil}}
	}
	return CalibreState{"book": {id: maps.Clone(cols)}}
}

// CalibreSeedID is the id of the seed's book titled title, as text ("" when the seed has
// none).
func CalibreSeedID(title string) string {
	for i, b := range CalibreSeedBooks {
		if b.Title == title {
			return fmt.Sprint(i + 1)
		}
	}
	return ""
}
