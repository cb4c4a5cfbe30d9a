package plan

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse feeds the offline planner arbitrary goals, seeded from the tested ones. It
// must never panic, and it must either refuse with a ParseError that names a sentence of
// the goal, or return a plan that validates, whose steps read as one line each.
//
//	go test ./plan -run '^$' -fuzz FuzzParse -fuzztime 1m
func FuzzParse(f *testing.F) {
	for _, tt := range parseCases {
		f.Add(tt.goal)
	}
	for _, tt := range parseErrorCases {
		f.Add(tt.goal)
	}
	f.Fuzz(func(t *testing.T, goal string) {
		if !utf8.ValidString(goal) || len(goal) > 4000 {
			t.Skip()
		}
		steps, err := Parse(goal)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q): an error that is not a ParseError: %v", goal, err)
			}
			if pe.Index < 1 || pe.Reason == "" {
				t.Fatalf("Parse(%q): a refusal that names no sentence or reason: %+v", goal, pe)
			}
			return
		}
		if err := Validate(steps); err != nil {
			t.Fatalf("Parse(%q) made an invalid plan: %v\n%s", goal, err, dump(steps))
		}
		for _, s := range steps {
			if line := s.String(); line == "" || strings.Contains(line, "\n") {
				t.Fatalf("Parse(%q): step %+v reads as %q", goal, s, line)
			}
		}
	})
}
