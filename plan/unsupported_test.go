package plan

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestUnsupportedActionsAreRefused: a phrase for an action the agent does not have is
// refused with the action's name, in the sentence that asks for it, and never becomes a
// step of another action.
func TestUnsupportedActionsAreRefused(t *testing.T) {
	tests := []struct {
		goal     string
		index    int
		sentence string
		action   string
	}{
		{`click "Apollo" twice`, 1, `click "Apollo" twice`, "several times"},
		{`click twice on "Apollo"`, 1, `click twice on "Apollo"`, "several times"},
		{`press Enter twice`, 1, `press Enter twice`, "several times"},
		{`press Tab 3 times`, 1, `press Tab 3 times`, "several times"},
		{`open "Report" in a new tab`, 1, `open "Report" in a new tab`, "new tab"},
		{`open Settings in a new window`, 1, `open Settings in a new window`, "new tab or window"},
		{`triple-click "Notes"`, 1, `triple-click "Notes"`, "triple-click"},
		{`double-click "Apollo" twice`, 1, `double-click "Apollo" twice`, "several times"},
		{`middle-click "Apollo"`, 1, `middle-click "Apollo"`, "middle-click"},
		{`move "Apollo" to "Done"`, 1, `move "Apollo" to "Done"`, "drag"},
		{`drop "report.pdf" into "Files"`, 1, `drop "report.pdf" into "Files"`, "drag"},
		{`long-press "Record"`, 1, `long-press "Record"`, "hold"},
		{`press and hold "Record"`, 1, `press and hold "Record"`, "hold"},
		{`highlight "Apollo"`, 1, `highlight "Apollo"`, "selecting a text without saying where"},
		{`select the text "Apollo"`, 1, `select the text "Apollo"`, "selecting a text without saying where"},
		{`upload "report.pdf"`, 1, `upload "report.pdf"`, "uploading"},
		{`draw a circle`, 1, `draw a circle`, "drawing"},
		{`swipe left`, 1, `swipe left`, "swipe"},
		{`switch to the new window`, 1, `switch to the new window`, "switching browser"},
		{`switch to the new tab`, 1, `switch to the new tab`, "switching browser"},
	}
	for _, tt := range tests {
		t.Run(tt.goal, func(t *testing.T) {
			steps, err := Parse(tt.goal)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("want a *ParseError, got %v and the plan %s", err, dump(steps))
			}
			if pe.Index != tt.index || pe.Sentence != tt.sentence {
				t.Errorf("got step %d %q, want step %d %q", pe.Index, pe.Sentence, tt.index, tt.sentence)
			}
			if !strings.Contains(pe.Reason, tt.action) || !strings.Contains(pe.Reason, "not an action this agent has") {
				t.Errorf("the reason should name %q as an action the agent does not have: %s", tt.action, pe.Reason)
			}
		})
	}
}

// TestSupportedActionsStillRead: phrases close to an unsupported one that name an action
// the agent has are still read as that action, and a double or right click is its own
// action, never a click.
func TestSupportedActionsStillRead(t *testing.T) {
	tests := []struct {
		goal string
		want Step
	}{
		{`click "Apollo"`, Step{Action: Click, TargetDescription: "Apollo"}},
		{`move the mouse over "Account"`, Step{Action: Hover, TargetDescription: "Account"}},
		{`select "High" from "Priority"`, Step{Action: Select, Value: "High", TargetDescription: "Priority"}},
		{`click the text area`, Step{Action: Click, TargetDescription: "text area"}},
		{`switch to the "Billing" tab`, Step{Action: Click, TargetDescription: `"Billing" tab`}},
		{`click "Drag and drop"`, Step{Action: Click, TargetDescription: "Drag and drop"}},
		{`press Enter`, Step{Action: Press, Value: "Enter"}},
		{`check that "double-click" is visible`, Step{Action: Assert, Value: "double-click"}},
		{`double-click "Apollo"`, Step{Action: DoubleClick, TargetDescription: "Apollo"}},
		{`Double click on the "Apollo" row`, Step{Action: DoubleClick, TargetDescription: `"Apollo" row`}},
		{`dblclick "Apollo"`, Step{Action: DoubleClick, TargetDescription: "Apollo"}},
		{`double-tap "Photo"`, Step{Action: DoubleClick, TargetDescription: "Photo"}},
		{`right-click "Apollo"`, Step{Action: RightClick, TargetDescription: "Apollo"}},
		{`right click the "Apollo" row`, Step{Action: RightClick, TargetDescription: `"Apollo" row`}},
		{`click "Apollo" with the right mouse button`, Step{Action: RightClick, TargetDescription: "Apollo"}},
		{`open the context menu of "Apollo"`, Step{Action: RightClick, TargetDescription: "Apollo"}},
		{`clear "Project name"`, Step{Action: Clear, TargetDescription: "Project name"}},
		{`drag "Apollo" to "Done"`, Step{Action: Drag, TargetDescription: "Apollo", Value: "Done"}},
		{`drag and drop "Card 3" onto the "Done" column`, Step{Action: Drag, TargetDescription: "Card 3", Value: `"Done" column`}},
		{`drag the "Volume" slider to 40`, Step{Action: Drag, TargetDescription: `"Volume" slider`, Value: "40"}},
		{`clear the text in the "Notes" field`, Step{Action: Clear, TargetDescription: `"Notes" field`}},
	}
	for _, tt := range tests {
		t.Run(tt.goal, func(t *testing.T) {
			got, err := Parse(tt.goal)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if len(got) != 1 {
				t.Fatalf("got %d steps, want 1:\n%s", len(got), dump(got))
			}
			g := got[0]
			g.Step, g.SemanticRole, g.ExpectedOutcome = 0, "", ""
			if want := tt.want.typed(); !reflect.DeepEqual(g, want) {
				t.Errorf("got %+v, want %+v", g, want)
			}
		})
	}
}
