package testenv

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// HomebridgeState is what the judges compare of a Homebridge UI's storage folder: for each
// kind of thing its pages change, its entries by key, each one's value as one line.
//
//	bridge    key of config.json's bridge block → its JSON value (name, port, pin…)
//	ui        key of the UI's "config" platform block, nested keys joined by dots
//	          (theme, tempUnits, lightingMode, log.maxSize…) → its JSON value
//	config    any other key of config.json (accessories, other platforms by their index,
//	          ports…) → its JSON value
//	user      username → name=…; admin=true|false (and otp=true when two-factor is on)
//	password  username → a fingerprint of its salt and hash, which any change of password
//	          changes (the salt is drawn anew)
//	startup   key of the startup settings the Settings page's Homebridge toggles keep
//	          (.uix-hb-service-homebridge-startup.json, when there is one) → its JSON value
type HomebridgeState map[string]map[string]string

// HomebridgeAccount is a user as auth.json keeps it.
type HomebridgeAccount struct {
	ID             int    `json:"id"`
	Username       string `json:"username"`
	Name           string `json:"name"`
	HashedPassword string `json:"hashedPassword"`
	Salt           string `json:"salt"`
	Admin          bool   `json:"admin"`
	OTPActive      bool   `json:"otpActive"`
}

// homebridgeStartup is the file the Settings page keeps its Homebridge toggles in.
const homebridgeStartup = ".uix-hb-service-homebridge-startup.json"

// State reads config.json, auth.json and the startup settings now.
func (w *Homebridge) State(t testing.TB) HomebridgeState {
	t.Helper()
	s := HomebridgeState{"bridge": {}, "ui": {}, "config": {}, "user": {}, "password": {}, "startup": {}}
	var cfg map[string]json.RawMessage
	w.readJSON(t, "config.json", &cfg)
	for k, v := range cfg {
		switch k {
		case "bridge":
			var bridge map[string]json.RawMessage
			if json.Unmarshal(v, &bridge) != nil {
				s["config"][k] = compactJSON(v)
				continue
			}
			for bk, bv := range bridge {
				s["bridge"][bk] = compactJSON(bv)
			}
		case "platforms":
			w.readPlatforms(s, v)
		default:
			s["config"][k] = compactJSON(v)
		}
	}
	for _, u := range w.Users(t) {
		line := fmt.Sprintf("name=%s; admin=%v", u.Name, u.Admin)
		if u.OTPActive {
			line += "; otp=true"
		}
		s["user"][u.Username] = line
		s["password"][u.Username] = md5Hex(u.Salt + "/" + u.HashedPassword)[:12]
	}
	if exists(filepath.Join(w.Dir, homebridgeStartup)) {
		var startup map[string]json.RawMessage
		w.readJSON(t, homebridgeStartup, &startup)
		for k, v := range startup {
			s["startup"][k] = compactJSON(v)
		}
	}
	return s
}

// readPlatforms puts the UI's platform block into s's "ui", its nested objects flattened,
// and any other platform into "config" by its index.
func (w *Homebridge) readPlatforms(s HomebridgeState, raw json.RawMessage) {
	var platforms []json.RawMessage
	if json.Unmarshal(raw, &platforms) != nil {
		s["config"]["platforms"] = compactJSON(raw)
		return
	}
	for i, p := range platforms {
		var block map[string]json.RawMessage
		var kind string
		if json.Unmarshal(p, &block) == nil {
			_ = json.Unmarshal(block["platform"], &kind)
		}
		if kind != "config" {
			s["config"][fmt.Sprintf("platforms[%d]", i)] = compactJSON(p)
			continue
		}
		flattenJSON(s["ui"], "", block)
	}
}

// flattenJSON puts each key of obj into into, a nested object's keys as prefix.key.
func flattenJSON(into map[string]string, prefix string, obj map[string]json.RawMessage) {
	for k, v := range obj {
		var inner map[string]json.RawMessage
		if strings.HasPrefix(strings.TrimSpace(string(v)), "{") && json.Unmarshal(v, &inner) == nil {
			flattenJSON(into, prefix+k+".", inner)
			continue
		}
		into[prefix+k] = compactJSON(v)
	}
}

// compactJSON is a JSON value as one line with its objects' keys sorted.
func compactJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// readJSON reads a JSON file of the storage folder into v, failing the test when it cannot.
func (w *Homebridge) readJSON(t testing.TB, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(w.Dir, name))
	if err != nil {
		t.Fatalf("homebridge: %v", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("homebridge: %s is no JSON: %v\n%s", name, err, b)
	}
}

// Users are auth.json's users as it keeps them.
func (w *Homebridge) Users(t testing.TB) []HomebridgeAccount {
	t.Helper()
	var users []HomebridgeAccount
	w.readJSON(t, "auth.json", &users)
	return users
}

// PasswordIs says whether username's stored hash is password's, as the UI checks one at
// sign-in.
func (w *Homebridge) PasswordIs(t testing.TB, username, password string) bool {
	t.Helper()
	for _, u := range w.Users(t) {
		if u.Username == username {
			return subtle.ConstantTimeCompare([]byte(homebridgeHash(password, u.Salt)), []byte(u.HashedPassword)) == 1
		}
	}
	return false
}

// Seed is the state the instance started with (a copy the caller may change).
func (w *Homebridge) Seed() HomebridgeState { return w.seed.Clone() }

// Clone is a deep copy of the state.
func (s HomebridgeState) Clone() HomebridgeState {
	c := HomebridgeState{}
	for k, rows := range s {
		c[k] = maps.Clone(rows)
	}
	return c
}

// Diff says how s differs from want ("" when it does not): each entry missing, extra or
// different, by kind and key. A wanted value "*" takes any value.
func (s HomebridgeState) Diff(want HomebridgeState) string {
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
			case wv != "*" && wv != got[k]:
				out = append(out, fmt.Sprintf("%s %q is %s, not %s", kind, k, got[k], wv))
			}
		}
	}
	return strings.Join(out, "; ")
}

// Differs says how the storage folder differs from want ("" when it holds exactly that).
func (w *Homebridge) Differs(t testing.TB, want HomebridgeState) string {
	t.Helper()
	return w.State(t).Diff(want)
}
