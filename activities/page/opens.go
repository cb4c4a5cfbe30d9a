package page

// OpensEditor is what Resolution.Matched says of a text typed at a box that is not a field
// but is named exactly so: the placeholder of an editor a click opens (a block editor's
// "Type / to choose a block", a card's "Add a description"). The browser clicks it, and
// types into the field it focused; with none focused the step fails.
const OpensEditor = "opens an editor"

// opensEditor is the one control that is not a field, named exactly as the target (its
// own words or its accessible name), for a target that names no kind: what a person types
// into by clicking it first.
func (t Target) opensEditor(elems []Element) (Element, bool) {
	if t.Name == "" || t.Kind != "" || t.Row != "" || t.Container != "" || t.Ordinal != 0 || t.Every || t.Labelled {
		return Element{}, false
	}
	var found []Element
	for _, e := range elems {
		if e.Editable() || e.Tag == "select" || e.Tag == "input" || e.Tag == "textarea" || e.Disabled || e.Role == "link" || e.Role == "checkbox" || e.Role == "radio" {
			continue
		}
		if norm(e.Text) == norm(t.Name) || norm(e.Name) == norm(t.Name) {
			found = append(found, e)
		}
	}
	if len(found) != 1 {
		return Element{}, false
	}
	return found[0], true
}
