package activities

import (
	"slices"

	"github.com/webagent-dev/webagent/activities/page"
)

// ElementRef is an element as a decision saw it: enough to find the same element again
// on a page that moved (its role, its name, where it was).
type ElementRef struct {
	Index int    `json:"index"`
	Role  string `json:"role"`
	Name  string `json:"name"`
	Box   Box    `json:"box"`
	// Row and Container are what the element sat in (a table row, a dialog): two buttons
	// of the same name in two rows are two elements.
	Row       string `json:"row,omitempty"`
	Container string `json:"container,omitempty"`
	// Secret marks a field that hides what it holds (a password): what was typed into it
	// is never on a page.
	Secret bool `json:"secret,omitempty"`
}

// Box is an element's bounding box in page coordinates (CSS pixels).
type Box struct {
	X int `json:"x"`
	Y int `json:"y"`
	W int `json:"w"`
	H int `json:"h"`
}

// RefOf is the element e of a page, as the activities record it.
func RefOf(e page.Element) ElementRef {
	return ElementRef{Index: e.Index, Role: e.Role, Name: e.Name, Box: Box(e.Box), Row: e.Row, Container: e.Container, Secret: e.Secret}
}

// SameAs reports whether o is the element r, found again: the same role and name in the
// same row and container (page.Element.SameAs, for the activities' record of one). Its
// number and box may have moved since.
func (r ElementRef) SameAs(o ElementRef) bool {
	return r.Role == o.Role && r.Name == o.Name && r.Row == o.Row && r.Container == o.Container
}

// Among reports whether refs holds the element r.
func (r ElementRef) Among(refs []ElementRef) bool {
	return slices.ContainsFunc(refs, r.SameAs)
}
