package page

import (
	"testing"

	"github.com/webagent-dev/webagent/plan"
)

func TestRowFit(t *testing.T) {
	for _, tt := range []struct {
		row, name string
		want      int
	}{
		{"Q4-bugs Medium Team ⋯", "Q4-bugs", rowWhole},
		{"Q4-bugs-old Low Team ⋯", "Q4-bugs", rowInner},
		{"Website relaunch 12 open", "website relaunch", rowWhole},
		{"Apollo, archived", "Apollo", rowWhole},
		{"Apollos", "Apollo", rowInner},
		{"Zoë Ng (owner)", "Zoë", rowWhole},
		{"Zeus", "Apollo", rowNone},
		// An item named by its data, which the page writes with its value quoted.
		{`alertname="InstanceDown" instance="cache-01:9121" Edit Expire`, "alertname=InstanceDown", rowWhole},
		{`alertname="InstanceDownNow" Edit`, "alertname=InstanceDown", rowInner},
	} {
		if got := rowFit(tt.row, tt.name); got != tt.want {
			t.Errorf("rowFit(%q, %q) = %d, want %d", tt.row, tt.name, got, tt.want)
		}
	}
}

// TestRowNamedIsNotALongerNamesRow: "in the row Q4-bugs" resolves to the row Q4-bugs, not
// to Q4-bugs-old beside it; on a page without a row of that name the longer one is
// not taken for it either; and a model's pick in the longer name's row is refused.
func TestRowNamedIsNotALongerNamesRow(t *testing.T) {
	elems := []Element{
		{Index: 0, Role: "button", Name: "Project actions", Row: "Q4-bugs-old Low Team ⋯"},
		{Index: 1, Role: "button", Name: "Project actions", Row: "Q4-bugs Medium Team ⋯"},
	}
	step := `the "Project actions" button in the row "Q4-bugs"`
	if r := Resolve(step, plan.Click, elems); r.Index != 1 {
		t.Fatalf("resolved %+v; want #1, the row Q4-bugs", r)
	}
	if r := Resolve(step, plan.Click, elems[:1]); r.Resolved() {
		t.Fatalf("the row Q4-bugs-old is not the row Q4-bugs, even alone: %+v", r)
	}
	if why := ContradictsAmong(plan.ParseTarget(step), plan.Click, elems[0], elems); why == "" {
		t.Fatal("a pick in Q4-bugs-old's row should be refused while Q4-bugs's row is there")
	}
}
