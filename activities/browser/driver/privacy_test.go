package driver_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/activities/visual"
	"github.com/webagent-dev/webagent/internal/lab"
	"github.com/webagent-dev/webagent/plan"
)

// TestSecretsAreMasked types a password and a one-time code and checks that no
// screenshot, element list or page text holds them.
func TestSecretsAreMasked(t *testing.T) {
	ctx := t.Context()
	srv := httptest.NewServer(lab.New())
	defer srv.Close()
	s, _, err := newPool(t).Open(t.Context(), "login", driver.OpenOptions{URL: srv.URL + "/static/lab/login.html"})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []plan.Step{
		{Action: plan.Type, TargetDescription: "Username", Value: "ada"},
		{Action: plan.Type, TargetDescription: "Password", Value: "hunter2-secret"},
		{Action: plan.Type, TargetDescription: "One-time code", Value: "918273"},
	} {
		out, err := s.Do(ctx, st, driver.DoOptions{WaitBudget: time.Second})
		if err != nil || !out.OK {
			t.Fatalf("%s: %v %+v", st, err, out.Feedback)
		}
		if a := strings.Join(out.Actions, " "); strings.Contains(a, "hunter2") || strings.Contains(a, "918273") {
			t.Errorf("the actions, which go into the workflow's history, leak a secret: %v", out.Actions)
		}
	}
	obs, err := s.Observe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	png, err := s.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	img, err := visual.Decode(png)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range obs.Elements {
		if e.Name != "Password" && e.Name != "One-time code" {
			continue
		}
		if !e.Secret || e.Value != "••••" {
			t.Errorf("%s: the element list must not hold its value: %+v", e.Name, e)
		}
		// Playwright paints masked elements in magenta, over the whole box.
		for _, dx := range []int{-100, 0, 100} {
			x, y := e.Box.X+e.Box.W/2+dx, e.Box.Y+e.Box.H/2
			c := img.RGBAAt(x, y)
			if c.R < 230 || c.G > 30 || c.B < 230 {
				t.Errorf("%s at (%d,%d) is %v, not the mask colour", e.Name, x, y, c)
			}
		}
	}
	text, err := s.VisibleText(ctx)
	if err != nil || strings.Contains(text, "hunter2") || strings.Contains(text, "918273") || !strings.Contains(text, "ada") {
		t.Errorf("the page text must hold the username but no secret: %q", text)
	}
	marked, err := page.DrawMarks(png, obs)
	if err != nil || len(marked) == 0 {
		t.Fatalf("numbered copy: %v", err)
	}
}
