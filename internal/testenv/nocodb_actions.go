package testenv

import (
	"fmt"
	"net/http"
	"testing"
)

// The requests the web UI's pages send for what the goals do, each as the page sends it
// once its form is filled in and its button pressed (the seed writes through the same).

// AddRecord adds a record with fields (by their titles) to the table titled table, as the
// expanded form of "New record - Form" does when Save record is pressed.
func (b *NocoDBBrowser) AddRecord(t testing.TB, table string, fields map[string]any) {
	t.Helper()
	tb := b.Table(t, table)
	b.Do(t, http.MethodPost, "/api/v1/db/data/noco/"+b.n.BaseID+"/"+tb.ID, fields, nil)
}

// EditRecord changes fields (by their titles) of the record of the table titled table
// whose display field is key, as the grid does when a cell is edited (or the expanded
// record saved).
func (b *NocoDBBrowser) EditRecord(t testing.TB, table, key string, fields map[string]any) {
	t.Helper()
	tb := b.Table(t, table)
	id := b.RecordID(t, tb, key)
	b.Do(t, http.MethodPatch, fmt.Sprintf("/api/v1/db/data/noco/%s/%s/%d", b.n.BaseID, tb.ID, id), fields, nil)
}

// DeleteRecord deletes the record of the table titled table whose display field is key,
// as the grid's right-click menu does when Delete record is picked.
func (b *NocoDBBrowser) DeleteRecord(t testing.TB, table, key string) {
	t.Helper()
	tb := b.Table(t, table)
	id := b.RecordID(t, tb, key)
	b.Do(t, http.MethodDelete, fmt.Sprintf("/api/v1/db/data/noco/%s/%s/%d", b.n.BaseID, tb.ID, id), nil, nil)
}

// AddField adds a field titled title of the type uidt (NocoDB's name: SingleLineText,
// Number…) to the table titled table, as the New Field dialog (the "+" at the end of the
// grid's header) does when the name is typed, the type picked and Save Field pressed.
func (b *NocoDBBrowser) AddField(t testing.TB, table, title, uidt string) {
	t.Helper()
	tb := b.Table(t, table)
	b.Do(t, http.MethodPost, "/api/v2/meta/tables/"+tb.ID+"/columns",
		map[string]any{"title": title, "column_name": title, "uidt": uidt}, nil)
}

// RenameTable renames the table titled from to to, as the table's menu in the menu on the
// left does when Rename table is picked, the new name typed and Enter pressed (it renames
// the table in the database too).
func (b *NocoDBBrowser) RenameTable(t testing.TB, from, to string) {
	t.Helper()
	tb := b.Table(t, from)
	b.Do(t, http.MethodPatch, "/api/v2/meta/tables/"+tb.ID, map[string]any{"base_id": b.n.BaseID, "table_name": to, "title": to}, nil)
}

// CreateGridView makes a grid view titled title of the table titled table, as Create View
// > Grid does when the name is typed and Create view pressed, and returns its id.
func (b *NocoDBBrowser) CreateGridView(t testing.TB, table, title string) string {
	t.Helper()
	tb := b.Table(t, table)
	var v struct {
		ID string `json:"id"`
	}
	b.Do(t, http.MethodPost, "/api/v2/meta/tables/"+tb.ID+"/grids", map[string]any{"title": title}, &v)
	if v.ID == "" {
		t.Fatalf("nocodb: the view %q of %s was not made", title, table)
	}
	return v.ID
}

// AddFilter adds a filter to the view titled view of the table titled table: the field
// titled field, compared by op (NocoDB's name: eq for "is equal", like for "is like"…)
// with value, as the toolbar's Filter > Add filter does once the field, the comparison and
// the value are picked.
func (b *NocoDBBrowser) AddFilter(t testing.TB, table, view, field, op, value string) {
	t.Helper()
	tb := b.Table(t, table)
	for _, v := range tb.Views {
		if v.Title == view {
			b.Do(t, http.MethodPost, "/api/v2/meta/views/"+v.ID+"/filters", map[string]any{
				"fk_column_id": tb.ColumnID(t, field), "comparison_op": op, "value": value, "logical_op": "and",
			}, nil)
			return
		}
	}
	t.Fatalf("nocodb: the table %s has no view %q", table, view)
}

// RenameBase renames the base, as the base's menu (its name at the top of the menu on the
// left) does when Rename is picked, the new name typed and Enter pressed.
func (b *NocoDBBrowser) RenameBase(t testing.TB, to string) {
	t.Helper()
	b.Do(t, http.MethodPatch, "/api/v2/meta/bases/"+b.n.BaseID, map[string]any{"title": to}, nil)
}
