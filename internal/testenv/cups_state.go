package testenv

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// CupsState is what the judges compare of a CUPS: for each kind of thing its pages change,
// its entries by key, each entry's settings as one line.
//
//	printer     name → Key=value; Key=value of its <Printer> in printers.conf (Info, Location,
//	            MakeModel, DeviceURI, State, Reason, Accepting, Shared, Option…), sorted by key
//	class       name → the same of its <Class> in classes.conf (its members as Printer=a,b)
//	default     "destination" → the server's default printer or class ("" for none)
//	ppd         name → Option=choice; … of the *Default lines of ppd/NAME.ppd (its defaults)
//	cupsd.conf  a line of cupsd.conf (comments and blank lines left out) → how many times
//	job         id → printer=…; name=…; state=…; hold=… of the spool's job file cNNNNN
//
// What cupsd rewrites by itself is left out: ids, UUIDs, times, state messages and the
// printer-type bits it works out from the driver.
type CupsState map[string]map[string]string

// cupsVolatile are printers.conf's and classes.conf's keys the state leaves out.
var cupsVolatile = map[string]bool{"PrinterId": true, "UUID": true, "StateTime": true, "ConfigTime": true,
	"StateMessage": true, "Type": true, "NextPrinterId": true}

// State reads the ServerRoot's files and the spool's job files now.
func (c *Cups) State(t testing.TB) CupsState {
	t.Helper()
	s := CupsState{"default": {"destination": ""}}
	for kind, file := range map[string]string{"printer": "printers.conf", "class": "classes.conf"} {
		entries, def, err := cupsReadConf(filepath.Join(c.Root, file))
		if err != nil {
			t.Fatalf("cups: read %s: %v", file, err)
		}
		s[kind] = entries
		if def != "" {
			s["default"]["destination"] = def
		}
	}
	s["ppd"] = map[string]string{}
	ppds, _ := filepath.Glob(filepath.Join(c.Root, "ppd", "*.ppd"))
	for _, path := range ppds {
		defaults, err := cupsPPDDefaults(path)
		if err != nil {
			t.Fatalf("cups: read %s: %v", path, err)
		}
		s["ppd"][strings.TrimSuffix(filepath.Base(path), ".ppd")] = defaults
	}
	s["cupsd.conf"] = cupsConfLines(t, filepath.Join(c.Root, "cupsd.conf"))
	s["job"] = c.jobs(t)
	return s
}

// cupsReadConf reads printers.conf or classes.conf as cupsd writes it: each <Printer NAME>
// or <Class NAME> section's keys and values (a key given more than once has its values
// joined by ","), as one line; and the name of the <DefaultPrinter>/<DefaultClass>, if
// any. A missing file has no entries.
func cupsReadConf(path string) (map[string]string, string, error) {
	out := map[string]string{}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return out, "", nil
	} else if err != nil {
		return nil, "", err
	}
	defer f.Close()
	var name, def string
	var keys map[string][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "</"):
			if keys != nil {
				out[name] = cupsLine(keys)
			}
			keys = nil
		case strings.HasPrefix(line, "<"):
			tag, value, _ := strings.Cut(strings.Trim(line, "<>"), " ")
			name, keys = value, map[string][]string{}
			if strings.HasPrefix(tag, "Default") {
				def = value
			}
		case keys != nil:
			k, v, _ := strings.Cut(line, " ")
			if !cupsVolatile[k] {
				keys[k] = append(keys[k], v)
			}
		}
	}
	return out, def, sc.Err()
}

// cupsLine is a section's keys as one line: "Key=value; Key=a,b" sorted by key.
func cupsLine(keys map[string][]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		parts = append(parts, k+"="+strings.Join(keys[k], ","))
	}
	return strings.Join(parts, "; ")
}

// cupsPPDDefaults is a PPD's default choices, "PageSize=Letter; Resolution=300dpi…" sorted
// by option, from its "*DefaultOPTION: choice" lines.
func cupsPPDDefaults(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	keys := map[string][]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "*Default"); ok {
			if k, v, ok := strings.Cut(rest, ":"); ok {
				keys[k] = append(keys[k], strings.TrimSpace(v))
			}
		}
	}
	return cupsLine(keys), nil
}

// cupsConfLines is cupsd.conf's lines, trimmed, comments and blank lines left out, each with
// how many times it is there.
func cupsConfLines(t testing.TB, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("cups: read cupsd.conf: %v", err)
	}
	count := map[string]int{}
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.Join(strings.Fields(line), " "); line != "" && !strings.HasPrefix(line, "#") {
			count[line]++
		}
	}
	out := map[string]string{}
	for line, n := range count {
		out[line] = fmt.Sprint(n)
	}
	return out
}

// Seed is the state the instance started with (a copy the caller may change).
func (c *Cups) Seed() CupsState { return c.seed.Clone() }

// Clone is a deep copy of the state.
func (s CupsState) Clone() CupsState {
	out := CupsState{}
	for k, rows := range s {
		out[k] = maps.Clone(rows)
	}
	return out
}

// Diff says how s differs from want ("" when it does not): each entry missing, extra or
// different, by kind and key.
func (s CupsState) Diff(want CupsState) string {
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
			case wv != got[k]:
				out = append(out, fmt.Sprintf("%s %q is %q, not %q", kind, k, got[k], wv))
			}
		}
	}
	return strings.Join(out, "; ")
}

// Differs says how the instance's storage differs from want ("" when it holds exactly
// that).
func (c *Cups) Differs(t testing.TB, want CupsState) string {
	t.Helper()
	return c.State(t).Diff(want)
}

// CupsKeys is an entry's line of the state ("Key=value; Key=value") as a map.
func CupsKeys(line string) map[string]string {
	keys := map[string]string{}
	for _, kv := range strings.Split(line, "; ") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			keys[k] = v
		}
	}
	return keys
}

// CupsSetKey is line with its key set to value (or dropped, when value is ""), sorted again.
func CupsSetKey(line, key, value string) string {
	keys := map[string][]string{}
	for k, v := range CupsKeys(line) {
		keys[k] = []string{v}
	}
	if value == "" {
		delete(keys, key)
	} else {
		keys[key] = []string{value}
	}
	return cupsLine(keys)
}
