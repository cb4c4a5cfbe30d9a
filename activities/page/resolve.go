package page

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/webagent-dev/webagent/plan"
)

// Resolution is the outcome of resolving a target description against an observation:
// exactly one element, or none and the reason, with the candidates when several matched.
type Resolution struct {
	// Index is the element's index in the observation, or -1 when not resolved.
	Index int
	// Matched says which of the element's texts matched (name, label, placeholder...).
	Matched    string
	Candidates []Element
	Reason     string
}

// Resolved reports whether exactly one element was found.
func (r Resolution) Resolved() bool { return r.Index >= 0 }

// target is a parsed target description.
type target struct {
	phrase    string
	role      string // a role the description names ("button", "textbox"), or ""
	ordinal   int    // 1-based; -1 is "last"; 0 is none
	row       string // "in the row 'Apollo'"
	container string // "in the menu", "in the 'New project' dialog"
}

var (
	singleQuoted = regexp.MustCompile(`(^|[\s(])'([^']+)'`)
	quoted       = regexp.MustCompile(`"([^"]+)"|“([^”]+)”|'([^']+)'`)
	rowContext   = regexp.MustCompile(`(?i)\b(?:in|on|of|for|from)\s+(?:the\s+)?(?:row|line|item|entry|card)\s+(?:for\s+|of\s+|named\s+|called\s+)?"([^"]+)"|\b(?:in|on|of|for)\s+(?:the\s+)?"([^"]+)"\s+(?:row|line|item|entry|card)|\b(?:next\s+to|beside|for)\s+"([^"]+)"`)
	boxContext   = regexp.MustCompile(`(?i)\b(?:in|inside|within|from)\s+(?:the\s+)?(?:"([^"]+)"\s+)?(menu|dialog|modal|popup|form|navigation|nav|sidebar)\b`)
	ordinalWord  = regexp.MustCompile(`(?i)\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|(\d+)(?:st|nd|rd|th))\b`)
	roleWords    = []struct {
		re   *regexp.Regexp
		role string
	}{
		{regexp.MustCompile(`(?i)\bmenu\s*item\b`), "menuitem"},
		{regexp.MustCompile(`(?i)\b(?:check\s*box|checkbox)\b`), "checkbox"},
		{regexp.MustCompile(`(?i)\b(?:radio(?:\s*button)?)\b`), "radio"},
		{regexp.MustCompile(`(?i)\b(?:button|btn)\b`), "button"},
		{regexp.MustCompile(`(?i)\blink\b`), "link"},
		{regexp.MustCompile(`(?i)\b(?:text\s*area|textarea)\b`), "textarea"},
		// "the text input" is an <input>, not a text area.
		{regexp.MustCompile(`(?i)\b(?:text\s*input|input(?:\s*field|\s*box)?)\b`), "input"},
		{regexp.MustCompile(`(?i)\b(?:text\s*field|text\s*box|textbox|field|search\s*box)\b`), "textbox"},
		{regexp.MustCompile(`(?i)\b(?:dropdown|drop-down|select(?:\s*box)?|combo\s*box|picker|list\s*box|listbox|(?:scroll(?:ing)?\s+|selection\s+)?list)\b`), "combobox"},
		{regexp.MustCompile(`(?i)\btree\s*item\b`), "treeitem"},
		// A date or time field is named by its kind when nothing else names it.
		{regexp.MustCompile(`(?i)^\s*(?:the\s+)?date(?:\s+field)?\s*$`), "date"},
		{regexp.MustCompile(`(?i)^\s*(?:the\s+)?time(?:\s+field)?\s*$`), "time"},
		{regexp.MustCompile(`(?i)\btab\b`), "tab"},
		{regexp.MustCompile(`(?i)\b(?:option|item|entry)\b`), "option"},
	}
	fillers  = regexp.MustCompile(`(?i)\b(?:the|a|an|on|at|top|bottom|left|right|blue|red|green|grey|gray|white|black|primary|icon|called|named|labell?ed|with|text|menu|below|above)\b`)
	ordinals = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "last": -1}
)

