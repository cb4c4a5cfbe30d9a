package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"go.temporal.io/sdk/activity"

	"github.com/webagent-dev/webagent/activities/browser"
	"github.com/webagent-dev/webagent/activities/model"
	"github.com/webagent-dev/webagent/plan"
)

// Model holds the activities that ask Gemini. They run on the model task queue, which
// can be rate-limited on its own; they read the page from the object store by the keys
// the browser activities wrote.
type Model struct {
	Client *model.Client
	Store  Store
}

// page loads an observation's element list and screenshot.
type page struct {
	obs  browser.Observation
	shot []byte
	text string
}

func (m *Model) load(ctx context.Context, snap Snapshot, withText bool) (page, error) {
	var p page
	if snap.ElementsKey == "" || snap.ScreenshotKey == "" {
		return p, fmt.Errorf("the observation of %s was not stored; the model cannot see the page", snap.URL)
	}
	data, err := m.Store.Get(ctx, snap.ElementsKey)
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(data, &p.obs); err != nil {
		return p, fmt.Errorf("read %s: %w", snap.ElementsKey, err)
	}
	if p.shot, err = m.Store.Get(ctx, snap.ScreenshotKey); err != nil {
		return p, err
	}
	if withText && snap.TextKey != "" {
		t, err := m.Store.Get(ctx, snap.TextKey)
		if err != nil {
			return p, err
		}
		p.text = truncateText(string(t), 6000)
	}
	return p, nil
}

func (p page) model() model.Page {
	return model.Page{URL: p.obs.URL, Title: p.obs.Title, Elements: p.obs.Compact(), Count: len(p.obs.Elements)}
}

// marked draws the elements' numbers on the screenshot and stores the copy beside it.
func (m *Model) marked(ctx context.Context, snap Snapshot, p page) ([]byte, string, error) {
	img, err := browser.DrawMarks(p.shot, p.obs)
	if err != nil {
		return nil, "", err
	}
	key := strings.TrimSuffix(snap.ScreenshotKey, ".png") + "-marked.png"
	if err := m.Store.Put(ctx, key, "image/png", img); err != nil {
		return nil, "", err
	}
	return img, key, nil
}

// DecideTarget asks the model which element a step means, from the numbered screenshot
// and the element list, with the feedback of the step's earlier attempts.
func (m *Model) DecideTarget(ctx context.Context, in DecideInput) (DecideResult, error) {
	p, err := m.load(ctx, in.Page, false)
	if err != nil {
		return DecideResult{}, err
	}
	img, key, err := m.marked(ctx, in.Page, p)
	if err != nil {
		return DecideResult{}, err
	}
	w, h := browser.Size(p.shot)
	d, u, err := m.Client.Decide(ctx, model.DecideInput{
		Goal: in.Goal, Step: in.Step.Bind(in.Params), Attempt: in.Attempt, Feedback: in.Feedback,
		Page: p.model(), Marked: img, Width: w, Height: h,
	})
	if err != nil {
		return DecideResult{}, err
	}
	res := DecideResult{MarkedKey: key, Usage: u, Reason: d.Reason}
	switch d.Action {
	case model.DecideElement:
		was := p.obs.Elements[*d.Element]
		res.Decision = &Decision{Element: d.Element, ElementWas: &was}
	case model.DecideCoordinates:
		res.Decision = &Decision{Point: &[2]float64{*d.X, *d.Y}}
	default:
		res.Failure = &plan.Feedback{Type: plan.NotVisible, Details: "the model could not find it: " + d.Reason, Suggestion: d.Suggestion,
			ExpectedElement: in.Step.TargetDescription, Candidates: d.VisibleAlternatives}
	}
	activity.GetLogger(ctx).Info("decided", "step", in.Step.String(), "action", d.Action, "reason", d.Reason)
	return res, nil
}

// EvaluateStep asks the model whether an attempt did what its step should.
func (m *Model) EvaluateStep(ctx context.Context, in EvaluateStepInput) (EvaluateStepResult, error) {
	before, err := m.Store.Get(ctx, in.Before.ScreenshotKey)
	if err != nil {
		return EvaluateStepResult{}, err
	}
	after, err := m.load(ctx, in.After, false)
	if err != nil {
		return EvaluateStepResult{}, err
	}
	ev, u, err := m.Client.Evaluate(ctx, model.EvaluateInput{
		Goal: in.Goal, Step: in.Step.Bind(in.Params), Actions: in.Actions, ChecksPassed: in.ChecksPassed, CheckDetails: in.CheckDetails,
		After: after.model(), Before: before, AfterShot: after.shot,
	})
	if err != nil {
		return EvaluateStepResult{}, err
	}
	return EvaluateStepResult{Success: ev.Success, Confidence: ev.Confidence, Reasoning: ev.Reasoning, Feedback: ev.Feedback, Usage: u}, nil
}

// JudgeGoal asks the model whether the goal was reached, from the final page.
func (m *Model) JudgeGoal(ctx context.Context, in JudgeGoalInput) (JudgeGoalResult, error) {
	p, err := m.load(ctx, in.Final, true)
	if err != nil {
		return JudgeGoalResult{}, err
	}
	v, u, err := m.Client.ValidateGoal(ctx, model.ValidateInput{Goal: in.Goal, Steps: in.Steps, Checks: in.Checks, Page: p.model(), Text: p.text, Screenshot: p.shot})
	if err != nil {
		return JudgeGoalResult{}, err
	}
	return JudgeGoalResult{Success: v.Success, Confidence: v.Confidence, Reason: v.Reason, Usage: u}, nil
}

// Summarize writes the run's closing summary.
func (m *Model) Summarize(ctx context.Context, in SummarizeInput) (SummarizeResult, error) {
	s, u, err := m.Client.Summarize(ctx, model.SummarizeInput{Goal: in.Goal, Status: in.Status, Steps: in.Steps, Errors: in.Errors, Extracted: in.Extracted})
	if err != nil {
		return SummarizeResult{}, err
	}
	return SummarizeResult{Summary: s, Usage: u}, nil
}

// ExtractData reads the data an EXTRACT step asks for off the page, shaped by the
// goal's schema.
func (m *Model) ExtractData(ctx context.Context, in ExtractInput) (ExtractResult, error) {
	p, err := m.load(ctx, in.Page, true)
	if err != nil {
		return ExtractResult{}, err
	}
	data, u, err := m.Client.Extract(ctx, model.ExtractInput{Goal: in.Goal, Step: in.Step.Bind(in.Params), Schema: in.Schema, Page: p.model(), Text: p.text, Screenshot: p.shot})
	if err != nil {
		return ExtractResult{}, err
	}
	return ExtractResult{Data: data, Usage: u}, nil
}

func truncateText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "\n[…]"
}
