package page

import (
	"sort"

	"github.com/webagent-dev/webagent/plan"
)

// Closest returns up to n elements whose texts are nearest to the target's name, for
// feedback when none matches: the words a person may have meant ("Sign in" for "Log in").
func Closest(t plan.Target, elems []Element, n int) []Element {
	p := norm(t.Name)
	if p == "" {
		return nil
	}
	want := trigrams(p)
	type scored struct {
		e Element
		s float64
	}
	var all []scored
	for _, e := range elems {
		best := 0.0
		for _, v := range []string{e.Name, e.Label, e.Placeholder, e.Title} {
			if v = norm(v); v != "" {
				best = max(best, jaccard(want, trigrams(v)))
			}
		}
		if best >= 0.2 {
			all = append(all, scored{e, best})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].s > all[j].s })
	var out []Element
	for i := 0; i < len(all) && i < n; i++ {
		out = append(out, all[i].e)
	}
	return out
}

func trigrams(s string) map[string]bool {
	s = "  " + s + " "
	r := []rune(s)
	out := map[string]bool{}
	for i := 0; i+3 <= len(r); i++ {
		out[string(r[i:i+3])] = true
	}
	return out
}

func jaccard(a, b map[string]bool) float64 {
	inter := 0
	for k := range a {
		if b[k] {
			inter++
		}
	}
	if u := len(a) + len(b) - inter; u > 0 {
		return float64(inter) / float64(u)
	}
	return 0
}

// Named is the visible text a target's description quotes ("the link "Neque,"" names
// "Neque,") and its ordinal (1-based; -1 for "last"; 0 for none), or ok false when the
// description quotes nothing. A description that is a name and nothing else (`click
// "Trees"`, whose quotes the reader drops as saying nothing more; "the Groups link";
// "Users under Configuration") names that text too: the rest is held by the resolver. An
// icon's words say what it shows, not a text.
func Named(t plan.Target) (name string, ordinal int, ok bool) {
	bare := t
	bare.Ordinal, bare.Kind, bare.Row, bare.RowNoun, bare.Container = 0, "", "", "", ""
	if t.Name == "" || !t.Quoted && (bare != (plan.Target{Name: t.Name}) || t.Kind == "icon" || t.Kind == "image") {
		return "", 0, false
	}
	return t.Name, t.Ordinal, true
}
