package plan

import (
	"encoding/json"
	"fmt"
	"strings"
)

// A plan in the core spec's schema — what a model writes, a plan file, an old skill or
// an old run's history — carries every action's operand in one string, "value", and a
// condition in "when". A step is typed once, as it is read (UnmarshalJSON, Parse): the
// operand moves to the field that says what it is, read into its type, and nothing after
// that reads a string the planner already read.

// textOperand is the field that holds the operand of an action whose operand is text of
// its own (a URL, a key, a direction, a name), or nil: the one place typed, typedField
// and Operand look it up.
func (s *Step) textOperand() *string {
	switch s.Action {
	case Navigate:
		return &s.URL
	case Press:
		return &s.Key
	case Scroll:
		return &s.Scroll
	case Extract:
		return &s.Into
	case Upload:
		return &s.File
	}
	return nil
}

// typedField reports whether the step's action has an operand field of its own and it is
// set: a step in the typed form, whose "value", if any, is the copy MarshalJSON writes.
func (s Step) typedField() bool {
	if p := s.textOperand(); p != nil {
		return *p != ""
	}
	switch s.Action {
	case Check:
		return s.Uncheck
	case Wait:
		return s.Wait > 0
	case Drag:
		return s.Move != nil || s.To != ""
	}
	return false
}

// typed returns the step with its operand, written in Value as the core spec's schema
// writes it, moved to its own field and read into its type. A step already typed is
// returned as it is, without the copy of its operand; an operand that cannot be read
// stays in Value, for Validate to say what is wrong with it.
func (s Step) typed() Step {
	if s.typedField() {
		s.Value = ""
		return s
	}
	v := s.Value
	if strings.TrimSpace(v) == "" {
		return s
	}
	moved := true
	switch p := s.textOperand(); {
	case s.Action == Scroll:
		*p = strings.ToLower(strings.TrimSpace(v))
	case s.Action == Navigate, s.Action == Press:
		*p = strings.TrimSpace(v)
	case p != nil: // a name: as written
		*p = v
	case s.Action == Check:
		s.Uncheck = unchecks(v)
	case s.Action == Wait:
		d, err := ParseDuration(v)
		s.Wait, moved = d, err == nil
	case s.Action == Drag:
		if mv, ok := ParseMove(v); ok {
			s.Move = &mv
		} else {
			s.To = v
		}
	default:
		moved = false
	}
	if moved {
		s.Value = ""
	}
	return s
}

// unchecks reads a CHECK's operand in the core spec's schema: the words that clear a box.
func unchecks(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "false", "off", "no", "unchecked", "uncheck":
		return true
	}
	return false
}

// UnmarshalJSON reads a step in either form: typed fields, or the core spec's schema,
// whose "value" and "when" it reads once into the typed fields. A struct that embeds a
// Step and adds fields of its own must read them itself: this method is promoted to it.
func (s *Step) UnmarshalJSON(b []byte) error {
	type fields Step // no methods: no recursion
	var w struct {
		fields
		When string `json:"when,omitempty"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*s = Step(w.fields).typed()
	if strings.TrimSpace(w.When) != "" && s.Condition == nil {
		c, err := ParseCondition(w.When)
		if err != nil {
			return fmt.Errorf("step %d: %w", s.Step, err)
		}
		s.Condition = &c
	}
	return nil
}

// MarshalJSON writes the typed form, with the operand and condition also in "value" and
// "when" as the core spec's schema writes them: a worker of the version before this one,
// still running during a rolling deploy, reads a step this one sends. UnmarshalJSON takes
// the typed fields and leaves the copies unread.
func (s Step) MarshalJSON() ([]byte, error) {
	type fields Step // no methods: no recursion
	w := struct {
		fields
		Value string `json:"value,omitempty"`
		When  string `json:"when,omitempty"`
	}{fields: fields(s), Value: s.Operand()}
	if s.Condition != nil {
		w.When = s.Condition.String()
	}
	return json.Marshal(w)
}

// Operand is the step's operand as the core spec's schema writes it in "value": what a
// model is shown of a step, and what it writes back.
func (s Step) Operand() string {
	switch p := s.textOperand(); {
	case s.Value != "":
		return s.Value
	case p != nil:
		return *p
	case s.Action == Check && s.Uncheck:
		return "false"
	case s.Action == Wait && s.Wait > 0:
		return strings.Replace(s.Wait.String(), "m0s", "m", 1) // "1m", not "1m0s"
	case s.Action == Drag && s.Move != nil:
		return s.Move.String()
	case s.Action == Drag:
		return s.To
	}
	return ""
}

// texts are the step's fields a person writes in words, which may hold a {{name}}
// parameter or a secret's placeholder: what Bind fills, Placeholders lists and a skill's
// template parameterises.
func (s *Step) texts() []*string {
	return []*string{&s.TargetDescription, &s.Value, &s.URL, &s.Key, &s.To, &s.File}
}

// Texts returns the words of the step that can hold a {{name}} parameter or a secret's
// placeholder, in a fixed order.
func (s Step) Texts() []string {
	var out []string
	for _, p := range s.texts() {
		out = append(out, *p)
	}
	return out
}

// MapTexts returns the step with f applied to each of its Texts (a skill's template
// putting {{name}} in place of a value it saw).
func (s Step) MapTexts(f func(string) string) Step {
	for _, p := range s.texts() {
		*p = f(*p)
	}
	return s
}
