package model

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"go.temporal.io/sdk/activity"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/internal/textcut"
	"github.com/webagent-dev/webagent/plan"
)

// Store is what the model activities need of the object store: they read the pages the
// browser activities stored, and store the numbered copies they draw.
type Store interface {
	Put(ctx context.Context, key, contentType string, data []byte) error
	Get(ctx context.Context, key string) ([]byte, error)
}

// Activities are the activities that ask Gemini. They run on the model task queue, which
// can be rate-limited on its own. Register them under the names in the activities package.
type Activities struct {
	Client *Client
	Store  Store
}

// loaded is an observation read back from the store.
type loaded struct {
	obs  page.Observation
	shot []byte
	// text is the page's text cut for a prompt; full is all of it.
	text, full string
}

// load reads an observation's element list and screenshot (and its text, when asked).
func load(ctx context.Context, st Store, snap activities.Snapshot, withText bool) (loaded, error) {
	var p loaded
	if snap.ElementsKey == "" || snap.ScreenshotKey == "" {
		return p, fmt.Errorf("the observation of %s was not stored; the model cannot see the page", snap.URL)
	}
	data, err := st.Get(ctx, snap.ElementsKey)
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(data, &p.obs); err != nil {
		return p, fmt.Errorf("read %s: %w", snap.ElementsKey, err)
	}
	if p.shot, err = st.Get(ctx, snap.ScreenshotKey); err != nil {
		return p, err
	}
	if withText && snap.TextKey != "" {
		t, err := st.Get(ctx, snap.TextKey)
		if err != nil {
			return p, err
		}
		p.full = string(t)
		p.text = truncateText(p.full, 6000)
	}
	return p, nil
}

func (p loaded) page() Page {
	return Page{URL: p.obs.URL, Title: p.obs.Title, Elements: p.obs.Compact(), Count: len(p.obs.Elements), Outline: p.obs.Outline()}
}

// marked draws the elements' numbers on the screenshot and stores the copy beside it.
func marked(ctx context.Context, st Store, snap activities.Snapshot, p loaded) ([]byte, string, error) {
	img, err := page.DrawMarks(p.shot, p.obs)
	if err != nil {
		return nil, "", err
	}
	key := strings.TrimSuffix(snap.ScreenshotKey, ".png") + "-marked.png"
	if err := st.Put(ctx, key, "image/png", img); err != nil {
		return nil, "", err
	}
	return img, key, nil
}

// DecideTarget asks the model which element a step means, from the numbered screenshot
// and the element list, with the feedback of the step's earlier attempts.
func (a *Activities) DecideTarget(ctx context.Context, in activities.DecideInput) (activities.DecideResult, error) {
	p, err := load(ctx, a.Store, in.Page, false)
	if err != nil {
		return activities.DecideResult{}, err
	}
	img, key, err := marked(ctx, a.Store, in.Page, p)
	if err != nil {
		return activities.DecideResult{}, err
	}
	w, h := page.Size(p.shot)
	bound := in
	bound.Step = in.Step.Bind(in.Params)
	if a.Client.Config().ComputerUse && UsesComputerUse(in.Step.Action) {
		res, err := a.computerUse(ctx, ComputerUseInput{DecideInput: bound, Page: p.page(), Marked: img, Width: w, Height: h})
		res.MarkedKey = key
		if err != nil {
			return activities.DecideResult{}, activities.WithUsage(err, res.Usage)
		}
		if d := res.Decision; d != nil && d.Point != nil {
			res = refuse(res, heldPoint(bound.Step, p.obs, *d.Point, in.Avoid))
		}
		activity.GetLogger(ctx).Info("decided with the computer-use tool", "step", in.Step.String(), "reason", res.Reason)
		return res, nil
	}
	d, u, err := a.Client.Decide(ctx, DecideInput{DecideInput: bound, Page: p.page(), Marked: img, Width: w, Height: h})
	if err != nil {
		return activities.DecideResult{}, activities.WithUsage(err, u)
	}
	res := activities.DecideResult{MarkedKey: key, Usage: u, Reason: d.Reason}
	switch d.Action {
	case DecideElement:
		was := p.obs.Elements[*d.Element]
		res.Decision = &activities.Decision{Element: d.Element, ElementWas: new(activities.RefOf(was))}
		res = refuse(res, held(bound.Step, p.obs, was, in.Avoid))
	case DecideCoordinates:
		res.Decision = &activities.Decision{Point: &[2]float64{*d.X, *d.Y}}
		res = refuse(res, heldPoint(bound.Step, p.obs, *res.Decision.Point, in.Avoid))
	default:
		res.Failure = &plan.Feedback{Type: plan.NotVisible, Details: "the model could not find it: " + d.Reason, Suggestion: d.Suggestion,
			ExpectedElement: in.Step.TargetDescription, Candidates: d.VisibleAlternatives}
	}
	activity.GetLogger(ctx).Info("decided", "step", in.Step.String(), "action", d.Action, "reason", d.Reason, "refused", res.Failure != nil)
	return res, nil
}

// refuse turns a decision into the failure f, when there is one: a refused pick is never
// returned to be acted on.
func refuse(res activities.DecideResult, f *plan.Feedback) activities.DecideResult {
	if f != nil {
		res.Decision, res.Failure = nil, f
	}
	return res
}

