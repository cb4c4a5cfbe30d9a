package plan

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
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
	// Picture is the icon a description says its quoted element shows (`the "Reclaim
	// this Wiki" lock`, `the "Delete" trash can`): the element's icon, glyph or name must
	// say that icon too, or it is not the element meant.
	Picture string `json:"picture,omitempty"`
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
	// Column is the header of the table's column the element is in: "in the "Budgeted"
	// column", `the "Budgeted" amount` (in a row: that row's cell under it).
	Column string `json:"column,omitempty"`
	// Appeared is "in the list that appears": the element is among what the step before
	// brought onto the page (an autocomplete's suggestions), and nowhere else.
	Appeared bool `json:"appeared,omitempty"`
	// Opened is "its Name" said of an item a step before opened: the element in the item's
	// row while the row is on the page, else on the page the item opened (its form).
	Opened bool `json:"opened,omitempty"`
	// Beside is "next to "Search"" or "beside "Search"": Row names the item the element is
	// in, or, where no item is named so, the one element on the page it sits beside.
	Beside bool `json:"beside,omitempty"`
	// Outside is "outside it", "somewhere else on the page": no element, but a blank spot
	// of the page away from the field the step before left focused, where a click only
	// takes the focus away (an editor opened in place saves so).
	Outside bool `json:"outside,omitempty"`
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
	// Tab is "on the "Account" tab": the tab whose panel the element is on, open when
	// the step is taken (a step does not open a tab nobody asked for).
	Tab string `json:"tab,omitempty"`
	// SignIn is a part of the page's one sign-in form, named by what it is there, not by
	// its label: SignInUser, SignInPassword or SignInButton (signin.go).
	SignIn string `json:"sign_in,omitempty"`
}

var (
	// Fillers are the words of a description that say nothing of the element's name: what
	// is left of a description without them is the name it is matched by.
	Fillers  = regexp.MustCompile(`(?i)\b(?:the|a|an|on|at|top|bottom|left|right|blue|red|green|grey|gray|white|black|primary|icon|called|named|labell?ed|with|text|menu|below|above)\b`)
	ordinals = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "last": -1}
	// boxKinds are the containers an observation names (Element.Container's first word).
	boxKinds = map[string]string{"menu": "menu", "dialog": "dialog", "modal": "dialog", "popup": "dialog", "form": "form", "navigation": "nav", "nav": "nav", "sidebar": "sidebar", "toolbar": "toolbar", "tool bar": "toolbar",
		"button bar": "toolbar", "buttons bar": "toolbar", "bar of buttons": "toolbar", "row of buttons": "toolbar", "action bar": "toolbar"}
)

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

// Describe says every part of the target in words, for the model's prompts and for
// people: `icon "trash", inside the email from "Helena"`, `the 2nd link, in the list of
// results`, `button "Save", in the dialog "New project", at the top right`.
func (t Target) Describe() string {
	if t.SignIn != "" {
		return signInDescription(t.SignIn)
	}
	if t.Outside {
		return "a blank spot of the page, outside the element the step before left focused"
	}
	kind := t.Kind
	if kind == "" {
		kind = "element"
	}
	s := kind
	if t.Name != "" {
		s += " " + strconv.Quote(t.Name)
	}
	if t.Picture != "" {
		s += " showing a " + t.Picture
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
	if t.Column != "" {
		parts = append(parts, "in the column "+strconv.Quote(t.Column))
	}
	if t.Container != "" {
		parts = append(parts, "in the "+t.Container)
	}
	if t.Position != "" {
		parts = append(parts, "at the "+t.Position)
	}
	if t.Tab != "" {
		parts = append(parts, "on the "+strconv.Quote(t.Tab)+" tab")
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

// ItemNoun splits an unquoted name that starts or ends with what people call a list's
// item ("message Quarterly budget review", "Weekly deals message") into the noun and the
// name left: a description that says what the thing is, as well as its name. The name as
// written is matched first; this reading is the resolver's second, when nothing is named
// so with the noun (a "Send message" button keeps its whole name). ok is false when the
// name has no such noun, or nothing is left without it. A name whose first and last
// words are both such nouns ("invoices queue") reads either way: ItemNouns gives both.
func ItemNoun(name string) (noun, rest string, ok bool) {
	r := ItemNouns(name)
	if len(r) == 0 {
		return "", "", false
	}
	return r[0][0], r[0][1], true
}

// ItemNouns is each reading of ItemNoun, the noun first before the noun last: noun and
// rest in each.
func ItemNouns(name string) [][2]string {
	f := strings.Fields(name)
	if len(f) < 2 {
		return nil
	}
	var r [][2]string
	if first := strings.ToLower(f[0]); itemNounSet[first] || KindBeforeName(f[0], f[1]) {
		// "the post Hello", or a word in lower case before a name written as the page
		// writes one ("the workflow Invoice Sync (EU)"): what kind of thing it is, then
		// its name, held exactly (the resolver holds such a word to the page's own words).
		r = append(r, [2]string{first, strings.Join(f[1:], " ")})
	}
	if last := strings.ToLower(f[len(f)-1]); itemNounSet[last] {
		r = append(r, [2]string{last, strings.Join(f[:len(f)-1], " ")})
	}
	return r
}

// KindBeforeName reports a word of three letters or more in lower case (no filler, no
// kind of control, no word of looks, age or place: "the red Save button" names no kind)
// before a word that starts in upper case or with a digit.
func KindBeforeName(w, next string) bool {
	if len(w) < 3 || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" || Fillers.MatchString(w) || roleWord(w) != "" || notKinds[w] || positionWord[w] {
		return false
	}
	r := []rune(next)[0]
	return unicode.IsUpper(r) || unicode.IsDigit(r)
}

// IsItemNoun reports a word people call a list's item by ("message", "post", "user").
func IsItemNoun(w string) bool { return itemNounSet[strings.ToLower(w)] }

// notKinds are words before a name that say how it looks, how old it is or which one, not
// what kind of thing it is.
var notKinds = setOf("red green blue yellow orange purple violet pink black white grey gray brown golden silver dark light " +
	"big bigger biggest small smaller smallest large larger largest tiny huge little long short wide narrow tall bold " +
	"new newer newest old older oldest latest recent current other another same main primary secondary active inactive " +
	"selected unselected disabled enabled highlighted empty full open closed shown hidden visible")

// itemNounSet is itemNounList as a set.
var itemNounSet = setOf(itemNounList)

// purposeSet are purposeList's words, and pictureNouns the words after one that say it is
// a picture ("trash can", "plus sign").
var purposeSet, pictureNouns = setOf(purposeList), setOf("can sign symbol")

// pictureOf is the icon the words beside a quoted name say the element shows ("lock",
// "trash can"), or "".
func pictureOf(outside string) string {
	var p []string
	for _, w := range strings.Fields(strings.ToLower(outside)) {
		if purposeSet[w] || (len(p) > 0 && pictureNouns[w]) {
			p = append(p, w)
		}
	}
	return strings.Join(p, " ")
}
