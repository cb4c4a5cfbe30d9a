package model

// JSON schemas of the answers, sent with every request as the response schema.

func obj(required []string, props map[string]any) map[string]any {
	req := make([]any, len(required))
	for i, r := range required {
		req[i] = r
	}
	return map[string]any{"type": "object", "properties": props, "required": req}
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
	num     = map[string]any{"type": "number"}
	integer = map[string]any{"type": "integer"}
	boolean = map[string]any{"type": "boolean"}
	strList = map[string]any{"type": "array", "items": map[string]any{"type": "string"}}

	stepSchema = obj([]string{"action", "target_description", "expected_outcome"}, map[string]any{
		"action":             enum("CLICK", "TYPE", "SELECT", "NAVIGATE", "PRESS", "CHECK", "SCROLL", "WAIT", "ASSERT", "EXTRACT", "HOVER", "DOUBLE_CLICK", "RIGHT_CLICK", "CLEAR", "DRAG", "SELECT_TEXT"),
		"target_description": str("the element as a person sees it; empty for NAVIGATE, WAIT, ASSERT, SCROLL"),
		"value":              str("text to type, option, URL, key, duration, text to assert, or a name for EXTRACT"),
		"negated":            boolean,
		"when":               str("for a CLICK or a WAIT: a number the page shows, compared with a bound, that must hold first, e.g. the price < 47.10"),
		"semantic_role":      enum("primary_action", "navigation", "confirmation", "form_field"),
		"required_state":     str("what must be true of the page before this step"),
		"expected_outcome":   str("what the page shows after this step"),
	})
	stepsSchema = map[string]any{"type": "array", "items": stepSchema}

	feedbackSchema = obj([]string{"type", "details"}, map[string]any{
		"type":             enum("wrong_element", "timing", "page_state", "not_visible", "other"),
		"details":          str("what went wrong, specifically, naming elements by number"),
		"suggestion":       str("what the next attempt should do"),
		"expected_element": str("the element that should have been used"),
		"actual_element":   str("the element that was used"),
	})

	planSchema   = obj([]string{"reasoning", "steps"}, map[string]any{"reasoning": str("how the plan reaches the goal"), "steps": stepsSchema})
	decideSchema = obj([]string{"action", "reason", "confidence"}, map[string]any{
		"action": enum(DecideElement, DecideCoordinates, DecideFail), "element": integer, "x": num, "y": num,
		"reason": str("why"), "visible_alternatives": strList, "suggestion": str("what should happen first, for a fail"),
		"confidence": num,
	})
	evaluateSchema = obj([]string{"success", "confidence", "reasoning"}, map[string]any{
		"success": boolean, "confidence": num, "reasoning": str("why"), "feedback": feedbackSchema,
	})
	replanSchema = obj([]string{"strategy", "reasoning", "steps"}, map[string]any{
		"strategy": enum(Strategies...), "reasoning": str("why this strategy"), "steps": stepsSchema,
	})
	judgeSchema   = obj([]string{"success", "confidence", "reason"}, map[string]any{"success": boolean, "confidence": num, "reason": str("why")})
	summarySchema = obj([]string{"brief", "detailed", "highlights", "warnings"}, map[string]any{
		"brief": str("one line"), "detailed": str("a short paragraph"), "highlights": strList, "warnings": strList,
	})
)
