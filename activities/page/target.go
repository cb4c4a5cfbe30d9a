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
