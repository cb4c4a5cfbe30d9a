package plan

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Target is a target description read once into its parts. Every part the description
// names must hold for an element to be a candidate: its kind, its name, the row or card it
// sits in, the container around it and its ordinal among the elements that satisfy the
// rest. A plan step carries it (Step.Target); the resolver, the closest-match feedback,
// the reveal, the read and the checks read this, not the text.
type Target struct {
	// Name is the text that names the element: what the description quotes or, when it
	// quotes nothing, what is left of its words.
	Name string `json:"name,omitempty"`
	// Quoted is true when Name is quoted in the description.
	Quoted bool `json:"quoted,omitempty"`
	// Kind is the kind the description names ("button", "icon", "checkbox"), or "".
	Kind string `json:"kind,omitempty"`
	// Ordinal is 1-based; -1 is "last"; 0 is none.
	Ordinal int `json:"ordinal,omitempty"`
	// Of is how many such elements the description says the page has ("the 2nd of 2
	// text fields", written for "both text fields"); 0 says nothing. A page with another
	// number of them is not the page the goal was written for: the resolver refuses.
	Of int `json:"of,omitempty"`
	// Row is the name of the row, card or item the element is inside ("in the row
	// "Apollo"", "in the email from "Helena""); RowNoun is what the description calls it.
	Row     string `json:"row,omitempty"`
	RowNoun string `json:"row_noun,omitempty"`
	// Container is the dialog, menu, form or navigation the element is in ("dialog New
	// project").
	Container string `json:"container,omitempty"`
	// InList is "a search result": the element sits in a repeated item of a list.
	InList bool `json:"in_list,omitempty"`
	// Position is where on the page: "top", "bottom right", "left".
	Position string `json:"position,omitempty"`
	// Every is "every "Like" icon for "@ann"": the step acts on each element that
	// satisfies the rest, however many the page shows (none is refused).
	Every bool `json:"every,omitempty"`
	// Starts and Ends are "the item that starts with "Egy" and ends with "gypt"": the
	// element's own text begins and ends so. They name an element by part of its text
	// where a goal gives no more, as with a list of suggestions; either may be empty.
	Starts string `json:"starts,omitempty"`
	Ends   string `json:"ends,omitempty"`
	// Labelled is "the value of "Phone"": the target is what the page writes beside the
	// label Name (the link or the text after "Phone:"), not the label itself. Cards and
	// forms name their values so; the label is how a person finds the one meant.
	Labelled bool `json:"labelled,omitempty"`
}

