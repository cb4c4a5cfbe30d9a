package testenv

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SignalKState is what the judges compare of a Signal K server's configuration folder: for
// each kind of thing its admin pages change, its entries by key, each one's value as one
// line.
//
//	settings    key of settings.json but its data connections, nested keys joined by dots
//	            (port, interfaces.logfiles, pruneContextsMinutes, security.strategy…) → JSON
//	connection  a data connection's ID → type=…; source=…; host=…; port=…; device=…;
//	            baudrate=…; enabled=…; logging=… (what the connection's form shows, the
//	            empty ones left out)
//	security    key of security.json but its users, devices and secret key (allow_readonly,
//	            expiration, allowNewUserRegistration…) → its JSON value
//	user        username → its type: readonly, readwrite or admin
//	password    username → a fingerprint of its bcrypt hash, which any new password changes
//	device      a device's client ID → description=…; permissions=…
//	vessel      a path of the vessel's base data in baseDeltas.json (name, mmsi, design.length,
//	            communication…) → its JSON value
//	plugin      a plugin's ID and a key of its plugin-config-data file, nested keys joined by
//	            dots (course-provider.enabled, kip.configuration…) → its JSON value
type SignalKState map[string]map[string]string

// signalkSecurity is security.json as the judges read it.
type signalkSecurity struct {
	Users []struct {
		Username string `json:"username"`
		Type     string `json:"type"`
		Password string `json:"password"`
	} `json:"users"`
	Devices []struct {
		ClientID    string `json:"clientId"`
		Description string `json:"description"`
		Permissions string `json:"permissions"`
	} `json:"devices"`
}

// State reads settings.json, security.json, baseDeltas.json and plugin-config-data now.
func (w *SignalK) State(t testing.TB) SignalKState {
	t.Helper()
	s := SignalKState{"settings": {}, "connection": {}, "security": {}, "user": {}, "password": {}, "device": {},
		"vessel": {}, "plugin": {}}
	var settings map[string]json.RawMessage
	w.readJSON(t, "settings.json", &settings)
	for k, v := range settings {
		if k != "pipedProviders" {
			flattenJSON(s["settings"], "", map[string]json.RawMessage{k: v})
		}
	}
	var providers []json.RawMessage
	_ = json.Unmarshal(settings["pipedProviders"], &providers)
	for _, p := range providers {
		id, line := signalkConnection(p)
		s["connection"][id] = line
	}
	w.readSecurity(t, s)
	w.readVessel(t, s)
	files, _ := filepath.Glob(filepath.Join(w.Dir, "plugin-config-data", "*.json"))
	for _, f := range files {
		var data map[string]json.RawMessage
		w.readJSON(t, filepath.Join("plugin-config-data", filepath.Base(f)), &data)
		flattenJSON(s["plugin"], strings.TrimSuffix(filepath.Base(f), ".json")+".", data)
	}
	return s
}

// readSecurity puts security.json's settings, users and devices into s.
func (w *SignalK) readSecurity(t testing.TB, s SignalKState) {
	t.Helper()
	var all map[string]json.RawMessage
	w.readJSON(t, "security.json", &all)
	for k, v := range all {
		if k != "users" && k != "devices" && k != "secretKey" {
			s["security"][k] = compactJSON(v)
		}
	}
	var sec signalkSecurity
	w.readJSON(t, "security.json", &sec)
	for _, u := range sec.Users {
		s["user"][u.Username] = u.Type
		s["password"][u.Username] = md5Hex(u.Password)[:12]
	}
	for _, d := range sec.Devices {
		s["device"][d.ClientID] = fmt.Sprintf("description=%s; permissions=%s", d.Description, d.Permissions)
	}
}

