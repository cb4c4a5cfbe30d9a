package testenv

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// SQLiteRows reads an app's SQLite database with the sqlite3 CLI, read-only, waiting up to
// 5 s for a writer's lock: one map per row, each value as text ("" for NULL). It is how the
// held-out apps' judges read their storage.
func SQLiteRows(t testing.TB, db, query string) []map[string]string {
	t.Helper()
	out, err := exec.Command("sqlite3", "-readonly", "-json", "-cmd", ".timeout 5000", db, query).Output()
	if err != nil {
		t.Fatalf("sqlite3 %s: %v", query, err)
	}
	var rows []map[string]any
	if s := strings.TrimSpace(string(out)); s != "" {
		if err := json.Unmarshal([]byte(s), &rows); err != nil {
			t.Fatalf("sqlite3 %s: %v\n%s", query, err, out)
		}
	}
	res := make([]map[string]string, len(rows))
	for i, r := range rows {
		res[i] = map[string]string{}
		for k, v := range r {
			if v != nil {
				res[i][k] = fmt.Sprint(v)
			}
		}
	}
	return res
}
