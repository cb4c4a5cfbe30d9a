package workflows

import (
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

func TestBeforeWait(t *testing.T) {
	r := &run{steps: []StepRecord{
		{Order: 1, Step: plan.Step{Action: plan.Click, TargetDescription: "ONE"}},
		{Order: 2, Step: plan.Step{Action: plan.Wait, Wait: time.Second}},
		{Order: 3, Step: plan.Step{Action: plan.Click, TargetDescription: "TWO"}},
		{Order: 4, Step: plan.Step{Action: plan.Wait, Wait: 4 * time.Second}},
		{Order: 5, Step: plan.Step{Action: plan.Click, TargetDescription: "THREE"}},
		{Order: 6, Step: plan.Step{Action: plan.Wait, TargetDescription: "the spinner"}},
	}}
	for _, tt := range []struct {
		seq     int
		purpose activities.Purpose
		want    time.Duration
	}{
		{1, activities.PurposeAttempt, 500 * time.Millisecond},
		{3, activities.PurposeAttempt, 2 * time.Second},
		{1, activities.PurposeRestore, 0},
		{2, activities.PurposeAttempt, 0},
		{5, activities.PurposeAttempt, 0}, // a wait for an element, not a time
		{6, activities.PurposeAttempt, 0}, // the last step
	} {
		if got := r.beforeWait(tt.seq, tt.purpose); got != tt.want {
			t.Errorf("beforeWait(%d, %s) = %s, want %s", tt.seq, tt.purpose, got, tt.want)
		}
	}
}

func TestNextActs(t *testing.T) {
	r := &run{steps: []StepRecord{
		{Order: 1, Step: plan.Step{Action: plan.Click, TargetDescription: "ONE"}},
		{Order: 2, Step: plan.Step{Action: plan.Wait, Wait: time.Second}},
		{Order: 3, Step: plan.Step{Action: plan.Click, TargetDescription: "TWO"}},
		{Order: 4, Step: plan.Step{Action: plan.Wait, Wait: 2 * time.Second}},
		{Order: 5, Step: plan.Step{Action: plan.Assert, Value: "Done"}},
		{Order: 6, Step: plan.Step{Action: plan.Wait, Wait: 2 * time.Second}},
	}}
	for seq, want := range map[int]bool{1: false, 2: true, 3: false, 4: false, 6: false} {
		if got := r.nextActs(seq, r.steps[seq-1].Step); got != want {
			t.Errorf("nextActs(%d) = %v, want %v", seq, got, want)
		}
	}
}