// readVessel puts the vessel's base data of baseDeltas.json into s: the values of the
// vessel's root (name, mmsi) by their own keys, the others by their paths.
func (w *SignalK) readVessel(t testing.TB, s SignalKState) {
	t.Helper()
	var deltas []struct {
		Context string `json:"context"`
		Updates []struct {
			Values []struct {
				Path  string          `json:"path"`
				Value json.RawMessage `json:"value"`
			} `json:"values"`
		} `json:"updates"`
	}
	w.readJSON(t, "baseDeltas.json", &deltas)
	for _, d := range deltas {
		for _, u := range d.Updates {
			for _, v := range u.Values {
				var root map[string]json.RawMessage
				if d.Context == "vessels.self" && v.Path == "" && json.Unmarshal(v.Value, &root) == nil {
					for k, rv := range root {
						s["vessel"][k] = compactJSON(rv)
					}
					continue
				}
				s["vessel"][strings.TrimPrefix(d.Context+"/", "vessels.self/")+v.Path] = compactJSON(v.Value)
			}
		}
	}
}

// signalkConnection is a data connection of settings.json as its ID and one line: what
// the connection's form shows.
func signalkConnection(raw json.RawMessage) (string, string) {
	var p struct {
		ID           string `json:"id"`
		Enabled      bool   `json:"enabled"`
		PipeElements []struct {
			Type    string `json:"type"`
			Options struct {
				Logging    bool           `json:"logging"`
				Type       string         `json:"type"`
				SubOptions map[string]any `json:"subOptions"`
			} `json:"options"`
		} `json:"pipeElements"`
	}
	if json.Unmarshal(raw, &p) != nil || len(p.PipeElements) != 1 || p.PipeElements[0].Type != "providers/simple" {
		return p.ID, compactJSON(raw)
	}
	o := p.PipeElements[0].Options
	parts := []string{"type=" + o.Type}
	for _, k := range []string{"type", "host", "port", "device", "baudrate"} {
		if v, ok := o.SubOptions[k]; ok && fmt.Sprint(v) != "" {
			name := k
			if k == "type" {
				name = "source"
			}
			parts = append(parts, fmt.Sprintf("%s=%v", name, v))
		}
	}
	parts = append(parts, fmt.Sprintf("enabled=%v", p.Enabled), fmt.Sprintf("logging=%v", o.Logging))
	return p.ID, strings.Join(parts, "; ")
}

// readJSON reads a JSON file of the configuration folder into v, failing the test when
// it cannot.
func (w *SignalK) readJSON(t testing.TB, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(w.Dir, name))
	if err != nil {
		t.Fatalf("signalk: %v", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("signalk: %s is no JSON: %v\n%s", name, err, b)
	}
}

// PasswordIs says whether username's stored hash is password's, as the server checks one
// at sign-in (with its own bcryptjs).
func (w *SignalK) PasswordIs(t testing.TB, username, password string) bool {
	t.Helper()
	var sec signalkSecurity
	w.readJSON(t, "security.json", &sec)
	for _, u := range sec.Users {
		if u.Username == username && u.Password != "" {
			var match bool
			signalkBcrypt(t, map[string]string{"password": password, "hash": u.Password}, &match)
			return match
		}
	}
	return false
}

// Seed is the state the instance started with (a copy the caller may change).
func (w *SignalK) Seed() SignalKState { return w.seed.Clone() }

// Clone is a deep copy of the state.
func (s SignalKState) Clone() SignalKState { return SignalKState(HomebridgeState(s).Clone()) }

// Diff says how s differs from want ("" when it does not): each entry missing, extra or
// different, by kind and key; a wanted value "*" takes any value (the same comparison as
// the Homebridge UI's, whose state has the same shape).
func (s SignalKState) Diff(want SignalKState) string {
	return HomebridgeState(s).Diff(HomebridgeState(want))
}

// Differs says how the configuration folder differs from want ("" when it holds exactly
// that).
func (w *SignalK) Differs(t testing.TB, want SignalKState) string {
	t.Helper()
	return w.State(t).Diff(want)
}