var (
	singleQuoted = regexp.MustCompile(`(^|[\s(])'([^']+)'`)
	quoted       = regexp.MustCompile(`"([^"]+)"|“([^”]+)”|'([^']+)'`)
	rowContext   = regexp.MustCompile(`(?i)\b(?:in|on|of|for|from)\s+(?:the\s+)?(?:row|line|item|entry|card)\s+(?:for\s+|of\s+|named\s+|called\s+)?"([^"]+)"|\b(?:in|on|of|for)\s+(?:the\s+)?"([^"]+)"\s+(?:row|line|item|entry|card)|\b(?:next\s+to|beside|for)\s+"([^"]+)"`)
	// nounContext is "in the email from "Helena"", "inside the panel "Trash"" or "in the
	// "Trash" panel": the target is inside the thing named, and is not that thing.
	nounContext = regexp.MustCompile(`(?i)\b(?:in|inside|within)\s+(?:the\s+)?"([^"]+)"\s+([a-z]+)\b|\b(?:in|inside|within|on)\s+(?:the\s+|an?\s+)?([a-z]+(?:\s+[a-z]+)??)\s+(?:(from|by|named|called|titled|about|for|of|with|to)\s+)?"([^"]+)"`)
	boxContext  = regexp.MustCompile(`(?i)\b(?:in|inside|within|from)\s+(?:the\s+)?(?:"([^"]+)"\s+)?(menu|dialog|modal|popup|form|navigation|nav|sidebar)\b`)
	// startsWith and endsWith are "that starts with "Egy"" and "and ends with "gypt"".
	startsWith = regexp.MustCompile(`(?i)\s*\b(?:(?:that|which)\s+)?(?:starts?|starting|begins?|beginning)\s+with\s+"([^"]+)"`)
	endsWith   = regexp.MustCompile(`(?i)\s*,?\s*\b(?:(?:and|that|which)\s+)?(?:ends?|ending)\s+with\s+"([^"]+)"`)
	// valueOfLabel is "the value of" before a quoted label: the target is the value
	// written beside that label (Target.Labelled).
	valueOfLabel = regexp.MustCompile(`(?i)^\s*(?:the\s+)?value\s+(?:of|for|beside|next\s+to)\s+(?:the\s+)?(?:label\s+)?"`)
	// mainMenu is the page's own menu, which its menu button opens: "the main menu".
	mainMenu = regexp.MustCompile(`(?i)^\s*(?:the\s+)?(?:main|hamburger|app|application)\s+menu(?:\s+(?:button|icon))?\s*$`)
	// everyWord is "every" before a quoted name: each element so named.
	everyWord = regexp.MustCompile(`(?i)^\s*(?:on\s+)?(?:the\s+)?every\s+(?:")`)
	// ofCount is the count after an ordinal: "the 2nd of 3 sliders".
	ofCount     = regexp.MustCompile(`(?i)(?:\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)|\b\d+(?:st|nd|rd|th))\s+(of\s+(\d+|two|three|four|five|six|seven|eight|nine|ten))\b`)
	ordinalWord = regexp.MustCompile(`(?i)\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|(\d+)(?:st|nd|rd|th))\b`)
	// placeContext is a place named by quoted words alone, at the end of a description that
	// quotes its target's own name first: `the "Edit" button in "Trip ideas"`.
	placeContext = regexp.MustCompile(`(?i)\s(?:in|inside|within|under)\s+"([^"]+)"\s*$`)
	listWords    = regexp.MustCompile(`(?i)^(?:search\s+)?results?$`)
	roleWords    = []struct {
		re   *regexp.Regexp
		role string
	}{
		// "the collapsed section": the one control the page shows collapsed, whatever it
		// calls itself.
		{regexp.MustCompile(`(?i)\bcollapsed(?:\s+(?:section|panel|accordion|group|details|menu|node))?\b`), "collapsed"},
		// "the focused field": the one the page has focused, whatever it is called.
		{regexp.MustCompile(`(?i)\bfocused(?:\s+(?:field|element|input|box|text\s*box))?\b`), "focused"},
		{regexp.MustCompile(`(?i)\bmenu\s*item\b`), "menuitem"},
		{regexp.MustCompile(`(?i)\b(?:check\s*box|checkbox)\b`), "checkbox"},
		{regexp.MustCompile(`(?i)\b(?:radio(?:\s*button)?)\b`), "radio"},
		{regexp.MustCompile(`(?i)\b(?:button|btn)\b`), "button"},
		{regexp.MustCompile(`(?i)\blink\b`), "link"},
		{regexp.MustCompile(`(?i)\bicon\b`), "icon"},
		{regexp.MustCompile(`(?i)\b(?:text\s*area|textarea)\b`), "textarea"},
		// A text editor is the box a rich-text editor draws, or else a text area.
		{regexp.MustCompile(`(?i)\b(?:rich[\s-]?)?(?:text\s+)?editor\b`), "editor"},
		// "the text input" is an <input>, not a text area.
		{regexp.MustCompile(`(?i)\b(?:text\s*input|input(?:\s*field|\s*box)?)\b`), "input"},
		{regexp.MustCompile(`(?i)\b(?:text\s*field|text\s*box|textbox|search\s*box)\b`), "textbox"},
		// A field, said plainly, is any form field: a list to choose from is one too.
		{regexp.MustCompile(`(?i)\bfield\b`), "field"},
		{regexp.MustCompile(`(?i)\b(?:dropdown|drop-down|select(?:\s*box)?|combo\s*box|picker|list\s*box|listbox|(?:scroll(?:ing)?\s+|selection\s+)?list)\b`), "combobox"},
		{regexp.MustCompile(`(?i)\btree\s*item\b`), "treeitem"},
		{regexp.MustCompile(`(?i)\bslider\b`), "slider"},
		{regexp.MustCompile(`(?i)\b(?:switch|toggle)\b`), "switch"},
		// A date or time field is named by its kind when nothing else names it.
		{regexp.MustCompile(`(?i)^\s*(?:the\s+)?date(?:\s+field)?\s*$`), "date"},
		{regexp.MustCompile(`(?i)^\s*(?:the\s+)?time(?:\s+field)?\s*$`), "time"},
		{regexp.MustCompile(`(?i)\btab\b`), "tab"},
		{regexp.MustCompile(`(?i)\b(?:option|item|entry|suggestion)\b`), "option"},
	}
	Fillers  = regexp.MustCompile(`(?i)\b(?:the|a|an|on|at|top|bottom|left|right|blue|red|green|grey|gray|white|black|primary|icon|called|named|labell?ed|with|text|menu|below|above)\b`)
	ordinals = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "last": -1}
	// boxKinds are the containers an observation names (Element.Container's first word).
	boxKinds = map[string]string{"menu": "menu", "dialog": "dialog", "modal": "dialog", "popup": "dialog", "form": "form", "navigation": "nav", "nav": "nav", "sidebar": "sidebar"}
)

