package plan

import (
	"errors"
	"testing"
)

func TestParallel(t *testing.T) {
	parts, ok, err := Parallel(`In parallel: click "New project", type "Alpha" into "Project name", click "Create"; click "New project", type "Beta" into "Project name", click "Create". After both: check that "Alpha" is visible, then check that "Beta" is visible`)
	if err != nil || !ok || len(parts) != 3 || len(parts[2].DependsOn) != 2 || parts[0].DependsOn != nil {
		t.Fatalf("%+v %v %v", parts, ok, err)
	}
	if _, ok, _ := Parallel(`Click "New project"`); ok {
		t.Error("a goal without \"in parallel:\" is not parallel")
	}
	var pe *ParseError
	if _, ok, err := Parallel(`In parallel: click "A"`); !ok || !errors.As(err, &pe) {
		t.Errorf("one part: %v", err)
	}
	if _, ok, err := Parallel(`In parallel: click "A"; do something clever`); !ok || !errors.As(err, &pe) {
		t.Errorf("a part the offline planner cannot read must be refused: %v", err)
	}
}
