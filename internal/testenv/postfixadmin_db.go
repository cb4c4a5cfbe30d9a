package testenv

import (
	"fmt"
	"maps"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// PostfixAdminState is what an instance's database holds, as the judges compare it: table →
// a row's key (a domain's name, a mailbox's or admin's address, an alias's address, "admin
// domain" for a domain admin's grant) → column → value as text. The time stamps a save
// writes (created, modified, a password's expiry, a token's validity) are left out.
type PostfixAdminState map[string]map[string]map[string]string

// pfaTables are the tables the judges read, each with the column (or columns, joined by a
// space) that keys its rows.
var pfaTables = map[string][]string{
	"domain":        {"domain"},
	"mailbox":       {"username"},
	"alias":         {"address"},
	"alias_domain":  {"alias_domain"},
	"admin":         {"username"},
	"domain_admins": {"username", "domain"},
}

var pfaStamps = []string{"created", "modified", "password_expiry", "token_validity"}

// pfaExponent is a large whole number as SQLiteRows writes it (a quota in bytes:
// 5.12e+08), which State writes out in full (512000000).
var pfaExponent = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?e\+[0-9]+$`)

// State reads the instance's tables (domain, mailbox, alias, alias_domain, admin,
// domain_admins) from its SQLite database, numbers written out in full.
func (w *PostfixAdmin) State(t testing.TB) PostfixAdminState {
	t.Helper()
	st := PostfixAdminState{}
	for table, keys := range pfaTables {
		st[table] = map[string]map[string]string{}
		for _, row := range SQLiteRows(t, w.DB, "SELECT * FROM "+table) {
			var key []string
			for _, k := range keys {
				key = append(key, row[k])
			}
			for _, c := range pfaStamps {
				delete(row, c)
			}
			for c, v := range row {
				if pfaExponent.MatchString(v) {
					f, _ := strconv.ParseFloat(v, 64)
					row[c] = strconv.FormatFloat(f, 'f', -1, 64)
				}
			}
			st[table][strings.Join(key, " ")] = row
		}
	}
	return st
}

// Seed is the state of the fresh instance, once seeded (a copy).
func (w *PostfixAdmin) Seed() PostfixAdminState { return PostfixAdminState(cloneRows(w.seed)) }

// Differs says how the database differs from the seed with changes made, "" when it does
// not (rowsDiffer says how changes read).
func (w *PostfixAdmin) Differs(t testing.TB, changes PostfixAdminState) string {
	t.Helper()
	return rowsDiffer(slices.Sorted(maps.Keys(pfaTables)), w.Seed(), w.State(t), changes)
}

func keysOf(rows map[string]map[string]string) map[string]string {
	out := map[string]string{}
	for k := range rows {
		out[k] = ""
	}
	return out
}

// PostfixAdminPasswordIs says whether hash (a password column as the app stores it, e.g.
// md5crypt's $1$salt$...) is the hash of password, checked with PHP's crypt().
func PostfixAdminPasswordIs(hash, password string) bool {
	if hash == "" {
		return false
	}
	return exec.Command("php", "-r", `exit(hash_equals($argv[2], crypt($argv[1], $argv[2])) ? 0 : 1);`, password, hash).Run() == nil
}

// PostfixAdminQuota is a quota of mb MB as the mailbox table stores it, in bytes.
func PostfixAdminQuota(mb int) string { return fmt.Sprint(mb * PostfixAdminQuotaUnit) }
