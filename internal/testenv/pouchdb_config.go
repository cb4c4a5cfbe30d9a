package testenv

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

// PouchdbConfig is what the judges compare of a PouchDB Server's settings: its
// config.json, which holds each option Fauxton's Configuration page (or /_config) changed
// from the server's defaults, by section and option, each value as text (the server
// writes a number it was given as text, "3600", as the number 3600). The server's own
// id, couchdb's uuid, which it writes there when it first saves, is left out, and so is a
// section left empty.
type PouchdbConfig map[string]map[string]string

// Config reads config.json now, without the server (a file not written yet is no change).
func (w *Pouchdb) Config(t testing.TB) PouchdbConfig {
	t.Helper()
	data, err := os.ReadFile(w.ConfigFile)
	if errors.Is(err, os.ErrNotExist) {
		return PouchdbConfig{}
	}
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("pouchdb-server: %s: %v", w.ConfigFile, err)
	}
	c := PouchdbConfig{}
	for section, options := range raw {
		for option, v := range options {
			if section == "couchdb" && option == "uuid" {
				continue
			}
			s, ok := v.(string)
			if !ok {
				s = pouchdbJSON(v)
			}
			if c[section] == nil {
				c[section] = map[string]string{}
			}
			c[section][option] = s
		}
	}
	return c
}

// Diff says how c differs from want ("" when it does not), option by option.
func (c PouchdbConfig) Diff(want PouchdbConfig) string {
	flat := func(c PouchdbConfig) map[string]string {
		m := map[string]string{}
		for section, options := range c {
			for option, v := range options {
				m[section+"/"+option] = v
			}
		}
		return m
	}
	got, wants := flat(c), flat(want)
	var out []string
	for _, k := range slices.Sorted(maps.Keys(wants)) {
		if _, ok := got[k]; !ok {
			out = append(out, fmt.Sprintf("config.json does not set %s (want %q)", k, wants[k]))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		wv, ok := wants[k]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("config.json sets %s to %q", k, got[k]))
		case wv != got[k]:
			out = append(out, fmt.Sprintf("config.json sets %s to %q, not %q", k, got[k], wv))
		}
	}
	return strings.Join(out, "; ")
}

// Differs says how the server's databases now differ from want, and its settings from
// those it started with ("" when neither does).
func (w *Pouchdb) Differs(t testing.TB, want PouchdbState) string {
	t.Helper()
	return pouchdbJoin(w.State(t).Diff(want), w.Config(t).Diff(w.seedConfig))
}

// ConfigDiffers says how the server's settings now differ from want, and its databases
// from those it started with ("" when neither does).
func (w *Pouchdb) ConfigDiffers(t testing.TB, want PouchdbConfig) string {
	t.Helper()
	return pouchdbJoin(w.Config(t).Diff(want), w.State(t).Diff(w.seed))
}

// SeedConfig is the settings the instance started with (a copy).
func (w *Pouchdb) SeedConfig() PouchdbConfig {
	c := PouchdbConfig{}
	for section, options := range w.seedConfig {
		c[section] = maps.Clone(options)
	}
	return c
}

// pouchdbJoin joins the differences that are not "".
func pouchdbJoin(whys ...string) string {
	var out []string
	for _, why := range whys {
		if why != "" {
			out = append(out, why)
		}
	}
	return strings.Join(out, "; ")
}
