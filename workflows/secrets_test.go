package workflows_test

import (
	"slices"
	"testing"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/internal/secret"
	"github.com/webagent-dev/webagent/plan"
	"github.com/webagent-dev/webagent/workflows"
)

// The secrets a goal and its plan name go to the worker that opens the browser, which
// refuses the run before anything starts if it does not grant them all; the run itself
// carries no reference to where a value is read.
func TestSecretsGoToTheWorkerThatOpens(t *testing.T) {
	f := &fakeBrowser{script: func(in activities.RunStepInput, _ int) (activities.RunStepResult, error) { return ok(in), nil }}
	env := newEnv(t, f)
	validates(env, true)
	steps, err := plan.Parse(`type "ada" into "User", type "{{secret:pw}}" into "Password", type "{{totp:otp}}" into "Code", type "{{ secret:pw }}" into "Again"`)
	if err != nil {
		t.Fatal(err)
	}
	execute(t, env, workflows.GoalInput{Goal: "sign in", StartURL: startURL, Plan: steps})
	if len(f.opens) != 1 {
		t.Fatalf("%d opens", len(f.opens))
	}
	want := []secret.Use{{Name: "otp", TOTP: true}, {Name: "pw"}}
	if got := f.opens[0].Secrets; !slices.Equal(got, want) {
		t.Errorf("OpenBrowser was told %v, want %v", got, want)
	}
	for _, c := range f.calls {
		if c.Step.Value != "ada" && !plan.HasSecret(c.Step.Value) {
			t.Errorf("step %d carries %q, not the placeholder", c.Seq, c.Step.Value)
		}
	}
}
