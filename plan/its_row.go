package plan

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// itsRowTail is a row referred to, not named, at the end of a description: "Remove in its
// row", "the Stop button in that row", "Remove in its Commands column", "Undeploy there".
var itsRowTail = regexp.MustCompile(`(?i)\s+(?:(?:in|of|from|on)\s+(?:its|their|that|this|the same)\s+(?:row|line|entry|row's\s+\S+\s+column|\S+\s+column)|there)\s*$`)

// inItsRow reads such a description as the control in the row of the thing the step
// before named: what it checked was there ("find "stats.example.org""), or clicked by its
// quoted name, or the row the step before was in. ok is false when the description refers to no row; reason says why a row
// referred to cannot be known.
func inItsRow(s Step, before []Step) (Step, string, bool) {
	loc := itsRowTail.FindStringIndex(s.TargetDescription)
	if loc == nil || loc[0] == 0 {
		return s, "", false
	}
	name := ""
	if n := len(before); n > 0 {
		switch last, t := before[n-1], ParseTarget(before[n-1].TargetDescription); {
		case last.TargetDescription != "" && t.Row != "":
			// "type "0" into "idle" in the row "/shop", then click "Expire" in that row".
			name = t.Row
		case last.Action == Assert && !last.Negated:
			name = last.Value
		case strings.HasSuffix(strings.ToLower(strings.TrimSpace(s.TargetDescription)), "there"):
			// "click X, then click Remove there": there is X's page, not its row.
		case last.Action == Click || last.Action == Hover:
			if t := ParseTarget(last.TargetDescription); t.Quoted || addressLike(t.Name) {
				name = t.Name
			}
		}
	}
	if name == "" {
		return s, fmt.Sprintf("%q refers to a row no step before named: name the row, as in \"Remove\" in the row \"stats.example.org\"", s.TargetDescription), true
	}
	s.TargetDescription = strings.TrimSpace(s.TargetDescription[:loc[0]]) + " in the row " + strconv.Quote(name)
	return s, "", true
}
