package page

import (
	"testing"

	"github.com/webagent-dev/webagent/plan"
)

// TestNoChoice: a tie that leaves nothing to choose is one target, every other tie is
// refused.
func TestNoChoice(t *testing.T) {
	login := []Element{
		{Index: 0, Tag: "input", Type: "text", Role: "textbox", Name: "Login", Label: "Login"},
		{Index: 1, Tag: "input", Type: "password", Role: "textbox", Name: "Password"},
		{Index: 2, Tag: "input", Type: "submit", Role: "button", Name: "Login", Dest: "form post /login"},
	}
	toolbar := []Element{
		{Index: 0, Tag: "a", Role: "link", Name: "Edit", Dest: "http://x/issues/1/edit"},
		{Index: 1, Tag: "a", Role: "link", Name: "Edit", Dest: "http://x/issues/1/edit", Offscreen: true},
		{Index: 2, Tag: "a", Role: "link", Name: "Delete", Dest: "http://x/issues/1/delete"},
		{Index: 3, Tag: "a", Role: "link", Name: "Delete", Dest: "http://x/attachments/7/delete"},
		{Index: 4, Tag: "a", Role: "link", Name: "Watch"},
		{Index: 5, Tag: "a", Role: "link", Name: "Watch"},
	}
	row := []Element{
		{Index: 0, Tag: "input", Type: "checkbox", Role: "checkbox", Name: "Buy milk", Row: "Buy milk"},
		{Index: 1, Tag: "span", Role: "button", Name: "Buy milk", Row: "Buy milk"},
		{Index: 2, Tag: "input", Type: "checkbox", Role: "checkbox", Name: "Buy milk", Row: "Buy milk today"},
	}
	for _, tt := range []struct {
		name   string
		desc   string
		action plan.Action
		elems  []Element
		want   int // -1: refused
	}{
		{"a field is typed into", "Login", plan.Type, login, 0},
		{"the Login field, said so", "the Login field", plan.Type, login, 0},
		{"a click on the name is the button's", "Login", plan.Click, login, 2},
		{"a submit input is no text field", "the Login field", plan.Click, login, 0},
		{"one link shown twice", "Edit", plan.Click, toolbar, 0},
		{"two links that lead elsewhere", "Delete", plan.Click, toolbar, -1},
		{"two links that lead nowhere said", "Watch", plan.Click, toolbar, -1},
		{"a hover at parts of one row", `"Buy milk" in the row "Buy milk"`, plan.Hover, row[:2], 0},
		{"a click at parts of one row is no hover", `"Buy milk" in the row "Buy milk"`, plan.Click, row[:2], -1},
		{"a hover at two rows", "Buy milk", plan.Hover, row, -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := Resolve(tt.desc, tt.action, tt.elems)
			if r.Index != tt.want {
				t.Errorf("resolved %d (%s), want %d", r.Index, r.Reason, tt.want)
			}
		})
	}
}
