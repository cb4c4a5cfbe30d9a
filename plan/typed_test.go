package plan

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// TestReadOnce: a step in the core spec's schema (a model's plan, an old skill, an old
// run's history) is read once into typed fields, travels typed, and shows a model its
// operand as that schema writes it.
func TestReadOnce(t *testing.T) {
	for _, tt := range []struct {
		legacy  string
		want    Step
		operand string
	}{
		{`{"action":"NAVIGATE","value":" https://example.com/a "}`, Step{Action: Navigate, URL: "https://example.com/a"}, "https://example.com/a"},
		{`{"action":"PRESS","value":"Control+A"}`, Step{Action: Press, Key: "Control+A"}, "Control+A"},
		{`{"action":"SCROLL","value":"Bottom"}`, Step{Action: Scroll, Scroll: "bottom"}, "bottom"},
		{`{"action":"WAIT","value":"1.5 seconds"}`, Step{Action: Wait, Wait: 1500 * time.Millisecond}, "1.5s"},
		{`{"action":"WAIT","value":"1 minute"}`, Step{Action: Wait, Wait: time.Minute}, "1m"},
		{`{"action":"CHECK","target_description":"Private","value":"false"}`, Step{Action: Check, TargetDescription: "Private", Uncheck: true}, "false"},
		{`{"action":"CHECK","target_description":"Private","value":"true"}`, Step{Action: Check, TargetDescription: "Private"}, ""},
		{`{"action":"EXTRACT","target_description":"Total","value":"total"}`, Step{Action: Extract, TargetDescription: "Total", Into: "total"}, "total"},
		{`{"action":"UPLOAD","target_description":"Resume","value":"cv.pdf"}`, Step{Action: Upload, TargetDescription: "Resume", File: "cv.pdf"}, "cv.pdf"},
		{`{"action":"DRAG","target_description":"Card","value":"Done"}`, Step{Action: Drag, TargetDescription: "Card", To: "Done"}, "Done"},
		{`{"action":"DRAG","target_description":"Olwen","value":"up by 2 positions"}`, Step{Action: Drag, TargetDescription: "Olwen", Move: &Move{Dir: "up", Places: 2}}, "up by 2 positions"},
		{`{"action":"TYPE","target_description":"Name","value":"{{name}}"}`, Step{Action: Type, TargetDescription: "Name", Value: "{{name}}"}, "{{name}}"},
		{`{"action":"CLICK","target_description":"Buy","when":"the price < $47.10"}`, Step{Action: Click, TargetDescription: "Buy", Condition: &Condition{Subject: "the price", Op: "<", Bound: "$47.10", Number: 47.10}}, ""},
		// Typed already: read as it is, the legacy field not consulted.
		{`{"action":"WAIT","wait":2000000000}`, Step{Action: Wait, Wait: 2 * time.Second}, "2s"},
	} {
		var got Step
		if err := json.Unmarshal([]byte(tt.legacy), &got); err != nil {
			t.Fatalf("%s: %v", tt.legacy, err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s\n read as %+v\n    want %+v", tt.legacy, got, tt.want)
		}
		if op := got.Operand(); op != tt.operand {
			t.Errorf("%s: operand %q, want %q", tt.legacy, op, tt.operand)
		}
		b, _ := json.Marshal(got)
		var old struct{ Value, When string } // what a worker of the version before reads
		if err := json.Unmarshal(b, &old); err != nil || old.Value != tt.operand {
			t.Errorf("%s: typed form %s carries the value %q for an older worker, want %q", tt.legacy, b, old.Value, tt.operand)
		}
		if got.Condition != nil && old.When != got.Condition.String() {
			t.Errorf("%s: typed form %s carries the condition %q for an older worker", tt.legacy, b, old.When)
		}
		var again Step
		if err := json.Unmarshal(b, &again); err != nil || !reflect.DeepEqual(again, got) {
			t.Errorf("%s: typed form %s reads back as %+v (%v)", tt.legacy, b, again, err)
		}
	}
}

// TestUnreadOperand: an operand that cannot be read stays where it was, and Validate
// says what is wrong with it; a condition that is not one fails the read.
func TestUnreadOperand(t *testing.T) {
	var s Step
	if err := json.Unmarshal([]byte(`{"step":1,"action":"WAIT","value":"a while"}`), &s); err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err == nil || s.Wait != 0 {
		t.Errorf("%+v validated: %v", s, err)
	}
	if err := json.Unmarshal([]byte(`{"step":1,"action":"CLICK","target_description":"Buy","when":"the price is low"}`), &s); err == nil {
		t.Errorf("an unreadable condition read as %+v", s)
	}
}
