package noise

import (
	"regexp"
	"strconv"
	"strings"
)

// Elem is one line of a prompt's element list: `#5 button "Create" in dialog New project
// row="..."`. The line may carry more attributes than these; they are passed over.
type Elem struct {
	Index     int
	Role      string
	Name      string
	Value     string
	Row       string
	Container string
}

// Page is a prompt's numbered element list.
type Page struct {
	Elems []Elem
}

var (
	elemLine  = regexp.MustCompile(`^#(\d+) (\S+) "((?:[^"\\]|\\.)*)"(.*)$`)
	quotedStr = `"((?:[^"\\]|\\.)*)"`
	rowAttr   = regexp.MustCompile(`(?:^|\s)row=` + quotedStr)
	valueAttr = regexp.MustCompile(`(?:^|\s)value=` + quotedStr)
	anyQuoted = regexp.MustCompile(`\w*=?` + quotedStr)
	inWord    = regexp.MustCompile(`(?:^|\s)in (\S+)`)
)

func unquote(s string) string {
	if u, err := strconv.Unquote(`"` + s + `"`); err == nil {
		return u
	}
	return s
}

// ParsePage reads every element line of a prompt.
func ParsePage(prompt string) Page {
	var p Page
	for _, line := range strings.Split(prompt, "\n") {
		m := elemLine.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		i, _ := strconv.Atoi(m[1])
		e := Elem{Index: i, Role: m[2], Name: unquote(m[3])}
		rest := m[4]
		if r := rowAttr.FindStringSubmatch(rest); r != nil {
			e.Row = unquote(r[1])
		}
		if v := valueAttr.FindStringSubmatch(rest); v != nil {
			e.Value = unquote(v[1])
		}
		// The container is the word after " in ", outside any quoted attribute.
		if c := inWord.FindStringSubmatch(anyQuoted.ReplaceAllString(rest, "")); c != nil {
			e.Container = c[1]
		}
		p.Elems = append(p.Elems, e)
	}
	return p
}

// rowIs says whether an element's row text is the row of project name: the row reads
// the name, then its other cells ("Q4-bugs Medium Team ⋯" is Q4-bugs's, not Q4-bugs-old's).
func rowIs(row, name string) bool {
	return row == name || strings.HasPrefix(row, name+" ")
}

// Is says whether the element is the one w describes (an empty part of w holds for any).
func (e Elem) Is(w Want) bool {
	return (w.Role == "" || e.Role == w.Role) && (w.Name == "" || e.Name == w.Name) &&
		(w.Row == "" || rowIs(e.Row, w.Row)) && (w.Container == "" || e.Container == w.Container)
}

// Find is the element w describes, when exactly one is.
func (p Page) Find(w Want) (Elem, bool) {
	var found []Elem
	for _, e := range p.Elems {
		if e.Is(w) {
			found = append(found, e)
		}
	}
	if len(found) != 1 {
		return Elem{}, false
	}
	return found[0], true
}

// Has says whether some element is the one w describes.
func (p Page) Has(w Want) bool {
	for _, e := range p.Elems {
		if e.Is(w) {
			return true
		}
	}
	return false
}

// Overlaid says whether a menu or a dialog is open.
func (p Page) Overlaid() bool {
	for _, e := range p.Elems {
		if e.Container == "menu" || e.Container == "dialog" {
			return true
		}
	}
	return false
}

// field reads the text after "<label>: " on the first line that starts so.
func field(prompt, label string) string {
	for _, line := range strings.Split(prompt, "\n") {
		if v, ok := strings.CutPrefix(line, label+": "); ok {
			return v
		}
	}
	return ""
}

var stepLine = regexp.MustCompile(`(?m)^Step \d+: (\S+) "((?:[^"\\]|\\.)*)"(?: with value "((?:[^"\\]|\\.)*)")?`)

// promptStep is the step a decider's or evaluator's prompt is about.
type promptStep struct {
	Action, Target, Value string
}

func readStep(prompt string) promptStep {
	m := stepLine.FindStringSubmatch(prompt)
	if m == nil {
		return promptStep{}
	}
	return promptStep{Action: m[1], Target: unquote(m[2]), Value: unquote(m[3])}
}
