package page

import (
	"strconv"

	"github.com/webagent-dev/webagent/plan"
)

// Target is a plan step's parsed target (plan.Target) as the resolver reads it: every part
// the description names must hold for an element to be a candidate.
type Target struct{ plan.Target }

// ParseTarget reads a target description into its parts (plan.ParseTarget), for callers
// that have only the text.
func ParseTarget(desc string) Target { return Target{plan.ParseTarget(desc)} }

// where describes the row or container parts of the target, for refusals: ` in the email
// from "Helena"`, or "".
func (t Target) where() string {
	switch {
	case t.Row != "" && t.RowNoun != "":
		return " in the " + t.RowNoun + " " + strconv.Quote(t.Row)
	case t.Row != "":
		return " in the row " + strconv.Quote(t.Row)
	case t.Container != "":
		return " in the " + t.Container
	}
	return ""
}

// band reports a target placed in the page's header or footer (Element.Band).
func (t Target) band() bool { return t.Container == "header" || t.Container == "footer" }

// inBox reports whether the element sits where the target's container says: in the page's
// band so named, whatever box inside it holds the element, or in a box whose name holds
// the container's words.
func (t Target) inBox(e Element) bool {
	if t.band() {
		return e.Band == t.Container
	}
	return containsFold(e.Container, t.Container)
}

// kind is what the target's kind is called in refusals: "icon", or "element".
func (t Target) kind() string {
	if t.Kind == "" {
		return "element"
	}
	return t.Kind
}

// named describes the kind and name parts: `icon "trash"`, `link`, `search result link`.
func (t Target) named() string {
	s := t.kind()
	if t.InList {
		s = "search result " + s
	}
	if t.Name != "" {
		s += " " + strconv.Quote(t.Name)
	}
	return s
}
