//go:build probe

package driver_test

import (
	"os"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/plan"
)

func probeRun(t *testing.T, url string, steps []plan.Step, after []plan.Step) {
	pool := newPool(t)
	s, _, err := pool.Open(t.Context(), "probe", driver.OpenOptions{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range plan.WithTargets(append(steps, after...)) {
		out, err := s.Do(t.Context(), st, driver.DoOptions{WaitBudget: 3 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: ok=%v %q %+v times=%v", st, out.OK, out.Actions, out.Feedback, out.Times)
	}
	time.Sleep(time.Second)
	o, err := s.Observe(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s %s\n%s", o.URL, o.Title, o.Compact())
	if js := os.Getenv("PROBE_JS"); js != "" {
		v, err := s.ProbeEval(js)
		t.Logf("eval: %v %v", v, err)
	}
	png, _ := s.Screenshot(t.Context())
	_ = os.WriteFile("/tmp/probe.png", png, 0o644)
}

func TestProbeIcinga(t *testing.T) {
	w := testenv.StartIcingaWeb(t)
	probeRun(t, w.URL, []plan.Step{
		{Action: plan.Type, TargetDescription: "Username", Value: "admin"},
		{Action: plan.Type, TargetDescription: "Password", Value: testenv.IcingaWebPassword},
		{Action: plan.Click, TargetDescription: "Login"},
	}, []plan.Step{{Action: plan.Click, TargetDescription: "Configuration"}, {Action: plan.Click, TargetDescription: "Access Control"}, {Action: plan.Click, TargetDescription: "Users"}})
}

func TestProbeDirectus(t *testing.T) {
	d := testenv.StartDirectus(t)
	probeRun(t, d.URL, []plan.Step{
		{Action: plan.Type, TargetDescription: "Email", Value: "admin@example.com"},
		{Action: plan.Type, TargetDescription: "Password", Value: testenv.DirectusPassword},
		{Action: plan.Click, TargetDescription: "Sign In"},
	}, []plan.Step{{Action: plan.Click, TargetDescription: "Create"}})
}

func TestProbeDirectusSignIn(t *testing.T) {
	d := testenv.StartDirectus(t)
	pool := newPool(t)
	s, _, err := pool.Open(t.Context(), "probe", driver.OpenOptions{URL: d.URL})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range plan.WithTargets([]plan.Step{
		{Action: plan.Type, TargetDescription: "Email", Value: "admin@example.com"},
		{Action: plan.Type, TargetDescription: "Password", Value: testenv.DirectusPassword},
	}) {
		out, err := s.Do(t.Context(), st, driver.DoOptions{WaitBudget: 3 * time.Second})
		t.Logf("%s: %v %v", st, out.OK, err)
	}
	d0, err := s.ProbeClick("Sign In")
	t.Logf("click took %s err %v; url %s", d0, err, s.URL())
}