// ParseTarget reads a target description into its parts.
func ParseTarget(desc string) Target {
	var t Target
	d := strings.NewReplacer("“", `"`, "”", `"`, "‘", `'`, "’", `'`).Replace(desc)
	// Single quotes become double quotes where they quote, so one pattern reads both.
	d = singleQuoted.ReplaceAllString(d, `$1"$2"`)
	if loc := everyWord.FindStringIndex(d); loc != nil {
		t.Every = true
		d = d[:loc[0]] + " " + d[loc[1]-1:] // the quote stays
	}
	if m := startsWith.FindStringSubmatch(d); m != nil {
		t.Starts, d = m[1], strings.Replace(d, m[0], " ", 1)
	}
	if m := endsWith.FindStringSubmatch(d); m != nil {
		t.Ends, d = m[1], strings.Replace(d, m[0], " ", 1)
	}
	if loc := valueOfLabel.FindStringIndex(d); loc != nil {
		// Read before the row: "the value for "Phone"" is not the row "Phone".
		t.Labelled = true
		d = d[loc[1]-1:] // the quote stays
	}
	if m := rowContext.FindStringSubmatch(d); m != nil {
		t.Row = firstOf(m[1:]...)
		d = strings.Replace(d, m[0], " ", 1)
	}
	if m := boxContext.FindStringSubmatch(d); m != nil {
		kind := boxKinds[strings.ToLower(m[2])]
		t.Container = strings.TrimSpace(kind + " " + m[1])
		d = strings.Replace(d, m[0], " ", 1)
	}
	if t.Row == "" {
		d = t.readNounContext(d)
	}
	if m := placeContext.FindStringSubmatch(d); m != nil && t.Row == "" && t.Container == "" && quoted.MatchString(d[:len(d)-len(m[0])]) {
		// `the "Edit" button in "Trip ideas"`: inside the item the quoted words name.
		t.Row, t.RowNoun = m[1], "item named"
		d = strings.Replace(d, m[0], " ", 1)
	}
	d = t.readPosition(d)
	if m := ofCount.FindStringSubmatchIndex(d); m != nil {
		t.Of = countOf(d[m[2]:m[3]])
		d = d[:m[2]] + d[m[3]:] // the ordinal stays, for ordinalWord
	}
	if m := ordinalWord.FindStringSubmatch(d); m != nil {
		t.Ordinal = ReadOrdinal(m[1])
		d = strings.Replace(d, m[0], " ", 1)
	}
	if !quoted.MatchString(d) && mainMenu.MatchString(d) {
		// "the main menu" is the page's menu button, an icon of three bars.
		t.Name, t.Kind = "menu", "icon"
		return t
	}
	outside := quoted.ReplaceAllString(d, " ")
	for _, rw := range roleWords {
		if rw.re.MatchString(outside) {
			t.Kind = rw.role
			break
		}
	}
	if m := quoted.FindStringSubmatch(d); m != nil {
		t.Name, t.Quoted = firstOf(m[1:]...), true
		return t
	}
	for _, rw := range roleWords {
		if rw.role == "date" || rw.role == "time" {
			continue // a field may well be called "Date": the word stays the name
		}
		d = rw.re.ReplaceAllString(d, " ")
	}
	// "the button" leaves no phrase: matchScore then matches on the role alone.
	t.Name = strings.Join(strings.Fields(Fillers.ReplaceAllString(d, " ")), " ")
	if listWords.MatchString(t.Name) {
		// "the 2nd search result link" names no link: it counts the links of a list.
		t.Name, t.InList = "", true
	}
	return t
}

// readNounContext reads "in the email from "X"" (a row: X's item holds the target) or
// "in the "X" dialog" (a container), and returns d without it. A thing named directly
// ("the email from "X"") is the target itself, not where it sits: only "in", "inside",
// "within" and "on" make it a place.
func (t *Target) readNounContext(d string) string {
	m := nounContext.FindStringSubmatch(d)
	if m == nil {
		return d
	}
	noun, name, conn := strings.ToLower(m[2]), m[1], ""
	if m[1] == "" {
		noun, conn, name = strings.ToLower(m[3]), strings.ToLower(m[4]), m[5]
	}
	words := strings.Fields(noun)
	last := words[len(words)-1]
	if notPlaces[last] || notPlaces[words[0]] || roleWord(last) != "" {
		// "in the "Name" column", "in the "Notes" field": not something the target is in.
		return d
	}
	if kind, ok := boxKinds[last]; ok {
		t.Container = kind + " " + name
	} else {
		t.Row, t.RowNoun = name, strings.TrimSpace(noun+" "+conn)
	}
	return strings.Replace(d, m[0], " ", 1)
}