func parseTarget(desc string) target {
	var t target
	d := strings.NewReplacer("“", `"`, "”", `"`, "‘", `'`, "’", `'`).Replace(desc)
	// Single quotes become double quotes where they quote, so one pattern reads both.
	d = singleQuoted.ReplaceAllString(d, `$1"$2"`)
	if m := rowContext.FindStringSubmatch(d); m != nil {
		t.row = firstNonEmpty(m[1:]...)
		d = strings.Replace(d, m[0], " ", 1)
	}
	if m := boxContext.FindStringSubmatch(d); m != nil {
		kind := strings.ToLower(m[2])
		switch kind {
		case "modal", "popup":
			kind = "dialog"
		case "navigation":
			kind = "nav"
		}
		t.container = strings.TrimSpace(kind + " " + m[1])
		d = strings.Replace(d, m[0], " ", 1)
	}
	if m := ordinalWord.FindStringSubmatch(d); m != nil {
		if n, ok := ordinals[strings.ToLower(m[1])]; ok {
			t.ordinal = n
		} else {
			t.ordinal, _ = strconv.Atoi(m[2])
		}
		d = strings.Replace(d, m[0], " ", 1)
	}
	outside := quoted.ReplaceAllString(d, " ")
	for _, rw := range roleWords {
		if rw.re.MatchString(outside) {
			t.role = rw.role
			break
		}
	}
	if m := quoted.FindStringSubmatch(d); m != nil {
		t.phrase = firstNonEmpty(m[1:]...)
		return t
	}
	for _, rw := range roleWords {
		if rw.role == "date" || rw.role == "time" {
			continue // a field may well be called "Date": the word stays the name
		}
		d = rw.re.ReplaceAllString(d, " ")
	}
	// "the button" leaves no phrase: matchScore then matches on the role alone.
	t.phrase = strings.Join(strings.Fields(fillers.ReplaceAllString(d, " ")), " ")
	return t
}

// Resolve finds the one element that desc describes for the given action, by visible
// text, label, placeholder, accessible name or title — DOM-first, no model. It returns
// Index -1 when no element or several elements match equally well; the candidates say which.
func Resolve(desc string, action plan.Action, elems []Element) Resolution {
	t := parseTarget(desc)
	pool := preferAll(elems, func(e Element) bool { return fits(action, e) })
	if t.row != "" {
		pool = filterAll(pool, func(e Element) bool { return containsFold(e.Row, t.row) })
	}
	if t.container != "" {
		pool = filterAll(pool, func(e Element) bool { return containsFold(e.Container, t.container) })
	}
	best, matched := -1, map[int]string{}
	var cands []Element
	for _, e := range pool {
		score, field := matchScore(t.phrase, e)
		if score == 0 {
			continue
		}
		switch {
		case score > best:
			best, cands = score, []Element{e}
		case score == best:
			cands = append(cands, e)
		}
		matched[e.Index] = field
	}
	if len(cands) == 0 && (t.role == "date" || t.role == "time") {
		// Nothing is called "date": the one date field is what "the date" means.
		for _, e := range pool {
			if roleFits(t.role, e) {
				cands = append(cands, e)
				matched[e.Index] = "type"
			}
		}
	}
	if t.role != "" {
		cands = preferAll(cands, func(e Element) bool { return roleFits(t.role, e) })
	}
	if t.role == "textbox" {
		// A text box, said plainly, is a one-line field; a text area is called that.
		cands = preferAll(cands, func(e Element) bool { return e.Tag != "textarea" })
	}
	cands = preferAll(cands, func(e Element) bool { return !e.Disabled })
	switch {
	case len(cands) == 0:
		return Resolution{Index: -1, Reason: fmt.Sprintf("no visible element matches %q", desc)}
	case t.ordinal != 0:
		i := t.ordinal - 1
		if t.ordinal < 0 {
			i = len(cands) - 1
		}
		if i >= len(cands) {
			return Resolution{Index: -1, Candidates: cands, Reason: fmt.Sprintf("%q asks for number %d but only %d elements match", desc, t.ordinal, len(cands))}
		}
		return Resolution{Index: cands[i].Index, Matched: matched[cands[i].Index]}
	case len(cands) == 1:
		return Resolution{Index: cands[0].Index, Matched: matched[cands[0].Index]}
	}
	refs := make([]string, 0, len(cands))
	for _, c := range cands {
		refs = append(refs, c.Ref())
	}
	if len(cands) > 8 {
		cands = cands[:8]
	}
	return Resolution{Index: -1, Candidates: cands, Reason: fmt.Sprintf("%d elements match %q equally well: %s", len(refs), desc, strings.Join(refs, ", "))}
}

// Scores of matchScore, best first.
const (
	scoreExact     = 8 // the whole text
	scorePrefix    = 6 // whole words at the start
	scoreWords     = 4 // whole words anywhere
	scoreSubstring = 2
	scoreHint      = 1 // the developer's names for an icon-only control; or no phrase at all
)

