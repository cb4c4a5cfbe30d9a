package testenv

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// NocoDBState is what an instance's SQLite file holds, as the judges compare it: kind →
// a thing's key → its settings as one line. A thing of the seed is keyed by its name in
// the seed whatever it is called now (a renamed table is still "Orders", its title in
// the value); a new one by its name now.
//
//	base    base title → title=…                     (deleted bases left out)
//	table   table title → title=…
//	field   table.field → title=…; type=…; options=… (NocoDB's own system fields left out)
//	view    table/view → title=…; type=…; filters=…; sorts=…
//	record  table/display value → each field that is not empty, "Field=value; …"
//
// What changes by itself is left out: timestamps, orders, widths, who changed a record.
type NocoDBState map[string]map[string]string

// nocodbThing is one thing of the storage: its kind, its id, its name now and its value.
type nocodbThing struct{ kind, id, name, value string }

// nocodbSystem are the types of the fields NocoDB adds to every table itself.
const nocodbSystem = `'ID','CreatedTime','LastModifiedTime','CreatedBy','LastModifiedBy','Order','ForeignKey'`

// Query reads the instance's database with the sqlite3 CLI: one map per row.
func (n *NocoDB) Query(t testing.TB, query string) []map[string]string {
	t.Helper()
	return SQLiteRows(t, n.DB, query)
}

// things reads every base, table, field, view and record of the storage.
func (n *NocoDB) things(t testing.TB) []nocodbThing {
	t.Helper()
	var out []nocodbThing
	for _, r := range n.Query(t, `SELECT id, title FROM nc_bases_v2 WHERE IFNULL(deleted, 0) = 0`) {
		out = append(out, nocodbThing{"base", r["id"], r["title"], "title=" + r["title"]})
	}
	tables := map[string]string{} // id → its key (its name in the seed, or its title)
	names := map[string]string{}  // id → physical table name
	for _, r := range n.Query(t, `SELECT m.id, m.title, m.table_name FROM nc_models_v2 m JOIN nc_bases_v2 b ON b.id = m.base_id
		WHERE IFNULL(b.deleted, 0) = 0 AND IFNULL(m.deleted, 0) = 0 AND IFNULL(m.mm, 0) = 0 ORDER BY m.id`) {
		tables[r["id"]], names[r["id"]] = n.key(r["id"], r["title"]), r["table_name"]
		out = append(out, nocodbThing{"table", r["id"], r["title"], "title=" + r["title"]})
	}
	fields := map[string][][2]string{} // table id → its fields' column names and titles
	pv := map[string]string{}          // table id → its display field's column name
	for _, r := range n.Query(t, `SELECT c.id, c.fk_model_id AS model, c.title, c.column_name, c.uidt, IFNULL(c.pv, 0) AS pv,
		(SELECT IFNULL(group_concat(title, ','), '') FROM (SELECT title FROM nc_col_select_options_v2 o
			WHERE o.fk_column_id = c.id ORDER BY o."order")) AS options
		FROM nc_columns_v2 c WHERE IFNULL(c.system, 0) = 0 AND c.uidt NOT IN (`+nocodbSystem+`) ORDER BY c.id`) {
		tk, ok := tables[r["model"]]
		if !ok {
			continue
		}
		fields[r["model"]] = append(fields[r["model"]], [2]string{r["column_name"], r["title"]})
		if r["pv"] == "1" {
			pv[r["model"]] = r["column_name"]
		}
		out = append(out, nocodbThing{"field", r["id"], tk + "." + r["title"],
			fmt.Sprintf("title=%s; type=%s; options=%s", r["title"], r["uidt"], r["options"])})
	}
	out = append(out, n.views(t, tables)...)
	for id, tk := range tables {
		out = append(out, n.records(t, id, tk, names[id], pv[id], fields[id])...)
	}
	return out
}

