package model

import (
	"bytes"
	"encoding/json"
)

// JSON schemas of the answers, sent with every request as the response schema. Every
// object lists its reason before its verdict: the model writes the keys in the order the
// schema gives them, and a verdict written after its reason rests on it, where one
// written first is a guess the reason then defends.

// field is one property of an object schema.
type field struct {
	name     string
	schema   any
	required bool
}

func req(name string, schema any) field { return field{name, schema, true} }
func opt(name string, schema any) field { return field{name, schema, false} }

// props are an object's properties in the order the model is to write them. Go's maps
// marshal their keys sorted, which would put "action" before "reason".
type props []field

func (p props) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range p {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.name)
		v, err := json.Marshal(f.schema)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// obj is an object schema of the fields in order: its properties keep the order, and
// propertyOrdering (Gemini's own key for it) and the required list say it again.
func obj(fields ...field) map[string]any {
	var required, order []any
	for _, f := range fields {
		order = append(order, f.name)
		if f.required {
			required = append(required, f.name)
		}
	}
	return map[string]any{"type": "object", "properties": props(fields), "required": required, "propertyOrdering": order}
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }

func enum(values ...string) map[string]any {
	vs := make([]any, len(values))
	for i, v := range values {
		vs[i] = v
	}
	return map[string]any{"type": "string", "enum": vs}
}

var (
	num        = map[string]any{"type": "number"}
	confidence = map[string]any{"type": "number", "description": "0 to 1; below 0.7 when unsure"}
	integer    = map[string]any{"type": "integer"}
	boolean    = map[string]any{"type": "boolean"}
	strList    = map[string]any{"type": "array", "items": map[string]any{"type": "string"}}

	stepSchema = obj(
		req("action", enum("CLICK", "TYPE", "SELECT", "NAVIGATE", "PRESS", "CHECK", "SCROLL", "WAIT", "ASSERT", "EXTRACT", "HOVER", "DOUBLE_CLICK", "RIGHT_CLICK", "CLEAR", "DRAG", "SELECT_TEXT", "APPEND")),
		req("target_description", str("the element as a person sees it; empty for NAVIGATE, WAIT, ASSERT, SCROLL")),
		opt("value", str("text to type, option, URL, key, duration, text to assert, or a name for EXTRACT")),
		opt("negated", boolean),
		opt("when", str("for a CLICK or a WAIT: a number the page shows, compared with a bound, that must hold first, e.g. the price < 47.10")),
		opt("semantic_role", enum("primary_action", "navigation", "confirmation", "form_field")),
		opt("required_state", str("what must be true of the page before this step")),
		req("expected_outcome", str("what the page shows after this step")),
	)
	stepsSchema = map[string]any{"type": "array", "items": stepSchema}

	feedbackSchema = obj(
		req("details", str("what went wrong, specifically, naming elements by number")),
		req("type", enum("wrong_element", "timing", "page_state", "not_visible", "other")),
		opt("suggestion", str("what the next attempt should do")),
		opt("expected_element", str("the element that should have been used")),
		opt("actual_element", str("the element that was used")),
	)

	planSchema   = obj(req("reasoning", str("how the plan reaches the goal")), req("steps", stepsSchema))
	decideSchema = obj(
		req("reason", str("what the step names, part by part, and which element holds every part")),
		req("action", enum(DecideElement, DecideCoordinates, DecideFail)),
		opt("element", integer), opt("x", num), opt("y", num),
		opt("visible_alternatives", strList), opt("suggestion", str("what should happen first, for a fail")),
		req("confidence", confidence),
	)
	evaluateSchema = obj(
		req("reasoning", str("what changed on the page, and whether it is what the step expects")),
		req("success", boolean), req("confidence", confidence), opt("feedback", feedbackSchema),
	)
	replanSchema = obj(req("reasoning", str("what went wrong, and why this strategy")), req("strategy", enum(Strategies...)), req("steps", stepsSchema))
	judgeSchema  = obj(
		req("reason", str("the evidence on the page, specific to the goal, for or against")),
		req("success", boolean), req("confidence", confidence),
	)
	summarySchema = obj(
		req("brief", str("one line")), req("detailed", str("a short paragraph")), req("highlights", strList), req("warnings", strList),
	)
)