// matchScore rates how well the phrase names the element by its visible text, label,
// placeholder, accessible name, title or id; when none match, by its hints (class names,
// icon names) read with common icon synonyms. 0 is no match. An empty phrase matches any
// element weakly, so "the button" with one button resolves.
func matchScore(phrase string, e Element) (int, string) {
	p := norm(phrase)
	if p == "" {
		return scoreHint, "role"
	}
	fields := []struct{ name, v string }{
		{"name", e.Name}, {"text", e.Text}, {"label", e.Label}, {"placeholder", e.Placeholder},
		{"title", e.Title}, {"id", e.ID},
	}
	best, field := 0, ""
	for _, f := range fields {
		// The description lost its fillers ("the", "a", "icon"...): the name is read
		// without them too, so "Open the report" still is the link "Open the report".
		for _, v := range []string{norm(f.v), norm(fillers.ReplaceAllString(f.v, " "))} {
			if s := phraseScore(p, v); s > best {
				best, field = s, f.name
			}
		}
	}
	if best == 0 && iconMatch(p, e) {
		return scoreHint, "hints"
	}
	return best, field
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

// iconGroups are words people and developers use for the same icon.
var iconGroups = [][]string{
	{"close", "x", "×", "✕", "✖", "dismiss"},
	{"delete", "trash", "bin", "remove", "garbage", "rubbish", "🗑"},
	{"star", "favorite", "favourite", "fav", "★", "☆"},
	{"edit", "pencil", "pen", "✎", "✏"},
	{"search", "magnifier", "magnifying", "find", "🔍"},
	{"menu", "hamburger", "kebab", "more", "ellipsis", "dots", "⋯", "…", "☰"},
	{"settings", "gear", "cog", "preferences", "⚙"},
	{"add", "plus", "+", "create"},
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
	{"help", "question", "?"},
	{"info", "information", "ℹ"},
	{"download"}, {"upload"}, {"share"}, {"sort"}, {"calendar", "date"},
}

var iconWord = map[string]int{}

func init() {
	for i, g := range iconGroups {
		for _, w := range g {
			iconWord[w] = i + 1
		}
	}
}

// iconMatch reports whether a word of the phrase names the same icon as a word of the
// element's hints, or its one-symbol text.
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
	for _, w := range strings.Fields(phrase) {
		if g := iconWord[w]; g > 0 && have[g] {
			return true
		}
	}
	return false
}

var camel = regexp.MustCompile(`([a-z0-9])([A-Z])`)

// splitWords splits ids and class names into words: "btn-close iconTrash" → btn close icon trash.
func splitWords(s string) []string {
	s = camel.ReplaceAllString(s, "$1 $2")
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return r == '-' || r == '_' || r == ' ' || r == '#' || r == '.' || r == '/' || r == ':'
	})
}

func norm(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	return strings.Trim(s, " :*.")
}

// fits reports whether the action can be done to the element.
func fits(a plan.Action, e Element) bool {
	switch a {
	case plan.Type:
		return e.Editable() || e.Tag == "select"
	case plan.Select:
		return e.Tag == "select" || e.Role == "combobox" || e.Role == "listbox" || e.Editable()
	case plan.Check:
		return e.Checked != nil || e.Role == "checkbox" || e.Role == "radio" || e.Role == "switch"
	}
	return true
}

func roleFits(role string, e Element) bool {
	switch role {
	case "textbox":
		return e.Editable()
	case "input":
		return e.Tag == "input" && e.Editable()
	case "textarea":
		return e.Tag == "textarea" || (e.Role == "textbox" && e.Tag != "input")
	case "combobox":
		return e.Tag == "select" || e.Role == "combobox" || e.Role == "listbox"
	case "option":
		return e.Role == "option" || e.Role == "menuitem" || e.Role == "menuitemcheckbox" || e.Role == "menuitemradio"
	case "button":
		return e.Role == "button" || e.Tag == "button" || e.Role == "clickable"
	case "link":
		return e.Role == "link" || e.Role == "clickable"
	case "date", "time":
		return e.Tag == "input" && e.Type == role
	}
	return e.Role == role
}

// preferAll keeps the elements that satisfy keep, unless none do.
func preferAll(elems []Element, keep func(Element) bool) []Element {
	if out := filterAll(elems, keep); len(out) > 0 {
		return out
	}
	return elems
}

func filterAll(elems []Element, keep func(Element) bool) []Element {
	var out []Element
	for _, e := range elems {
		if keep(e) {
			out = append(out, e)
		}
	}
	return out
}

func containsFold(s, sub string) bool { return strings.Contains(norm(s), norm(sub)) }

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
