package page

import (
	"testing"
	"unicode/utf8"

	"github.com/webagent-dev/webagent/plan"
)

// FuzzResolve feeds the resolver arbitrary target descriptions against the tested page,
// seeded from the tested ones. It must never panic; a resolution names an element of the
// page that the action can be done to, and a refusal says why (and, when several matched,
// lists at least two of them).
//
//	go test ./activities/page -run '^$' -fuzz FuzzResolve -fuzztime 1m
func FuzzResolve(f *testing.F) {
	for _, tt := range resolveCases {
		f.Add(tt.desc, string(tt.action))
	}
	// Descriptions with every part: kind, row, container, ordinal.
	for _, d := range []string{`the trash icon in the email from "Apollo"`, `the 2nd search result link`,
		`the Edit button inside the "Zeus" panel`, `the last "Edit" button in the row "Zeus"`, `the "Private" checkbox in the "New project" dialog`} {
		f.Add(d, string(plan.Click))
	}
	f.Fuzz(func(t *testing.T, desc, action string) {
		if !utf8.ValidString(desc) || len(desc) > 1000 {
			t.Skip()
		}
		a := plan.Action(action)
		if !a.Known() {
			a = plan.Click
		}
		res := Resolve(desc, a, resolveElements)
		if res.Resolved() {
			if res.Index >= len(resolveElements) {
				t.Fatalf("Resolve(%q, %s) = element %d, not on the page", desc, a, res.Index)
			}
			return
		}
		if res.Reason == "" {
			t.Fatalf("Resolve(%q, %s) refused without a reason", desc, a)
		}
		if len(res.Candidates) == 1 {
			t.Fatalf("Resolve(%q, %s) refused with a single candidate %v", desc, a, res.Candidates)
		}
	})
}
