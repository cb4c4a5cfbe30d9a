package testenv

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// tableRows is a database as a judge reads it back: table → a row's key → column → value
// as text (CactiState, PostfixAdminState).
type tableRows = map[string]map[string]map[string]string

// cloneRows is a deep copy of rows.
func cloneRows(rows tableRows) tableRows {
	out := tableRows{}
	for table, rs := range rows {
		out[table] = map[string]map[string]string{}
		for k, row := range rs {
			out[table][k] = maps.Clone(row)
		}
	}
	return out
}

// rowsDiffer says how now differs from seed with changes made, table by table, "" when it
// does not: for each table, a row's key → nil for a row gone; for a row of the seed, the
// columns that changed (the others must be as seeded); for a new row, the columns to check
// (the others are not). A value "*" matches any value. seed is changed.
func rowsDiffer(tables []string, seed, now, changes tableRows) string {
	var diff []string
	for _, table := range tables {
		want := seed[table]
		for key, row := range changes[table] {
			switch {
			case row == nil:
				delete(want, key)
			case want[key] != nil:
				maps.Copy(want[key], row)
			default:
				want[key] = maps.Clone(row)
			}
		}
		for _, key := range slices.Sorted(maps.Keys(merged(keysOf(want), keysOf(now[table])))) {
			got, exp := now[table][key], want[key]
			switch {
			case exp == nil:
				diff = append(diff, fmt.Sprintf("%s %q is there and should not be", table, key))
			case got == nil:
				diff = append(diff, fmt.Sprintf("%s %q is missing", table, key))
			default:
				for _, col := range slices.Sorted(maps.Keys(exp)) {
					if exp[col] != "*" && got[col] != exp[col] {
						diff = append(diff, fmt.Sprintf("%s %q has %s %q, not %q", table, key, col, got[col], exp[col]))
					}
				}
			}
		}
	}
	return strings.Join(diff, "; ")
}

// keyedTables reads each table by its query, whose column k is the row's key, into rows by
// key (a key met twice is kept as "key (again)"): what the judges of a database compare.
func keyedTables(tables map[string]string, query func(string) []map[string]string) tableRows {
	st := tableRows{}
	for table, q := range tables {
		st[table] = map[string]map[string]string{}
		for _, row := range query(q) {
			key := row["k"]
			delete(row, "k")
			if _, twice := st[table][key]; twice {
				key += " (again)"
			}
			st[table][key] = row
		}
	}
	return st
}
