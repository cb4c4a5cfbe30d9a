// Package page is the page as the agent perceives it, with no browser attached: the
// visible, interactive elements of one observation and their states, the page's state
// name, DOM-first resolution of a step's target description to one element, the numbered
// copy of a screenshot, and the page-text matching the checks use. The browser package
// fills it from Chromium; the dataset and the model read it from the object store.
package page

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// Box is an element's bounding box in page coordinates (CSS pixels).
type Box struct {
	X int `json:"x"`
	Y int `json:"y"`
	W int `json:"w"`
	H int `json:"h"`
}

// Element is one visible, interactive element of an observation.
type Element struct {
	Index       int    `json:"index"`
	Tag         string `json:"tag"`
	Role        string `json:"role"`
	Name        string `json:"name"`
	Text        string `json:"text,omitempty"`
	Type        string `json:"type,omitempty"`
	Label       string `json:"label,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
	Title       string `json:"title,omitempty"`
	ID          string `json:"id,omitempty"`
	// Hints are the id, classes, icon references and test ids: what names an icon-only
	// control for its developers. They are matched only when no visible text matches.
	Hints     string   `json:"hints,omitempty"`
	Value     string   `json:"value,omitempty"`
	Options   []string `json:"options,omitempty"`
	Checked   *bool    `json:"checked,omitempty"`
	Expanded  *bool    `json:"expanded,omitempty"`
	Selected  *bool    `json:"selected,omitempty"`
	Disabled  bool     `json:"disabled,omitempty"`
	Offscreen bool     `json:"offscreen,omitempty"`
	Focused   bool     `json:"focused,omitempty"`
	// Secret marks a password or one-time-code field: its value is never read.
	Secret bool `json:"secret,omitempty"`
	// StandIn says the element acts through what stands for it: "label" for a checkbox
	// or radio the page styles away, whose visible label is clicked.
	StandIn string `json:"standIn,omitempty"`
	// Frame names the same-origin iframe the element is in; Shadow, an open shadow root.
	Frame  string `json:"frame,omitempty"`
	Shadow bool   `json:"shadow,omitempty"`
	// Prompt is the text just before a field that has no name of its own ("Please enter
	// your reclaim code."): the words a person asked for it would name it by.
	Prompt string `json:"prompt,omitempty"`
	// Container names the dialog, menu, form or navigation the element sits in.
	Container string `json:"container,omitempty"`
	// Band is the page's header or footer the element sits in ("header", "footer"): the
	// bands across the top and the bottom of a page, as its landmarks mark them.
	Band string `json:"band,omitempty"`
	// Row is the text of the table row or list item the element sits in.
	Row string `json:"row,omitempty"`
	// Column is the header of the table's or grid's column the element's cell is in.
	Column string `json:"column,omitempty"`
	// Section is the heading of the section the element is in ("Set permission").
	Section string `json:"section,omitempty"`
	// Dest is a digest of where the control leads: a link's address, a submit button's
	// form and fields (never the address itself, which may hold what a run typed). Alike
	// in role, name and Dest, two controls are one shown twice.
	Dest string `json:"dest,omitempty"`
	// Here marks a link to the page it is on (its address, but for the fragment, or the
	// page says so with aria-current): a click on it leaves the page as it is, and that is
	// what it is for.
	Here bool `json:"here,omitempty"`
	// Fresh marks what the step before brought onto the page (the fields of the section
	// it opened): where a person goes on working.
	Fresh bool `json:"fresh,omitempty"`
	// Near marks what sits in the same section and box as the element the step before
	// acted on: the form a person is filling in.
	Near bool `json:"near,omitempty"`
	Box  Box  `json:"box"`
}

// Ref describes the element in a few words, as feedback and logs show it: #5 button "Create".
func (e Element) Ref() string {
	name := e.Name
	if name == "" {
		name = e.Text
	}
	if e.Index < 0 {
		return fmt.Sprintf("%s %q", e.Role, name) // text that is no control (a double-click target)
	}
	return fmt.Sprintf("#%d %s %q", e.Index, e.Role, name)
}

// Editable reports whether text can be typed into the element: what the browser calls a
// text box, a search box, a spin button or a combo box one types into, and a date or time
// field (which has no ARIA role). A submit, reset, image or file input is a button, a
// range a slider, a colour a picker: none of them takes text, whatever its tag.
func (e Element) Editable() bool {
	switch e.Role {
	case "textbox", "searchbox", "combobox", "spinbutton":
		return e.Tag != "select"
	}
	return e.Tag == "textarea" || (e.Tag == "input" && textual[e.Type])
}

// Chooser reports a list one chooses from as a list: a <select>, or what the page marks
// as a combo box or a list box.
func (e Element) Chooser() bool {
	return e.Tag == "select" || e.Role == "combobox" || e.Role == "listbox"
}

// FormControl reports an element a TYPE fills itself: a text field, a list, or any other
// input or text area (a colour or a range, which Playwright's fill sets too).
func (e Element) FormControl() bool {
	return e.Editable() || e.Tag == "select" || e.Tag == "input" || e.Tag == "textarea"
}

// textual are the input types that take typed text, the date and time fields included.
var textual = map[string]bool{
	"": true, "text": true, "email": true, "tel": true, "url": true, "password": true, "search": true, "number": true,
	"date": true, "time": true, "datetime-local": true, "month": true, "week": true,
}

// Observation is what the page looked like at one moment.
type Observation struct {
	URL       string    `json:"url"`
	Title     string    `json:"title"`
	Elements  []Element `json:"elements"`
	Truncated bool      `json:"truncated,omitempty"`
	Total     int       `json:"total"`
	// Fingerprint changes when the URL, a control or its state, or the page's text changes.
	Fingerprint string `json:"fingerprint"`
	ScrollX     int    `json:"scrollX"`
	ScrollY     int    `json:"scrollY"`
	ScrollMax   int    `json:"scrollMax"`
	// Blocks are the headings and announcements on the page (TextBlock), capped.
	Blocks []TextBlock `json:"blocks,omitempty"`
}

// Compact writes the element list one line per element, with the states a person sees
// (disabled, selected, open, focused, a field's placeholder, a list's first options) and
// where an element out of view is, for logs and prompts.
func (o Observation) Compact() string {
	var b strings.Builder
	for _, e := range o.Elements {
		b.WriteString(e.Ref())
		if e.Value != "" {
			fmt.Fprintf(&b, " value=%q", e.Value)
		} else if e.Placeholder != "" && e.Placeholder != e.Name {
			fmt.Fprintf(&b, " placeholder=%q", truncate(e.Placeholder, 40))
		}
		if e.Checked != nil {
			fmt.Fprintf(&b, " checked=%v", *e.Checked)
		}
		b.WriteString(states(e))
		if len(e.Options) > 0 {
			b.WriteString(" options=" + options(e.Options, 5))
		}
		if e.Name == "" && e.Hints != "" {
			fmt.Fprintf(&b, " hints=%q", e.Hints)
		}
		if e.Prompt != "" {
			fmt.Fprintf(&b, " prompt=%q", truncate(e.Prompt, 50))
		}
		if e.Container != "" {
			fmt.Fprintf(&b, " in %s", e.Container)
		}
		if e.Row != "" {
			fmt.Fprintf(&b, " row=%q", truncate(e.Row, 50))
		}
		if e.Column != "" {
			fmt.Fprintf(&b, " column=%q", truncate(e.Column, 30))
		}
		if e.Frame != "" {
			fmt.Fprintf(&b, " in frame %q", e.Frame)
		}
		if e.Offscreen {
			b.WriteString(" (" + o.where(e) + ")")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// states are the element's states as flags: " disabled selected expanded=false focused".
func states(e Element) string {
	var s string
	if e.Disabled {
		s += " disabled"
	}
	if e.Selected != nil && *e.Selected {
		s += " selected"
	}
	if e.Expanded != nil {
		s += fmt.Sprintf(" expanded=%v", *e.Expanded)
	}
	if e.Focused {
		s += " focused"
	}
	if e.Here {
		s += " here"
	}
	return s
}

// options lists a list's first n options, and how many more there are.
func options(opts []string, n int) string {
	shown := make([]string, 0, n)
	for i := 0; i < len(opts) && i < n; i++ {
		shown = append(shown, fmt.Sprintf("%q", truncate(opts[i], 30)))
	}
	s := "[" + strings.Join(shown, ", ")
	if len(opts) > n {
		s += fmt.Sprintf(", +%d more", len(opts)-n)
	}
	return s + "]"
}

// where says where an element out of view is: above or below the viewport, or beside it.
func (o Observation) where(e Element) string {
	switch {
	case e.Box.Y+e.Box.H <= o.ScrollY:
		return "above the viewport"
	case e.Box.Y > o.ScrollY:
		return "below the viewport"
	}
	return "off-screen"
}

var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

// Slug writes s in lower case with dashes, at most n bytes.
func Slug(s string, n int) string {
	s = strings.Trim(nonWord.ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(s) > n {
		s = strings.Trim(s[:n], "-")
	}
	return s
}

// Overlay names what covers the page, if anything: "dialog-<name>" for an open dialog,
// "menu" for an open menu or list box, "" for neither.
func (o Observation) Overlay() string {
	menu := false
	for _, e := range o.Elements {
		if e.Offscreen {
			continue
		}
		c := e.Container
		if strings.HasPrefix(c, "dialog") || strings.HasPrefix(c, "alertdialog") {
			return strings.TrimRight("dialog-"+Slug(strings.TrimPrefix(strings.TrimPrefix(c, "alertdialog"), "dialog"), 40), "-")
		}
		menu = menu || strings.HasPrefix(c, "menu") || strings.HasPrefix(c, "listbox")
	}
	if menu {
		return "menu"
	}
	return ""
}

// State is the page's state as a replayed step expects it: the URL's path and what
// covers the page ("/projects#dialog-new-project", "/projects#page").
func (o Observation) State() string {
	path := o.URL
	if u, err := url.Parse(o.URL); err == nil {
		path = u.Path
	}
	ov := o.Overlay()
	if ov == "" {
		ov = "page"
	}
	return path + "#" + ov
}

// SameAs reports whether o is the element e, found again: the same role and name in the
// same row and container. Its number and box may have moved since.
func (e Element) SameAs(o Element) bool {
	return e.Role == o.Role && e.Name == o.Name && e.Row == o.Row && e.Container == o.Container
}