// notPlaces are nouns a description may follow "in the" with that observations do not
// place an element in.
var notPlaces = map[string]bool{"the": true, "a": true, "an": true, "column": true, "page": true, "screen": true, "window": true, "tab": true, "table": true, "list": true, "box": true}

// roleWord is the kind a single word names, or "".
func roleWord(w string) string {
	for _, rw := range roleWords {
		if rw.re.MatchString(w) && rw.role != "date" && rw.role != "time" {
			return rw.role
		}
	}
	return ""
}

// positionWords are where a description says the element is on the page: "at the top
// right", "on the left", "the bottom "Save" button". They choose among elements that
// satisfy every other part and tie; they never stand in for a name.
var positionWords = regexp.MustCompile(`(?i)\b(?:at|on|in)\s+the\s+(top|bottom|left|right)(?:[\s-]+(left|right))?\b|\b(top|bottom|upper|lower|leftmost|rightmost|topmost|bottommost)\b\s+"`)

// readPosition reads the position words of d into t and returns d without them.
func (t *Target) readPosition(d string) string {
	m := positionWords.FindStringSubmatchIndex(d)
	if m == nil {
		return d
	}
	for _, q := range quoted.FindAllStringIndex(d, -1) {
		if m[0] > q[0] && m[0] < q[1] {
			return d // words of a quoted name: "Stay on the left" names a link
		}
	}
	var words []string
	for g := 1; g <= 3; g++ {
		if m[2*g] >= 0 {
			words = append(words, strings.ToLower(d[m[2*g]:m[2*g+1]]))
		}
	}
	t.Position = strings.Join(words, " ")
	end := m[1]
	if m[6] >= 0 {
		end = m[7] // keep the quote the adjective stood before
	}
	return d[:m[0]] + " " + d[end:]
}

var numberWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}

// ReadOrdinal reads an ordinal: "second" is 2, "4th" is 4, "last" is -1; 0 is none. It is
// Ordinal's reverse, and how the browser reads the ordinals of the texts it reads too.
func ReadOrdinal(w string) int {
	w = strings.ToLower(w)
	if n, ok := ordinals[w]; ok {
		return n
	}
	n, _ := strconv.Atoi(strings.TrimRight(w, "stndrh"))
	return n
}

// countOf reads "of 3" or "of three" as 3.
func countOf(s string) int {
	w := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(strings.ToLower(s), "of")))
	if n, ok := numberWords[w]; ok {
		return n
	}
	n, _ := strconv.Atoi(w)
	return n
}

// firstOf is the first of vs that is not empty.
func firstOf(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// Describe says every part of the target in words, for the model's prompts and for
// people: `icon "trash", inside the email from "Helena"`, `the 2nd link, in the list of
// results`, `button "Save", in the dialog "New project", at the top right`.
func (t Target) Describe() string {
	kind := t.Kind
	if kind == "" {
		kind = "element"
	}
	s := kind
	if t.Name != "" {
		s += " " + strconv.Quote(t.Name)
	}
	if t.Starts != "" {
		s += " that starts with " + strconv.Quote(t.Starts)
	}
	switch {
	case t.Ends != "" && t.Starts != "":
		s += " and ends with " + strconv.Quote(t.Ends)
	case t.Ends != "":
		s += " that ends with " + strconv.Quote(t.Ends)
	}
	if t.Every {
		s = "every " + s
	}
	if t.Labelled {
		s = "the value written beside the label " + strconv.Quote(t.Name)
	}
	if t.Ordinal != 0 {
		of := ""
		if t.Of != 0 {
			of = fmt.Sprintf("of %d ", t.Of)
		}
		s = "the " + Ordinal(t.Ordinal) + " " + of + s
	}
	var parts []string
	if t.InList {
		parts = append(parts, "in the list of results")
	}
	switch {
	case t.Row != "" && t.RowNoun != "":
		parts = append(parts, "inside the "+t.RowNoun+" "+strconv.Quote(t.Row)+" (not that item itself)")
	case t.Row != "":
		parts = append(parts, "in the row "+strconv.Quote(t.Row)+" (not the row itself)")
	}
	if t.Container != "" {
		parts = append(parts, "in the "+t.Container)
	}
	if t.Position != "" {
		parts = append(parts, "at the "+t.Position)
	}
	return strings.Join(append([]string{s}, parts...), ", ")
}

// Ordinal writes n as an ordinal: "1st", "2nd", and -1 as "last".
func Ordinal(n int) string {
	if n < 0 {
		return "last"
	}
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}
