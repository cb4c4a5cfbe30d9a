package driver_test

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/plan"
)

// TestReadsOffThePage checks EXTRACT of text that is not a control: a value by its label,
// a word by its place — exactly, or nothing with the reason.
func TestReadsOffThePage(t *testing.T) {
	s, _ := openLab(t, newPool(t), "read", "panels.html")
	for _, tt := range []struct {
		desc, want, refused string
	}{
		{`the value of "Gender"`, "Female", ""},
		{`the value of "Name"`, "Ada", ""},
		{`the value of "Nobody"`, "", `no text "Nobody"`},
		{`the 3rd word in the 3rd paragraph`, "dolor", ""},
		{`the last word in the 3rd paragraph`, "amet", ""},
		{`the 9th word in the 3rd paragraph`, "", "has no 9th word"},
		{`the first word in the paragraph`, "", "exactly one paragraph"},
	} {
		out, err := s.Do(t.Context(), plan.Step{Action: plan.Extract, TargetDescription: tt.desc, Into: "v"}, driver.DoOptions{WaitBudget: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case tt.refused != "":
			if out.OK || out.Feedback == nil || !strings.Contains(out.Feedback.Details, tt.refused) {
				t.Errorf("%s: want nothing read (%q), got %v %+v", tt.desc, tt.refused, out.Extracted, out.Feedback)
			}
		case !out.OK || out.Extracted["v"] != tt.want:
			t.Errorf("%s: read %v (%+v), want %q", tt.desc, out.Extracted, out.Feedback, tt.want)
		}
	}
}