// computerUse decides with the computer-use tool, with the pages the step's earlier tool
// actions left.
func (a *Activities) computerUse(ctx context.Context, in ComputerUseInput) (activities.DecideResult, error) {
	for _, t := range in.Turns {
		var shot []byte
		if t.After.ScreenshotKey != "" {
			var err error
			if shot, err = a.Store.Get(ctx, t.After.ScreenshotKey); err != nil {
				return activities.DecideResult{}, err
			}
		}
		in.TurnShots = append(in.TurnShots, shot)
	}
	return a.Client.ComputerUse(ctx, in)
}

// EvaluateStep asks the model whether an attempt did what its step should.
func (a *Activities) EvaluateStep(ctx context.Context, in activities.EvaluateStepInput) (activities.EvaluateStepResult, error) {
	before, err := a.Store.Get(ctx, in.Before.ScreenshotKey)
	if err != nil {
		return activities.EvaluateStepResult{}, err
	}
	after, err := load(ctx, a.Store, in.After, false)
	if err != nil {
		return activities.EvaluateStepResult{}, err
	}
	bound := in
	bound.Step = in.Step.Bind(in.Params)
	ev, u, err := a.Client.Evaluate(ctx, EvaluateInput{EvaluateStepInput: bound, After: after.page(), Before: before, AfterShot: after.shot})
	if err != nil {
		return activities.EvaluateStepResult{}, activities.WithUsage(err, u)
	}
	return activities.EvaluateStepResult{Success: ev.Success, Confidence: ev.Confidence, Reasoning: ev.Reasoning, Feedback: ev.Feedback, Usage: u}, nil
}

// JudgeGoal asks the model whether the goal was reached, from the final page, the
// screenshots of the last steps that changed the page, and the run's path.
func (a *Activities) JudgeGoal(ctx context.Context, in activities.JudgeGoalInput) (activities.JudgeGoalResult, error) {
	p, err := load(ctx, a.Store, in.Final, true)
	if err != nil {
		return activities.JudgeGoalResult{}, err
	}
	shots, path, err := trajectoryShots(ctx, a.Store, in.Trajectory)
	if err != nil {
		return activities.JudgeGoalResult{}, err
	}
	var alerts []string
	for _, b := range p.obs.Alerts() {
		alerts = append(alerts, fmt.Sprintf("%s: %q", b.Kind, b.Text))
	}
	v, u, err := a.Client.Judge(ctx, JudgeInput{JudgeGoalInput: in, Page: p.page(), Text: judgeText(p.full, in.Goal),
		Alerts: alerts, Path: path, Shots: shots, Screenshot: p.shot})
	if err != nil {
		return activities.JudgeGoalResult{}, activities.WithUsage(err, u)
	}
	return activities.JudgeGoalResult{Success: v.Success, Confidence: v.Confidence, Reason: v.Reason, Usage: u}, nil
}

// Summarize writes the run's closing summary.
func (a *Activities) Summarize(ctx context.Context, in activities.SummarizeInput) (activities.SummarizeResult, error) {
	s, u, err := a.Client.Summarize(ctx, in)
	if err != nil {
		return activities.SummarizeResult{}, activities.WithUsage(err, u)
	}
	return activities.SummarizeResult{Summary: s, Usage: u}, nil
}

// ExtractData reads the data an EXTRACT step asks for off the page, shaped by the
// goal's schema.
func (a *Activities) ExtractData(ctx context.Context, in activities.ExtractInput) (activities.ExtractResult, error) {
	p, err := load(ctx, a.Store, in.Page, true)
	if err != nil {
		return activities.ExtractResult{}, err
	}
	bound := in
	bound.Step = in.Step.Bind(in.Params)
	data, u, err := a.Client.Extract(ctx, ExtractInput{ExtractInput: bound, Page: p.page(), Text: p.text, Screenshot: p.shot, FullText: p.full})
	if err != nil {
		return activities.ExtractResult{}, activities.WithUsage(err, u)
	}
	return activities.ExtractResult{Data: data, Usage: u}, nil
}

// Planner writes and rewrites plans with the model, from the pages the browser stored.
// The planning activities use it; it is not an activity itself.
type Planner struct {
	Client *Client
	Store  Store
}

// Plan writes the initial plan for a goal from its first observation of the page.
func (p *Planner) Plan(ctx context.Context, in activities.PlanGoalInput) (PlanOutput, activities.Usage, error) {
	if in.Observation == nil {
		return PlanOutput{}, activities.Usage{}, fmt.Errorf("the model plans from a look at the page, and none was given")
	}
	pg, err := load(ctx, p.Store, *in.Observation, false)
	if err != nil {
		return PlanOutput{}, activities.Usage{}, err
	}
	out, u, err := p.Client.Plan(ctx, PlanInput{PlanGoalInput: in, Page: pg.page(), Screenshot: pg.shot})
	return out, u, activities.WithUsage(err, u)
}

// Replan rewrites the rest of the plan from a failure, on the numbered current page.
func (p *Planner) Replan(ctx context.Context, in activities.ReplanInput) (ReplanOutput, activities.Usage, error) {
	pg, err := load(ctx, p.Store, in.Current, false)
	if err != nil {
		return ReplanOutput{}, activities.Usage{}, err
	}
	img, _, err := marked(ctx, p.Store, in.Current, pg)
	if err != nil {
		return ReplanOutput{}, activities.Usage{}, err
	}
	out, u, err := p.Client.Replan(ctx, ReplanInput{ReplanInput: in, Page: pg.page(), Marked: img})
	return out, u, activities.WithUsage(err, u)
}

func truncateText(s string, n int) string { return textcut.Cut(s, n, "\n[…]") }
