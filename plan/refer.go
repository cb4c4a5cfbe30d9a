package plan

import (
	"fmt"
	"strconv"
	"strings"
)

// referTo writes a target that says "it" or "its" as the thing the step before named: "it"
// is the element the step before acted on ("clear the "Title" field, then type "x" into
// it"); "its Edit button" is the Edit button in the item the step before found or clicked
// by its quoted name ("find "Old wiki" and click its Delete icon"). A referent with nothing
// named before it gives a reason.
func referTo(s Step, before []Step) (Step, string) {
	if s, ok := besideIt(s, before); ok {
		return s, ""
	}
	if s, reason, ok := inItsRow(s, before); ok {
		return s, reason
	}
	f := strings.Fields(s.TargetDescription)
	if len(f) > 1 && (strings.EqualFold(f[0], "her") || strings.EqualFold(f[0], "his")) {
		// "change her Email Address": the person's own page, open now; the field is its.
		s.TargetDescription = strings.Join(f[1:], " ")
		return s, ""
	}
	if len(f) == 0 || (!itWords[strings.ToLower(f[0])] && !itsWords[strings.ToLower(f[0])]) {
		return s, ""
	}
	if len(before) == 0 {
		return s, fmt.Sprintf("%q refers to nothing named before it: name the element", s.TargetDescription)
	}
	last := before[len(before)-1]
	if last.Action == Type && itsWords[strings.ToLower(f[0])] && len(f) > 1 {
		// "name the new monitor Garage and set its Function to Record": the thing the form
		// being filled in makes; its field is that form's.
		s.TargetDescription = strings.Join(f[1:], " ")
		return s, ""
	}
	if itWords[strings.ToLower(f[0])] {
		if len(f) > 1 || last.TargetDescription == "" || last.Action == Navigate || last.Action == Assert {
			return s, fmt.Sprintf("%q refers to no element the step before acted on: name the element", s.TargetDescription)
		}
		s.TargetDescription = last.TargetDescription
		return s, ""
	}
	name := ""
	switch {
	case last.Action == Assert && !last.Negated:
		name = last.Value
	case last.Action == Click:
		if t := ParseTarget(last.TargetDescription); t.Row != "" && len(f) > 1 {
			// "click "Edit" in the row "Back Door", change its Name": the Name of the item
			// the row is, on the page the click opened (or in the row, still shown).
			s.TargetDescription = ofOpenedItem(f[1:], t.Row)
			return s, ""
		} else if t.Quoted {
			name = t.Name
		}
	case last.Action == DoubleClick:
		// "double-click "Andersen Logistics", change its Name": the item's own Name, in its
		// row if it is edited there, else on the page the double-click opened.
		if name = ParseTarget(last.TargetDescription).Name; name != "" && len(f) > 1 {
			s.TargetDescription = ofOpenedItem(f[1:], name)
			return s, ""
		}
	case last.Action == Check || last.Action == RightClick || last.Action == Hover:
		// `tick "Download (kB/s):", type "250" into its field`: the item named by the
		// control the step before ticked, right-clicked or pointed at.
		name = ParseTarget(last.TargetDescription).Name
	}
	if name == "" || len(f) < 2 {
		return s, fmt.Sprintf("%q refers to no item named before it: name the item, as in the \"Edit\" button in \"Old wiki\"", s.TargetDescription)
	}
	if last.Action == Click || last.Action == Assert {
		s.TargetDescription = "the " + strings.Join(f[1:], " ") + " in " + strconv.Quote(name)
	} else {
		// The box ticked is no item: its row holds what "its" names.
		s.TargetDescription = "the " + strings.Join(f[1:], " ") + " in the row " + strconv.Quote(name)
	}
	return s, ""
}

// ofOpenedItem writes "its Name" (words, "its" left out) as the Name of the item so named,
// on the page the item opened when its row is gone: the description target_read.go reads
// back as Target.Opened (openedItem).
func ofOpenedItem(words []string, item string) string {
	return "the " + strings.Join(words, " ") + " of the item " + strconv.Quote(item) + " or the page it opened"
}
