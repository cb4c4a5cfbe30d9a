package page

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/webagent-dev/webagent/plan"
)

// Scores of phraseScore, best first.
const (
	scoreExact     = 8 // the whole text
	scorePrefix    = 6 // whole words at the start
	scoreWords     = 4 // whole words anywhere
	scoreSubstring = 2
	scoreHint      = 1 // the developer's names for an icon-only control; or no phrase at all
)

// fieldWeights rank the texts an element is named by, for the same closeness of match:
// the name a person reads on it (its accessible name, its text) outranks a label, which
// may be text a field was found beside, and those outrank what only hovering or the
// markup shows (a title, an id). So "Log in" is the link named "Log in", not the search
// button that text happens to sit above.
var fieldWeights = []struct {
	name   string
	weight int
	get    func(Element) string
}{
	{"name", 3, func(e Element) string { return e.Name }},
	{"text", 3, func(e Element) string { return e.Text }},
	{"label", 2, func(e Element) string { return e.Label }},
	{"placeholder", 2, func(e Element) string { return e.Placeholder }},
	{"title", 1, func(e Element) string { return e.Title }},
	{"id", 1, func(e Element) string { return e.ID }},
	// A field of a table's row is named by its column's header too ("the user field in
	// the row of web-01"), below any name of its own.
	{"column", 1, func(e Element) string {
		if e.FormControl() && e.Row != "" {
			return e.Column
		}
		return ""
	}},
}

// matchScore rates how well the phrase names the element: the closeness of the match
// first (exact, prefix, whole words, part of a word), then which text matched (see
// fieldWeights); when none match, by its hints (class names, icon names) read with
// common icon synonyms, below any text. 0 is no match. An empty phrase matches any
// element weakly, so "the button" with one button resolves.
func matchScore(phrase string, e Element) (int, string) {
	p := norm(phrase)
	if p == "" && strings.Trim(phrase, " .…⋯⋮︙•·") == "" && strings.TrimSpace(phrase) != "" {
		// "...", "⋮": dots alone are the icon of an item's own actions, named as a person
		// calls it, not an empty name that any element matches.
		p = "more"
	}
	if p == "" {
		return scoreHint, "role"
	}
	best, field := 0, ""
	for _, f := range fieldWeights {
		// The description lost its fillers ("the", "a", "icon"...): the name is read
		// without them too, so "Open the report" still is the link "Open the report".
		v := f.get(e)
		for _, v := range []string{norm(v), norm(plan.Fillers.ReplaceAllString(v, " "))} {
			if s := phraseScore(p, v); s > 0 && s*4+f.weight > best {
				best, field = s*4+f.weight, f.name
			}
		}
	}
	if best == 0 && (iconMatch(p, e) || unnamedField(p, e)) {
		return scoreHint, "hints"
	}
	return best, field
}

