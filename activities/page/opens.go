package page

// OpensEditor is what Resolution.Matched says of a text typed at a box that is not a field
// but is named exactly so: the placeholder of an editor a click opens (a block editor's
// "Type / to choose a block", a card's "Add a description"). The browser clicks it, and
// types into the field it focused; with none focused the step fails.
const OpensEditor = "opens an editor"

// opensEditor is the one control that is not a field, named exactly as the target (its
// own words or its accessible name), for a target that names no kind: what a person types
// into by clicking it first. A link, or a button the page made a button (<button>), is a
// command, never a field's stand-in: "New Tiddler" is the title field the editor is
// still drawing, not the "new tiddler" button that opened it, which a click would run
// again. A box the page only marks as a button (Gutenberg's <p role="button"> block
// appender) still is one.
func (t Target) opensEditor(elems []Element) (Element, bool) {
	if t.Name == "" || t.Kind != "" || t.Row != "" || t.Container != "" || t.Ordinal != 0 || t.Every || t.Labelled {
		return Element{}, false
	}
	return theOne(elems, func(e Element) bool {
		return !e.FormControl() && e.Tag != "button" && !e.Disabled && e.Role != "link" && e.Role != "checkbox" && e.Role != "radio" &&
			(norm(e.Text) == norm(t.Name) || norm(e.Name) == norm(t.Name))
	})
}

// theOne is the one element that is so, and whether there is exactly one.
func theOne(elems []Element, is func(Element) bool) (Element, bool) {
	var found []Element
	for _, e := range elems {
		if is(e) {
			found = append(found, e)
		}
	}
	if len(found) != 1 {
		return Element{}, false
	}
	return found[0], true
}

// ShownAs is what Resolution.Matched says of a field found by what it shows.
const ShownAs = "shown value"

// shownAs is the one text field with no name of its own (no label, placeholder or
// accessible name) that shows exactly the target's name: what a person calls a box by
// the words in it (a wiki's title box showing "New Tiddler"). It is read only for text
// typed or cleared when nothing is named so, never for a click: a field showing what was
// just typed into it is not the link or button that name means.
func (t Target) shownAs(elems []Element) (Element, bool) {
	if t.Name == "" || t.Kind != "" && t.Kind != "field" && t.Kind != "textbox" || t.Ordinal != 0 || t.Every || t.Labelled {
		return Element{}, false
	}
	return theOne(elems, func(e Element) bool {
		return e.Editable() && !e.Secret && !e.Disabled && e.Name == "" && e.Label == "" && e.Placeholder == "" && norm(e.Value) == norm(t.Name)
	})
}
