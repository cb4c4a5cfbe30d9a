package plan

import (
	"fmt"
	"strings"
	"testing"
)

// senseSentences are a sentence for each sense, with %s for the verb, and the step it
// reads as: every verb the lexicon lists with a sense reads so, which is what makes a new
// synonym one row of the lexicon.
var senseSentences = map[sense]struct {
	sentence string
	want     Step
}{
	sClick:       {`%s "Save"`, Step{Action: Click, TargetDescription: "Save"}},
	sKey:         {"%s Enter", Step{Action: Press, Value: "Enter"}},
	sType:        {`%s "Apollo" into "Name"`, Step{Action: Type, Value: "Apollo", TargetDescription: "Name"}},
	sTypeOnly:    {`%s "Apollo"`, Step{Action: Type, Value: "Apollo", TargetDescription: FocusedField}},
	sFillWith:    {`%s "Name" with "Apollo"`, Step{Action: Type, Value: "Apollo", TargetDescription: "Name"}},
	sChoose:      {`%s "High" from "Priority"`, Step{Action: Select, Value: "High", TargetDescription: "Priority"}},
	sSetWith:     {"%s 5 with the slider", Step{Action: Drag, Value: "5", TargetDescription: "the slider"}},
	sTick:        {`%s "Private"`, Step{Action: Check, Value: "true", TargetDescription: "Private"}},
	sUntick:      {`%s "Private"`, Step{Action: Check, Value: "false", TargetDescription: "Private"}},
	sAssert:      {`%s that "Saved" is visible`, Step{Action: Assert, Value: "Saved"}},
	sGo:          {"%s https://example.com/a", Step{Action: Navigate, Value: "https://example.com/a"}},
	sDoubleClick: {`%s "Buy milk"`, Step{Action: DoubleClick, TargetDescription: "Buy milk"}},
	sRightClick:  {`%s "Q4"`, Step{Action: RightClick, TargetDescription: "Q4"}},
	sClear:       {`%s "Search"`, Step{Action: Clear, TargetDescription: "Search"}},
	sUpload:      {`%s "cv.pdf" into "Attachment"`, Step{Action: Upload, Value: "cv.pdf", TargetDescription: "Attachment"}},
	sExtract:     {`%s "Total" as "total"`, Step{Action: Extract, Value: "total", TargetDescription: "Total"}},
	sHover:       {`%s over "Account"`, Step{Action: Hover, TargetDescription: "Account"}},
}

// TestEveryVerbReadsInEachSense reads, for every verb of the lexicon, a sentence of each
// sense it is listed with, and checks the step; a verb that starts a step splits a goal
// before it.
func TestEveryVerbReadsInEachSense(t *testing.T) {
	for _, v := range verbs {
		for _, s := range v.senses {
			c, ok := senseSentences[s]
			if !ok {
				continue // read as part of a larger shape: a menu path, a list of boxes
			}
			goal := fmt.Sprintf(c.sentence, v.phrase)
			steps, err := Parse(goal)
			if err != nil || len(steps) != 1 {
				t.Errorf("%q: %v %v", goal, dump(steps), err)
				continue
			}
			got, want := steps[0], c.want.typed()
			if got.Action != want.Action || got.Operand() != want.Operand() || got.TargetDescription != want.TargetDescription {
				t.Errorf("%q reads as %s, want %s", goal, got, want)
			}
		}
	}
}

// TestStepVerbsSplit checks that every verb not marked inner starts a step after "and".
func TestStepVerbsSplit(t *testing.T) {
	for _, v := range verbs {
		if v.inner {
			continue
		}
		clauses := splitClauses(`click ` + "\x010\x02" + ` and ` + v.phrase + ` it`)
		if len(clauses) != 2 || !strings.HasPrefix(clauses[1], v.phrase) {
			t.Errorf("%q does not start a step after \"and\": %q", v.phrase, clauses)
		}
	}
}