// unnamedField reports a form control the page names nowhere a person reads (no label, no
// text, no placeholder: a list of domains that switches the page, alone above it) whose
// developers' name for it holds the phrase as whole words (name="domain" is "the domain
// list"), or whose group is named by the phrase and nothing else (a studio's field under
// its label drawn as a button of its own: the group's only words are "Title"). Below any
// visible name: a control named on the page is always named so.
func unnamedField(p string, e Element) bool {
	if !e.FormControl() || strings.TrimSpace(e.Name+e.Label+e.Placeholder+e.Title) != "" {
		return false
	}
	if e.Row != "" && norm(e.Row) == p {
		return true
	}
	if e.Prompt != "" && rowFit(norm(e.Prompt), p) == rowWhole {
		return true // "the reclaim code box" below "Please enter your reclaim code."
	}
	words := strings.FieldsFunc(strings.ToLower(camel.ReplaceAllString(e.Hints, "$1 $2")), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	return rowFit(strings.Join(words, " "), p) == rowWhole
}

// phraseScore is how well the phrase p matches the value v, both normalised.
func phraseScore(p, v string) int {
	switch {
	case v == "":
		return 0
	case v == p:
		return scoreExact
	case strings.HasPrefix(v, p+" "):
		return scorePrefix
	case strings.Contains(" "+v+" ", " "+p+" "):
		return scoreWords
	case len(p) >= 3 && strings.Contains(v, p):
		return scoreSubstring
	}
	return 0
}

// iconGroups are words people and developers use for the same icon, and the code points
// of Font Awesome's glyphs for it (a page's icon font draws them, and a hint holds them).
var iconGroups = [][]string{
	{"close", "x", "×", "✕", "✖", "dismiss", "\uf00d"},
	{"delete", "trash", "bin", "remove", "destroy", "garbage", "rubbish", "🗑", "\uf1f8", "\uf2ed"},
	{"star", "favorite", "favourite", "fav", "★", "☆"},
	{"edit", "pencil", "pen", "✎", "✏", "\uf044", "\uf303", "\uf040"},
	{"search", "magnifier", "magnifying", "find", "🔍", "\uf002"},
	// A page's menu button is drawn as three bars (Font Awesome's "bars"); "more" is the
	// three dots of an item's own actions, another icon.
	{"menu", "hamburger", "bars", "☰", "\uf0c9"},
	{"more", "kebab", "ellipsis", "dots", "⋯", "…", "...", "⋮", "︙", "•••", "···", "\uf142", "\uf141"},
	{"settings", "gear", "cog", "preferences", "⚙", "\uf013"},
	{"add", "plus", "+", "create", "\uf067"},
	{"save", "floppy", "disk"},
	{"home", "house"},
	{"user", "profile", "account", "avatar"},
	{"refresh", "reload", "sync", "↻"},
	{"back", "previous", "prev", "←"},
	{"next", "forward", "→"},
	{"like", "heart", "love", "♥"},
	{"notifications", "bell", "alerts"},
	{"filter", "funnel"},
	{"copy", "duplicate", "clone"},
	{"help", "question", "?", "\uf059", "\uf128"},
	{"info", "information", "ℹ"},
	{"lock", "padlock", "locked", "🔒", "\uf023"},
	{"unlock", "unlocked", "🔓", "\uf09c", "\uf13e"},
	{"eye", "👁", "\uf06e"},
	{"printer", "print", "🖨", "\uf02f"},
	{"envelope", "mail", "✉", "\uf0e0"},
	{"paperclip", "attach", "attachment", "📎", "\uf0c6"},
	{"bold"}, {"italic", "italics"}, {"underline", "underlined"}, {"strike", "strikethrough"},
	{"download"}, {"upload"}, {"share"}, {"sort"}, {"calendar", "date"}, {"reply"}, {"retweet", "repost", "boost"}, {"send"},
}

var iconWord = map[string]int{}

// iconNouns are words that say an icon is a picture, beside the word for what it shows.
var iconNouns = map[string]bool{"can": true, "sign": true, "symbol": true, "mark": true, "glyph": true, "shaped": true}

func init() {
	for i, g := range iconGroups {
		for _, w := range g {
			iconWord[w] = i + 1
		}
	}
}

// iconMatch reports whether the phrase names, in every word, the icon a word of the
// element's hints or its one-symbol text names.
func iconMatch(phrase string, e Element) bool {
	if e.Hints == "" && len([]rune(strings.TrimSpace(e.Text))) > 2 {
		return false
	}
	have := map[int]bool{}
	for _, w := range append(splitWords(e.Hints), strings.TrimSpace(e.Text)) {
		if g := iconWord[strings.ToLower(w)]; g > 0 {
			have[g] = true
		}
	}
	// Every word of the phrase must name the icon: "add" is the plus, "add flow" is not
	// just any plus (a zoom's plus is one too).
	matched := false
	for _, w := range strings.Fields(phrase) {
		g := iconWord[w]
		if g == 0 && iconNouns[w] {
			continue // "trash can", "plus sign": what the picture is called
		}
		if g == 0 {
			return false
		}
		matched = matched || have[g]
	}
	return matched
}

var camel = regexp.MustCompile(`([a-z0-9])([A-Z])`)

// pictured reports whether the element shows the icon a description says it does beside
// its quoted name (plan.Target.Picture): its icon or glyph names it (iconMatch, which
// reads its hints), or its own name or title uses a word people use for that icon
// ("Delete" is the trash can's).
func pictured(picture string, e Element) bool {
	if iconMatch(picture, e) {
		return true
	}
	want := map[int]bool{}
	for _, w := range strings.Fields(picture) {
		if g := iconWord[w]; g > 0 {
			want[g] = true
		}
	}
	for _, w := range splitWords(e.Name + " " + e.Title) {
		if want[iconWord[w]] {
			return true
		}
	}
	return false
}

// splitWords splits ids and class names into words: "btn-close iconTrash" → btn close icon trash.
func splitWords(s string) []string {
	s = camel.ReplaceAllString(s, "$1 $2")
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return r == '-' || r == '_' || r == ' ' || r == '#' || r == '.' || r == '/' || r == ':'
	})
}

func norm(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	// "application / announcements" is the name "application/announcements" with room
	// to break after its slash, as a page lays out a long name.
	s = strings.ReplaceAll(strings.ReplaceAll(s, " /", "/"), "/ ", "/")
	return strings.Trim(s, " :*.!?…")
}

// pageSays reports whether an element of the page names the word w, or its plural, as a
// whole word in what a person reads on it.
func pageSays(w string, elems []Element) bool {
	for _, e := range elems {
		for _, v := range []string{e.Name, e.Text, e.Label, e.Placeholder, e.Title, e.Section} {
			for _, f := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return !unicode.IsLetter(r) }) {
				if f == w || f == w+"s" || f == w+"es" {
					return true
				}
			}
		}
	}
	return false
}

// afterItemNoun reads "the message Quarterly budget review", where nothing is named with
// the noun: the noun says what the thing is, and the rest is its name — the whole of it,
// or its first words. A word of the rest found inside another name ("name" in "field
// name", for "tag name" while the tag field is not yet drawn) is not that thing.
func afterItemNoun(name string, elems []Element) ([]Element, map[int]string) {
	for _, r := range plan.ItemNouns(name) {
		if !plan.IsItemNoun(r[0]) && !pageSays(r[0], elems) {
			// "the workflow Invoice Sync (EU)": a kind no list of nouns knows is held to the
			// page's own words ("Create workflow", "Workflows"); else it names nothing here.
			continue
		}
		cands, matched := bestNamed(r[1], elems)
		if len(cands) == 0 {
			continue
		}
		if s, _ := matchScore(r[1], cands[0]); s/4 >= scorePrefix {
			return cands, matched
		}
	}
	return nil, map[int]string{}
}
