package plan

// A form filled from a table: "enter the value that corresponds with each label into the
// form" is one TYPE step, whose target is each labelled field of the page and whose value
// is, for each field, the value its label has in the page's table. The planner cannot see
// the page, so the browser expands the step when it runs: it finds the page's text fields
// and their labels, and each label's row in the table (the cell after the one that says
// the label, a trailing colon and case aside), and refuses the whole step, before typing
// anything, when a field has no label, or its label is in no row or in several. It then
// fills each field and reads each back.
const (
	// LabelledFields is the target of such a step.
	LabelledFields = "each labelled field"
	// FromTable is its value: what the browser looks up for each field.
	FromTable = "its label's value in the table"
)

// FillsFromTable reports whether the step is a form filled from the page's table.
func (s Step) FillsFromTable() bool { return s.Action == Type && s.Value == FromTable }

// reFromTable is the sentence that asks for it: "fill each labelled field with its value
// from the table".
var fromTable = seq(word("fill in", "fill", "complete"), word("each", "every"), opt(word("labelled", "labeled")), opt(word("form")), word("field"), opt(word("of the form")),
	word("with"), word("its", "the"), opt(word("label's")), word("value"), word("from", "in"), word("the table"), end)

// readFromTable reads a form filled from the page's table.
func readFromTable(c string, _ []string) (Step, string, bool) {
	if read(fromTable, c) == nil {
		return Step{}, "", false
	}
	return Step{Action: Type, TargetDescription: LabelledFields, Value: FromTable}, "", true
}
