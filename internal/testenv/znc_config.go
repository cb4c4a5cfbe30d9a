package testenv

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// ZNCSection is one section of znc.conf as ZNC writes it: the file itself (Kind ""), a
// <User name>, a user's <Network name>, a network's <Chan name>, a user's <Pass password>,
// a <Listener name>; its settings (Key = Value lines, in the order written, a key written
// once per value where it has many: LoadModule, Server, Motd) and its subsections.
type ZNCSection struct {
	Kind, Name string
	Values     map[string][]string
	Sections   []*ZNCSection
}

// ParseZNCConfig reads znc.conf's text.
func ParseZNCConfig(text string) (*ZNCSection, error) {
	root := &ZNCSection{Values: map[string][]string{}}
	stack := []*ZNCSection{root}
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		top := stack[len(stack)-1]
		switch {
		case line == "" || strings.HasPrefix(line, "//") || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "</"):
			kind := strings.TrimSuffix(strings.TrimPrefix(line, "</"), ">")
			if len(stack) == 1 || !strings.EqualFold(kind, top.Kind) {
				return nil, fmt.Errorf("znc.conf line %d: %s closes no open section", n+1, line)
			}
			stack = stack[:len(stack)-1]
		case strings.HasPrefix(line, "<") && strings.HasSuffix(line, ">"):
			kind, name, _ := strings.Cut(strings.TrimSuffix(line[1:], ">"), " ")
			s := &ZNCSection{Kind: kind, Name: strings.TrimSpace(name), Values: map[string][]string{}}
			top.Sections = append(top.Sections, s)
			stack = append(stack, s)
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				return nil, fmt.Errorf("znc.conf line %d: %q is no setting", n+1, line)
			}
			k = strings.TrimSpace(k)
			top.Values[k] = append(top.Values[k], strings.TrimSpace(v))
		}
	}
	if len(stack) != 1 {
		return nil, fmt.Errorf("znc.conf: <%s %s> is not closed", stack[len(stack)-1].Kind, stack[len(stack)-1].Name)
	}
	return root, nil
}

// Clone is a deep copy of the section.
func (s *ZNCSection) Clone() *ZNCSection {
	c := &ZNCSection{Kind: s.Kind, Name: s.Name, Values: map[string][]string{}}
	for k, v := range s.Values {
		c.Values[k] = slices.Clone(v)
	}
	for _, sub := range s.Sections {
		c.Sections = append(c.Sections, sub.Clone())
	}
	return c
}

// Section is the subsection <kind name> (names compared as ZNC does for users, networks
// and channels: case aside), nil when there is none.
func (s *ZNCSection) Section(kind, name string) *ZNCSection {
	if s == nil {
		return nil
	}
	for _, sub := range s.Sections {
		if strings.EqualFold(sub.Kind, kind) && strings.EqualFold(sub.Name, name) {
			return sub
		}
	}
	return nil
}

// User, Network and Chan are Section for <User name>, <Network name> and <Chan name>.
func (s *ZNCSection) User(name string) *ZNCSection    { return s.Section("User", name) }
func (s *ZNCSection) Network(name string) *ZNCSection { return s.Section("Network", name) }
func (s *ZNCSection) Chan(name string) *ZNCSection    { return s.Section("Chan", name) }

// Remove takes the subsection <kind name> out; it says whether there was one.
func (s *ZNCSection) Remove(kind, name string) bool {
	for i, sub := range s.Sections {
		if strings.EqualFold(sub.Kind, kind) && strings.EqualFold(sub.Name, name) {
			s.Sections = slices.Delete(s.Sections, i, i+1)
			return true
		}
	}
	return false
}

// Get is the setting's first value ("" when it is not set).
func (s *ZNCSection) Get(key string) string {
	if s == nil || len(s.Values[key]) == 0 {
		return ""
	}
	return s.Values[key][0]
}

// Set sets a setting to values (none removes it).
func (s *ZNCSection) Set(key string, values ...string) {
	if len(values) == 0 {
		delete(s.Values, key)
		return
	}
	s.Values[key] = values
}

// Modules are the names of the modules the section loads (its LoadModule lines, without
// their arguments), sorted.
func (s *ZNCSection) Modules() []string {
	var out []string
	if s == nil {
		return out
	}
	for _, v := range s.Values["LoadModule"] {
		name, _, _ := strings.Cut(v, " ")
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// PasswordIs says whether a user's <Pass password> section is password's salted hash.
func (s *ZNCSection) PasswordIs(password string) bool {
	p := s.Section("Pass", "password")
	if p == nil {
		return false
	}
	switch strings.ToLower(p.Get("Method")) {
	case "sha256":
		return strings.EqualFold(p.Get("Hash"), zncHash(password, p.Get("Salt")))
	case "plain":
		return p.Get("Hash") == password
	}
	return false
}

// Diff says how s differs from want ("" when it does not): each setting or section that
// is missing, extra or different, named by its path. The order of LoadModule lines does
// not count, nor that of sections.
func (s *ZNCSection) Diff(want *ZNCSection) string {
	return strings.Join(zncDiff("znc.conf", s, want), "; ")
}

func zncDiff(path string, got, want *ZNCSection) []string {
	var out []string
	keys := map[string]bool{}
	for k := range got.Values {
		keys[k] = true
	}
	for k := range want.Values {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		g, w := got.Values[k], want.Values[k]
		if k == "LoadModule" {
			g, w = slices.Sorted(slices.Values(g)), slices.Sorted(slices.Values(w))
		}
		if !slices.Equal(g, w) {
			out = append(out, fmt.Sprintf("%s: %s is %q, want %q", path, k, g, w))
		}
	}
	for _, ws := range want.Sections {
		gs := got.Section(ws.Kind, ws.Name)
		if gs == nil {
			out = append(out, fmt.Sprintf("%s: no <%s %s>", path, ws.Kind, ws.Name))
			continue
		}
		out = append(out, zncDiff(path+" > "+ws.Kind+" "+ws.Name, gs, ws)...)
	}
	for _, gs := range got.Sections {
		if want.Section(gs.Kind, gs.Name) == nil {
			out = append(out, fmt.Sprintf("%s: an extra <%s %s>", path, gs.Kind, gs.Name))
		}
	}
	return out
}
