package plan

import "strings"

// The checks a goal asks for: of the page's text, of what one element holds.

// readAssert reads a check that a text is, or is not, on the page: "the page shows X",
// "check that X is visible", "X disappears", "verify X".
func readAssert(c string, quotes []string) (Step, string, bool) {
	if m := read(assertPage, c); m != nil {
		v := m.low("verb")
		neg := strings.Contains(v, "n't") || strings.Contains(v, "not") || strings.Contains(v, "no longer")
		return Step{Action: Assert, Value: assertText(m.get("t"), quotes), Negated: neg}, "", true
	}
	if m := read(assertUnder, c); m != nil {
		v := m.low("verb")
		neg := m.has("not") || (v != "" && v != "appears" && v != "shows up")
		p := m.get("p")
		return found(exact(Step{Action: Assert, Value: assertText(m.get("t"), quotes), TargetDescription: cleanOperand(p, quotes), Negated: neg}, p, quotes, ""))
	}
	if m := read(assertIs, c); m != nil && hasAssertVerbOrQuote(c) {
		return Step{Action: Assert, Value: assertText(m.get("t"), quotes), Negated: m.has("not")}, "", true
	}
	if m := read(assertVerb, c); m != nil && hasAssertVerbOrQuote(c) {
		v := m.low("verb")
		neg := v != "appears" && v != "shows up"
		return Step{Action: Assert, Value: assertText(m.get("t"), quotes), Negated: neg}, "", true
	}
	if m := read(assertHolds, c); m != nil && len(quotesIn(m.get("v"))) <= 1 {
		t := m.get("t")
		return found(exact(Step{Action: Assert, TargetDescription: cleanOperand(t, quotes), Value: assertText(m.get("v"), quotes)}, t, quotes, ""))
	}
	if m := read(keepAs, c); m != nil {
		t, v := m.get("a"), m.get("b")
		if !startsSpaced(articleStart, strings.TrimSpace(t)) {
			t, v = v, t // "keep admin as the User name": the value first
		}
		return found(exact(Step{Action: Assert, TargetDescription: cleanOperand(t, quotes), Value: assertText(v, quotes)}, t, quotes, ""))
	}
	if m := read(assertIsValue, c); m != nil && len(quotesIn(m.get("v"))) <= 1 {
		t := m.get("t")
		return found(exact(Step{Action: Assert, TargetDescription: cleanOperand(t, quotes), Value: assertText(m.get("v"), quotes)}, t, quotes, ""))
	}
	if m := read(assertSee, c); m != nil {
		return Step{Action: Assert, Value: assertText(m.get("t"), quotes)}, "", true
	}
	if m := read(findRow, c); m != nil {
		return Step{Action: Assert, Value: assertText(m.get("t"), quotes)}, "", true
	}
	if m := read(findIt, c); m != nil {
		return Step{Action: Assert, Value: assertText(m.get("t"), quotes)}, "", true
	}
	return Step{}, "", false
}
