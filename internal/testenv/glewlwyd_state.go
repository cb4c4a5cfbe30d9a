package testenv

import (
	"crypto/pbkdf2"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// GlewlwydState is what the judges compare of a Glewlwyd: for each kind of thing its
// admin app changes, its rows by key, each row's value its settings as one line
// ("key=value; key=value", sorted by key; a list's values sorted and joined by ","; a
// property with an empty value left out, as the app stores one for each field left empty).
//
//	user     username → name, email, enabled, scope, password (a digest of its hashes,
//	         so that a changed password shows) and its other properties
//	client   client_id → name, description, confidential, enabled, password, scope and
//	         its properties (redirect_uri, authorization_type…)
//	scope    name → display_name, description, password_required, password_max_age,
//	         enabled and its groups of additional schemes
//	module   kind/name → the module instance's settings (users', clients', schemes',
//	         plugins' and middleware data sources)
//	misc     type/name → a digest of the value (the Misc configurations)
//	apikey   a digest of the key → enabled, issued by
//
// Sessions and tokens are left out: signing in makes them.
type GlewlwydState map[string]map[string]string

// glewlwydQueries are the queries each kind is read with: each row's "k" its key, "f" a
// field's name and "v" its value (a row for each field, a list's field on several rows).
var glewlwydQueries = map[string]string{
	"user": `SELECT gu_username k, 'name' f, gu_name v FROM g_user
		UNION ALL SELECT gu_username, 'email', gu_email FROM g_user
		UNION ALL SELECT gu_username, 'enabled', gu_enabled FROM g_user
		UNION ALL SELECT u.gu_username, 'scope', s.gus_name FROM g_user_scope_user x JOIN g_user u ON u.gu_id = x.gu_id JOIN g_user_scope s ON s.gus_id = x.gus_id
		UNION ALL SELECT u.gu_username, 'password', p.guw_password FROM g_user_password p JOIN g_user u ON u.gu_id = p.gu_id
		UNION ALL SELECT u.gu_username, p.gup_name, p.gup_value FROM g_user_property p JOIN g_user u ON u.gu_id = p.gu_id`,
	"client": `SELECT gc_client_id k, 'name' f, gc_name v FROM g_client
		UNION ALL SELECT gc_client_id, 'description', gc_description FROM g_client
		UNION ALL SELECT gc_client_id, 'confidential', gc_confidential FROM g_client
		UNION ALL SELECT gc_client_id, 'enabled', gc_enabled FROM g_client
		UNION ALL SELECT gc_client_id, 'password', gc_password FROM g_client
		UNION ALL SELECT c.gc_client_id, 'scope', s.gcs_name FROM g_client_scope_client x JOIN g_client c ON c.gc_id = x.gc_id JOIN g_client_scope s ON s.gcs_id = x.gcs_id
		UNION ALL SELECT c.gc_client_id, p.gcp_name, p.gcp_value FROM g_client_property p JOIN g_client c ON c.gc_id = p.gc_id`,
	"scope": `SELECT gs_name k, 'display_name' f, gs_display_name v FROM g_scope
		UNION ALL SELECT gs_name, 'description', gs_description FROM g_scope
		UNION ALL SELECT gs_name, 'password_required', gs_password_required FROM g_scope
		UNION ALL SELECT gs_name, 'password_max_age', gs_password_max_age FROM g_scope
		UNION ALL SELECT gs_name, 'enabled', gs_enabled FROM g_scope
		UNION ALL SELECT s.gs_name, 'scheme', g.gsg_name || ':' || coalesce(m.guasmi_name, '') FROM g_scope_group g JOIN g_scope s ON s.gs_id = g.gs_id
			LEFT JOIN g_scope_group_auth_scheme_module_instance x ON x.gsg_id = g.gsg_id LEFT JOIN g_user_auth_scheme_module_instance m ON m.guasmi_id = x.guasmi_id`,
	"module": `SELECT 'user/' || gumi_name k, 'settings' f, json_array(gumi_module, gumi_order, gumi_display_name, gumi_parameters, gumi_readonly, gumi_multiple_passwords, gumi_enabled) v FROM g_user_module_instance
		UNION ALL SELECT 'client/' || gcmi_name, 'settings', json_array(gcmi_module, gcmi_order, gcmi_display_name, gcmi_parameters, gcmi_readonly, gcmi_enabled) FROM g_client_module_instance
		UNION ALL SELECT 'scheme/' || guasmi_name, 'settings', json_array(guasmi_module, guasmi_expiration, guasmi_max_use, guasmi_allow_user_register,
			guasmi_forbid_user_profile, guasmi_forbid_user_reset_credential, guasmi_display_name, guasmi_parameters, guasmi_enabled) FROM g_user_auth_scheme_module_instance
		UNION ALL SELECT 'plugin/' || gpmi_name, 'settings', json_array(gpmi_module, gpmi_display_name, gpmi_parameters, gpmi_enabled) FROM g_plugin_module_instance
		UNION ALL SELECT 'middleware/' || gummi_name, 'settings', json_array(gummi_module, gummi_order, gummi_display_name, gummi_parameters, gummi_enabled) FROM g_user_middleware_module_instance`,
	"misc":   `SELECT gmc_type || '/' || coalesce(gmc_name, '') k, 'value' f, gmc_value v FROM g_misc_config`,
	"apikey": `SELECT gak_token_hash k, 'enabled' f, gak_enabled v FROM g_api_key UNION ALL SELECT gak_token_hash, 'username', gak_username FROM g_api_key`,
}

// glewlwydDigested are the fields kept as a digest: hashes and long settings.
var glewlwydDigested = map[string]bool{"password": true, "settings": true, "value": true}

// State reads the database now.
func (g *Glewlwyd) State(t testing.TB) GlewlwydState {
	t.Helper()
	s := GlewlwydState{}
	for kind, q := range glewlwydQueries {
		fields := map[string]map[string][]string{}
		for _, row := range SQLiteRows(t, g.DB, q) {
			k, f, v := row["k"], row["f"], row["v"]
			if glewlwydDigested[f] && v != "" {
				v = md5Hex(v)[:12]
			}
			if fields[k] == nil {
				fields[k] = map[string][]string{}
			}
			if v != "" || f == "name" || f == "email" || f == "description" || f == "display_name" {
				fields[k][f] = append(fields[k][f], v)
			}
		}
		if kind == "apikey" {
			fields = glewlwydShortKeys(fields)
		}
		s[kind] = map[string]string{}
		for k, fs := range fields {
			var parts []string
			for _, f := range slices.Sorted(maps.Keys(fs)) {
				parts = append(parts, f+"="+strings.Join(slices.Sorted(slices.Values(fs[f])), ","))
			}
			s[kind][k] = strings.Join(parts, "; ")
		}
	}
	return s
}

// glewlwydShortKeys keys the API keys by a digest of their hash.
func glewlwydShortKeys(fields map[string]map[string][]string) map[string]map[string][]string {
	out := map[string]map[string][]string{}
	for k, v := range fields {
		out[md5Hex(k)[:12]] = v
	}
	return out
}

// Seed is the state the instance started with (a copy the caller may change).
func (g *Glewlwyd) Seed() GlewlwydState { return g.seed.Clone() }

// Clone is a deep copy of the state.
func (s GlewlwydState) Clone() GlewlwydState {
	c := GlewlwydState{}
	for k, rows := range s {
		c[k] = maps.Clone(rows)
	}
	return c
}

// Diff says how s differs from want ("" when it does not): each row missing, extra or
// different, by kind and key.
func (s GlewlwydState) Diff(want GlewlwydState) string {
	return IcingaWebState(s).Diff(IcingaWebState(want))
}

// Differs says how the instance's database differs from want ("" when it holds exactly
// that).
func (g *Glewlwyd) Differs(t testing.TB, want GlewlwydState) string {
	t.Helper()
	return g.State(t).Diff(want)
}

// Fields is a row of the state as its fields: "name=Dave Brown; scope=g_profile,mail" →
// name → "Dave Brown", scope → "g_profile,mail".
func (s GlewlwydState) Fields(kind, key string) map[string]string {
	row, ok := s[kind][key]
	if !ok {
		return nil
	}
	out := map[string]string{}
	for _, kv := range strings.Split(row, "; ") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			out[k] = v
		}
	}
	return out
}

