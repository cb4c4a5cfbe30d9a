package testenv

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FedwikiItem is one item of a page's story as the judges compare it: its type
// ("paragraph", "markdown", "factory" for an empty box not yet written in…) and its text,
// with the white space around it and at each line's end dropped.
type FedwikiItem struct {
	Type, Text string
}

// FedwikiPage is a page as the judges compare it: its title and its story's items in
// order. The journal (which every change adds to) and the items' ids are left out: the
// story is what the page shows.
type FedwikiPage struct {
	Title string
	Items []FedwikiItem
}

// FedwikiState is every page of the site's pages folder, by its file's name (the slug).
type FedwikiState map[string]FedwikiPage

// State reads every page file of the data folder's pages folder now, straight from the
// files (never through the wiki).
func (w *Fedwiki) State(t testing.TB) FedwikiState {
	t.Helper()
	s, err := readFedwikiPages(filepath.Join(w.Dir, "pages"))
	if err != nil {
		t.Fatalf("fedwiki: read the pages: %v", err)
	}
	return s
}

// readFedwikiPages reads each page file of dir.
func readFedwikiPages(dir string) (FedwikiState, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	s := FedwikiState{}
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		var page struct {
			Title string            `json:"title"`
			Story []json.RawMessage `json:"story"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			return nil, fmt.Errorf("%s: %v", e.Name(), err)
		}
		p := FedwikiPage{Title: page.Title, Items: []FedwikiItem{}}
		for _, r := range page.Story {
			var it struct{ Type, Text string }
			if err := json.Unmarshal(r, &it); err != nil {
				// An item that is not an object (the server keeps what it was sent).
				it.Type, it.Text = "?", string(r)
			}
			p.Items = append(p.Items, FedwikiItem{Type: it.Type, Text: fedwikiText(it.Text)})
		}
		s[e.Name()] = p
	}
	return s, nil
}

// fedwikiText is an item's text with the white space around it and at each line's end
// dropped (a textarea leaves a trailing newline or space as easily as not).
func fedwikiText(text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	return strings.Join(lines, "\n")
}

// Seed is the state the instance started with (a copy the caller may change).
func (w *Fedwiki) Seed() FedwikiState { return w.seed.Clone() }

// Clone is a deep copy of the state.
func (s FedwikiState) Clone() FedwikiState {
	c := FedwikiState{}
	for slug, p := range s {
		c[slug] = FedwikiPage{Title: p.Title, Items: slices.Clone(p.Items)}
	}
	return c
}

// Diff says how s differs from want ("" when it does not): each page missing or extra, and
// each page whose title or story differs, with the story it has and the one wanted.
func (s FedwikiState) Diff(want FedwikiState) string {
	var out []string
	for _, slug := range slices.Sorted(maps.Keys(want)) {
		if _, ok := s[slug]; !ok {
			out = append(out, fmt.Sprintf("page %q (%s) is missing", slug, want[slug].Title))
		}
	}
	for _, slug := range slices.Sorted(maps.Keys(s)) {
		got := s[slug]
		w, ok := want[slug]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("an extra page %q titled %q: %s", slug, got.Title, got.story()))
		case got.Title != w.Title:
			out = append(out, fmt.Sprintf("page %q is titled %q, not %q", slug, got.Title, w.Title))
		case !slices.Equal(got.Items, w.Items):
			out = append(out, fmt.Sprintf("page %q's story is %s, not %s", slug, got.story(), w.story()))
		}
	}
	return strings.Join(out, "; ")
}

// story is the page's items on one line, each as type:"text".
func (p FedwikiPage) story() string {
	var parts []string
	for _, it := range p.Items {
		parts = append(parts, fmt.Sprintf("%s:%q", it.Type, it.Text))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Differs says how the instance's pages differ from want ("" when they are exactly that).
func (w *Fedwiki) Differs(t testing.TB, want FedwikiState) string {
	t.Helper()
	return w.State(t).Diff(want)
}

// Find is the index of the item of slug's story whose text is text, or -1.
func (s FedwikiState) Find(slug, text string) int {
	return slices.IndexFunc(s[slug].Items, func(it FedwikiItem) bool { return it.Text == text })
}

// Replace changes the text of the item of slug whose text is old to text (the item keeps
// its type and place), and returns s. It panics when there is no such item: a goal's
// wanted state names the seed's items.
func (s FedwikiState) Replace(slug, old, text string) FedwikiState {
	i := s.must(slug, old)
	s[slug].Items[i].Text = text
	return s
}

// Remove drops the item of slug whose text is text, and returns s.
func (s FedwikiState) Remove(slug, text string) FedwikiState {
	i := s.must(slug, text)
	p := s[slug]
	p.Items = slices.Delete(p.Items, i, i+1)
	s[slug] = p
	return s
}

// Append adds an item at the end of slug's story (a page of title made first when slug has
// none), and returns s.
func (s FedwikiState) Append(slug, title string, item FedwikiItem) FedwikiState {
	p, ok := s[slug]
	if !ok {
		p = FedwikiPage{Title: title, Items: []FedwikiItem{}}
	}
	p.Items = append(p.Items, item)
	s[slug] = p
	return s
}

// MoveBefore moves the item of slug whose text is text to just before the item whose text
// is before, and returns s.
func (s FedwikiState) MoveBefore(slug, text, before string) FedwikiState {
	i := s.must(slug, text)
	p := s[slug]
	it := p.Items[i]
	p.Items = slices.Delete(p.Items, i, i+1)
	s[slug] = p
	p.Items = slices.Insert(p.Items, s.must(slug, before), it)
	s[slug] = p
	return s
}

// must is Find, which must find the item.
func (s FedwikiState) must(slug, text string) int {
	i := s.Find(slug, text)
	if i < 0 {
		panic(fmt.Sprintf("fedwiki: page %q has no item %q", slug, text))
	}
	return i
}
