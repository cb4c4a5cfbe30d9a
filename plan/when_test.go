package plan

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestWhenReadsACondition: a click that waits for a number on the page is one step that
// carries its condition; what is not such a condition is not read as one.
func TestWhenReadsACondition(t *testing.T) {
	steps, err := Parse("Buy HLW stock when the price is less than $47.10.")
	if err != nil || len(steps) != 2 {
		t.Fatalf("%v %v", steps, err)
	}
	if s := steps[0]; s.Action != Assert || s.Value != "HLW" {
		t.Errorf("first step %v", s)
	}
	s := steps[1]
	if s.Action != Click || s.TargetDescription != "Buy" || s.Condition == nil || s.Condition.String() != "the price < $47.10" {
		t.Errorf("second step %+v", s)
	}
	if got := s.String(); got != `click "Buy" when the price is less than $47.10` {
		t.Errorf("described as %q", got)
	}
	c := *s.Condition
	if !c.Holds(47.09) || c.Holds(47.10) || c.Holds(48) {
		t.Errorf("condition %+v", c)
	}
	w, err := Parse("wait until the total is at least 1,200")
	if err != nil || w[0].Action != Wait || w[0].Condition == nil || w[0].Condition.String() != "the total >= 1,200" {
		t.Errorf("wait: %+v %v", w, err)
	}
	for _, g := range []string{
		`type "x" into "Name" when the price is below 3`,
		`click "Buy" when the price is low`,
		`click "Buy" when the price is less than cheap`,
	} {
		if s, err := Parse(g); err == nil && s[0].Condition != nil {
			t.Errorf("%q read as %+v", g, s)
		}
	}
	if _, err := Parse(`type "x" into "Name" when the price is below 3`); err == nil || !strings.Contains(err.Error(), "only a click") {
		t.Errorf("a typed condition: %v", err)
	}
	for v, want := range map[string]float64{"$48.30": 48.30, "1,200": 1200, "-3.5": -3.5, "€ 7": 7} {
		if n, ok := ParseNumber(v); !ok || n != want {
			t.Errorf("ParseNumber(%q) = %v %v", v, n, ok)
		}
	}
	for _, v := range []string{"48.30 USD total", "", "$", "1.2.3"} {
		if n, ok := ParseNumber(v); ok {
			t.Errorf("ParseNumber(%q) = %v", v, n)
		}
	}
}

// TestFromTableReadsTheForm: a form filled from the page's table is one TYPE step the
// browser expands, then the Submit button.
func TestFromTableReadsTheForm(t *testing.T) {
	steps, err := Parse("Enter the value that corresponds with each label into the form and submit when done.")
	if err != nil || len(steps) != 2 {
		t.Fatalf("%v %v", steps, err)
	}
	if s := steps[0]; !s.FillsFromTable() || s.TargetDescription != LabelledFields {
		t.Errorf("first step %+v", s)
	}
	if s := steps[1]; s.Action != Click || s.TargetDescription != "Submit" {
		t.Errorf("second step %+v", s)
	}
	if got := Describe(steps, nil); got != `fill each labelled field with its label's value in the table; click "Submit"` {
		t.Errorf("described as %q", got)
	}
}

// TestWhenIsValidated: only a click or a wait carries a condition, and it must be one.
func TestWhenIsValidated(t *testing.T) {
	for _, j := range []string{
		`{"step": 1, "action": "TYPE", "target_description": "Name", "value": "x", "when": "the price < 3"}`,
		`{"step": 1, "action": "CLICK", "target_description": "Buy", "when": "the price is low"}`,
	} {
		var s Step
		if err := json.Unmarshal([]byte(j), &s); err == nil && s.Validate() == nil {
			t.Errorf("%s passed as %+v", j, s)
		}
	}
	var s Step
	if err := json.Unmarshal([]byte(`{"step": 1, "action": "WAIT", "when": "the price >= $3"}`), &s); err != nil || s.Validate() != nil || s.Condition == nil {
		t.Errorf("%+v %v %v", s, err, s.Validate())
	}
}
