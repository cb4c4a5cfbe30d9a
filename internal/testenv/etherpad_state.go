package testenv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

// EtherpadState is what the judges compare of an Etherpad, read from its database file:
//
//	pad         pad ID → its text, its lines joined by newlines (a list item's line as
//	            "(bullet1) text", a non-breaking space as a space, spaces at a line's end
//	            and empty lines at the pad's end left out)
//	authorship  pad ID → the names of the authors whose colours its text shows (on its
//	            characters but newlines and list markers), sorted and joined by ", "
//	            ("unnamed" for an author without a name)
//	chat        "pad ID #n" → chat message n's text
//	author      a name → how many authors have it (an author without a name is left out:
//	            every visitor of a pad is one)
//	saved       pad ID → how many revisions were saved with "Save Revision"
type EtherpadState map[string]map[string]string

// epPadRecord is a pad's record (key pad:ID).
type epPadRecord struct {
	AText struct {
		Text    string `json:"text"`
		Attribs string `json:"attribs"`
	} `json:"atext"`
	Pool struct {
		NumToAttrib map[string][2]string `json:"numToAttrib"`
	} `json:"pool"`
	SavedRevisions []json.RawMessage `json:"savedRevisions"`
}

// readDirty reads ueberDB's dirty file: a record a line ({"key": …, "val": …}), a later
// line for a key replacing an earlier one, a line without val removing its key; a line
// being written (not yet whole) is skipped.
func readDirty(path string) (map[string]json.RawMessage, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	recs := map[string]json.RawMessage{}
	for _, line := range bytes.Split(data, []byte("\n")) {
		var r struct {
			Key string          `json:"key"`
			Val json.RawMessage `json:"val"`
		}
		if json.Unmarshal(line, &r) != nil || r.Key == "" {
			continue
		}
		if len(r.Val) == 0 || string(r.Val) == "null" {
			delete(recs, r.Key)
		} else {
			recs[r.Key] = r.Val
		}
	}
	return recs, nil
}

// State reads the database file now.
func (e *Etherpad) State(t testing.TB) EtherpadState {
	t.Helper()
	recs, err := readDirty(e.DB)
	if err != nil {
		t.Fatalf("etherpad: read the database: %v", err)
	}
	s := EtherpadState{"pad": {}, "authorship": {}, "chat": {}, "author": {}, "saved": {}}
	names := map[string]string{}
	for key, val := range recs {
		if id, ok := strings.CutPrefix(key, "globalAuthor:"); ok {
			var a struct {
				Name any `json:"name"`
			}
			_ = json.Unmarshal(val, &a)
			if name, ok := a.Name.(string); ok && name != "" {
				names[id] = name
				s["author"][name] = strconv.Itoa(atoiOr0(s["author"][name]) + 1)
			}
		}
	}
	for key, val := range recs {
		rest, ok := strings.CutPrefix(key, "pad:")
		if !ok {
			continue
		}
		if id, n, chat := strings.Cut(rest, ":chat:"); chat {
			var m struct {
				Text string `json:"text"`
			}
			_ = json.Unmarshal(val, &m)
			s["chat"][id+" #"+n] = m.Text
			continue
		}
		if strings.Contains(rest, ":") {
			continue // a revision, or another pad's part
		}
		var p epPadRecord
		if err := json.Unmarshal(val, &p); err != nil {
			t.Fatalf("etherpad: pad %q's record: %v", rest, err)
		}
		s["pad"][rest], s["authorship"][rest] = epRender(p, names)
		s["saved"][rest] = strconv.Itoa(len(p.SavedRevisions))
	}
	return s
}

// atoiOr0 is s as a number, 0 when it is not one.
func atoiOr0(s string) int { n, _ := strconv.Atoi(s); return n }

// epRender is a pad's text as the state shows it, and the names of the authors of its
// characters.
func epRender(p epPadRecord, names map[string]string) (string, string) {
	units := utf16.Encode([]rune(p.AText.Text))
	attrs := epCharAttribs(p.AText.Attribs, len(units))
	attr := func(i int, key string) string {
		for _, num := range attrs[i] {
			n, err := strconv.ParseInt(num, 36, 64)
			if a, ok := p.Pool.NumToAttrib[strconv.FormatInt(n, 10)]; err == nil && ok && a[0] == key {
				return a[1]
			}
		}
		return ""
	}
	authors := map[string]bool{}
	var lines []string
	start := 0
	for i, u := range units {
		if a := attr(i, "author"); a != "" && u != '\n' && attr(i, "lmkr") == "" {
			name := names[a]
			if name == "" {
				name = "unnamed"
			}
			authors[name] = true
		}
		if u != '\n' {
			continue
		}
		from, prefix := start, ""
		if from < i && attr(from, "lmkr") != "" {
			from, prefix = from+1, "("+attr(start, "list")+") "
		}
		line := strings.ReplaceAll(string(utf16.Decode(units[from:i])), "\u00a0", " ")
		lines = append(lines, prefix+strings.TrimRight(line, " \t"))
		start = i + 1
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n"), strings.Join(slices.Sorted(maps.Keys(authors)), ", ")
}

// Seed is the state the instance started with (a copy the caller may change).
func (e *Etherpad) Seed() EtherpadState { return e.seed.Clone() }

// Clone is a deep copy of the state.
func (s EtherpadState) Clone() EtherpadState {
	c := EtherpadState{}
	for k, rows := range s {
		c[k] = maps.Clone(rows)
	}
	return c
}

// Diff says how s differs from want ("" when it does not): each entry missing, extra or
// different, by kind and key; a wanted value "*" matches any value.
func (s EtherpadState) Diff(want EtherpadState) string {
	var out []string
	kinds := merged(keysOf(s), keysOf(want))
	for _, kind := range slices.Sorted(maps.Keys(kinds)) {
		got, w := s[kind], want[kind]
		for _, k := range slices.Sorted(maps.Keys(merged(got, w))) {
			gv, have := got[k]
			wv, wanted := w[k]
			switch {
			case !have:
				out = append(out, fmt.Sprintf("%s %q is missing", kind, k))
			case !wanted:
				out = append(out, fmt.Sprintf("an extra %s %q (%q)", kind, k, gv))
			case wv != "*" && wv != gv:
				out = append(out, fmt.Sprintf("%s %q is %q, not %q", kind, k, gv, wv))
			}
		}
	}
	return strings.Join(out, "; ")
}

// Differs says how the instance's database differs from want ("" when it holds exactly
// that).
func (e *Etherpad) Differs(t testing.TB, want EtherpadState) string {
	t.Helper()
	return e.State(t).Diff(want)
}

// Exactly says "" when the database holds the seed with change made to it and nothing
// else, else how it differs.
func (e *Etherpad) Exactly(t testing.TB, change func(s EtherpadState)) string {
	t.Helper()
	want := e.Seed()
	change(want)
	return e.Differs(t, want)
}