// views reads the views of the tables (id → key), each with its filters and sorts.
func (n *NocoDB) views(t testing.TB, tables map[string]string) []nocodbThing {
	t.Helper()
	filters, sorts := map[string][]string{}, map[string][]string{}
	for _, r := range n.Query(t, `SELECT f.fk_view_id AS v, IFNULL(c.title, '') AS field, IFNULL(f.comparison_op, '') AS op,
		IFNULL(f.value, '') AS value, IFNULL(f.logical_op, '') AS logic FROM nc_filter_exp_v2 f
		LEFT JOIN nc_columns_v2 c ON c.id = f.fk_column_id WHERE f.fk_view_id IS NOT NULL`) {
		filters[r["v"]] = append(filters[r["v"]], strings.TrimSpace(r["field"]+" "+r["op"]+" "+r["value"]))
	}
	for _, r := range n.Query(t, `SELECT s.fk_view_id AS v, IFNULL(c.title, '') AS field, IFNULL(s.direction, '') AS dir
		FROM nc_sort_v2 s LEFT JOIN nc_columns_v2 c ON c.id = s.fk_column_id`) {
		sorts[r["v"]] = append(sorts[r["v"]], r["field"]+" "+r["dir"])
	}
	var out []nocodbThing
	for _, r := range n.Query(t, `SELECT id, fk_model_id AS model, title, type FROM nc_views_v2 ORDER BY id`) {
		tk, ok := tables[r["model"]]
		if !ok {
			continue
		}
		slices.Sort(filters[r["id"]])
		slices.Sort(sorts[r["id"]])
		out = append(out, nocodbThing{"view", r["id"], tk + "/" + r["title"], fmt.Sprintf("title=%s; type=%s; filters=%s; sorts=%s",
			r["title"], NocoDBViewType(r["type"]), strings.Join(filters[r["id"]], ", "), strings.Join(sorts[r["id"]], ", "))})
	}
	return out
}

// NocoDBViewType is a view's type by NocoDB's number for it (3 is a grid).
func NocoDBViewType(n string) string {
	if name, ok := map[string]string{"1": "form", "2": "gallery", "3": "grid", "4": "kanban", "6": "calendar"}[n]; ok {
		return name
	}
	return n
}

// records reads the records of the table id (its key tk, physical name name, display
// field's column pv, fields by column name and title).
func (n *NocoDB) records(t testing.TB, id, tk, name, pv string, fields [][2]string) []nocodbThing {
	t.Helper()
	var out []nocodbThing
	for _, r := range n.Query(t, `SELECT * FROM "`+strings.ReplaceAll(name, `"`, `""`)+`"`) {
		var parts []string
		for _, f := range fields {
			if v := r[f[0]]; v != "" {
				parts = append(parts, f[1]+"="+v)
			}
		}
		slices.Sort(parts)
		out = append(out, nocodbThing{"record", "record:" + id + ":" + r["id"], tk + "/" + r[pv], strings.Join(parts, "; ")})
	}
	return out
}

// key is the key of the thing id: its name in the seed, or name when it is new.
func (n *NocoDB) key(id, name string) string {
	if k, ok := n.alias[id]; ok {
		return k
	}
	return name
}

// State reads the storage now.
func (n *NocoDB) State(t testing.TB) NocoDBState {
	t.Helper()
	s := NocoDBState{"base": {}, "table": {}, "field": {}, "view": {}, "record": {}}
	for _, th := range n.things(t) {
		k := n.key(th.id, th.name)
		for _, twice := s[th.kind][k]; twice; _, twice = s[th.kind][k] {
			k += " (again)"
		}
		s[th.kind][k] = th.value
	}
	return s
}

// Seed is the state of the fresh instance, once seeded (a copy the caller may change).
func (n *NocoDB) Seed() NocoDBState {
	c := NocoDBState{}
	for k, rows := range n.seed {
		c[k] = maps.Clone(rows)
	}
	return c
}

// Diff says how s differs from want ("" when it does not): each thing missing, extra or
// different, by kind and key.
func (s NocoDBState) Diff(want NocoDBState) string {
	var out []string
	for _, kind := range []string{"base", "table", "field", "view", "record"} {
		got, w := s[kind], want[kind]
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

// Differs says how the storage differs from want ("" when it holds exactly that).
func (n *NocoDB) Differs(t testing.TB, want NocoDBState) string {
	t.Helper()
	return n.State(t).Diff(want)
}