// SetField changes one field of a row of the state (v "" drops it), keeping the row's
// fields sorted as State writes them.
func (s GlewlwydState) SetField(kind, key, field, v string) {
	fields := s.Fields(kind, key)
	if fields == nil {
		fields = map[string]string{}
	}
	if v == "" && field != "name" && field != "email" && field != "description" && field != "display_name" {
		delete(fields, field)
	} else {
		fields[field] = v
	}
	var parts []string
	for _, f := range slices.Sorted(maps.Keys(fields)) {
		parts = append(parts, f+"="+fields[f])
	}
	s[kind][key] = strings.Join(parts, "; ")
}

// PasswordIs says whether one of username's stored passwords is password: Glewlwyd's
// database module keeps each as base64 of a PBKDF2-HMAC-SHA256 digest (32 bytes) and its
// salt, then ",iterations" (1000 when left out).
func (g *Glewlwyd) PasswordIs(t testing.TB, username, password string) bool {
	t.Helper()
	rows := SQLiteRows(t, g.DB, fmt.Sprintf(`SELECT p.guw_password h FROM g_user_password p JOIN g_user u ON u.gu_id = p.gu_id WHERE u.gu_username = '%s'`,
		strings.ReplaceAll(username, "'", "''")))
	for _, r := range rows {
		stored, iter, _ := strings.Cut(r["h"], ",")
		n, err := strconv.Atoi(iter)
		if iter == "" {
			n, err = 1000, nil
		}
		raw, err2 := base64.StdEncoding.DecodeString(stored)
		if err != nil || err2 != nil || len(raw) <= 32 {
			continue
		}
		key, err := pbkdf2.Key(sha256.New, password, raw[32:], n, 32)
		if err == nil && subtle.ConstantTimeCompare(key, raw[:32]) == 1 {
			return true
		}
	}
	return false
}
