package plan

import (
	"strconv"
	"strings"
)

// readTicks reads a box or a switch set: ticked, cleared, left or made to be in a state.
func readTicks(c string, quotes []string) (Step, string, bool) {
	if m := read(tickState, c); m != nil {
		on := !strings.HasPrefix(m.low("state"), "un") != m.has("not")
		return found(exact(Step{Action: Check, Value: strconv.FormatBool(on), TargetDescription: tickBox(cleanOperand(m.get("t"), quotes))}, m.get("t"), quotes, ""))
	}
	if m := read(switchTo, c); m != nil {
		// "switch "Admin User?" off", "turn the Admin User? toggle off".
		on := m.low("state") == "on"
		return found(exact(Step{Action: Check, Value: strconv.FormatBool(on), TargetDescription: tickBox(cleanOperand(m.get("t"), quotes))}, m.get("t"), quotes, ""))
	}
	if m := read(untick, c); m != nil {
		return found(exact(Step{Action: Check, Value: "false", TargetDescription: tickBox(cleanOperand(m.get("t"), quotes))}, m.get("t"), quotes, ""))
	}
	if m := read(tick, c); m != nil {
		return found(exact(Step{Action: Check, Value: "true", TargetDescription: tickBox(cleanOperand(m.get("t"), quotes))}, m.get("t"), quotes, ""))
	}
	return Step{}, "", false
}

// tickBox reads "the box" a tick is given as the checkbox it is: `check the box in the row
// of "Old Printer"` names no element "box".
func tickBox(d string) string {
	if t := ParseTarget(d); t.Name == "box" && !t.Quoted && t.Kind == "" {
		if rest, ok := strings.CutPrefix(d, "box"); ok {
			return "checkbox" + rest
		}
	}
	return d
}
