package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// Page is what the model is told about a page besides its screenshot.
type Page struct {
	URL   string
	Title string
	// Elements is the compact, numbered element list.
	Elements string
	// Count is the number of elements in the list.
	Count int
	// Outline is the page's headings and announcements, and how far it goes on past the
	// viewport (page.Observation.Outline).
	Outline string
}

// PlanInput is generate_initial_plan's input: the activity's, with the page it names.
type PlanInput struct {
	activities.PlanGoalInput
	Page       Page
	Screenshot []byte
}

// PlanOutput is a plan.
type PlanOutput struct {
	Reasoning string      `json:"reasoning"`
	Steps     []plan.Step `json:"steps"`
}

// Validate checks the plan: 1 to 12 valid steps, targets described as a person sees them.
func (p *PlanOutput) Validate() error { return validateSteps(p.Steps, 1) }

var selectorLike = regexp.MustCompile(`^\s*(?:[#.][\w-]+|//|\w+\[[^\]]+\]|[\w-]+\s*>\s*[\w-]+)`)

func validateSteps(steps []plan.Step, min int) error {
	if len(steps) < min || len(steps) > 12 {
		return fmt.Errorf("the plan has %d steps; it needs %d to 12", len(steps), min)
	}
	var errs []error
	for i := range steps {
		steps[i].Step = i + 1
		if err := steps[i].Validate(); err != nil {
			errs = append(errs, err)
		}
		if selectorLike.MatchString(steps[i].TargetDescription) {
			errs = append(errs, fmt.Errorf("step %d: %q looks like a selector; describe the element as a person sees it", i+1, steps[i].TargetDescription))
		}
	}
	return errors.Join(errs...)
}

// Plan writes the initial plan for a goal from the first observation of the page.
func (c *Client) Plan(ctx context.Context, in PlanInput) (PlanOutput, activities.Usage, error) {
	var out PlanOutput
	u, err := c.ask(ctx, RolePlan, in.Budget, in, []Image{{Label: "Screenshot:", PNG: in.Screenshot}}, planSchema, &out)
	return out, u, err
}

// DecideInput is find_element's input: the activity's (its step bound to its
// parameters), with the page it names.
type DecideInput struct {
	activities.DecideInput
	Page Page
	// Marked is the screenshot with the elements' numbers drawn on it.
	Marked []byte
	Width  int
	Height int
}

// Decisions the decider can make.
const (
	DecideElement     = "element"
	DecideCoordinates = "coordinates"
	DecideFail        = "fail"
)

// Decision is which element to act on, or where to click, or a structured failure.
type Decision struct {
	Action              string   `json:"action"`
	Element             *int     `json:"element,omitempty"`
	X                   *float64 `json:"x,omitempty"`
	Y                   *float64 `json:"y,omitempty"`
	Reason              string   `json:"reason"`
	VisibleAlternatives []string `json:"visible_alternatives,omitempty"`
	Suggestion          string   `json:"suggestion,omitempty"`
	Confidence          float64  `json:"confidence"`
}

type decision struct {
	Decision
	count, width, height int
}

func (d *decision) Validate() error {
	switch d.Action {
	case DecideElement:
		if d.Element == nil || *d.Element < 0 || *d.Element >= d.count {
			return fmt.Errorf(`"element" must be one of the numbers 0-%d in the list`, d.count-1)
		}
	case DecideCoordinates:
		if d.X == nil || d.Y == nil || *d.X < 0 || *d.Y < 0 || *d.X >= float64(d.width) || *d.Y >= float64(d.height) {
			return fmt.Errorf(`"x" and "y" must be a point inside the %dx%d screenshot`, d.width, d.height)
		}
	case DecideFail:
		if strings.TrimSpace(d.Reason) == "" {
			return errors.New(`a "fail" needs a "reason"`)
		}
	default:
		return fmt.Errorf(`"action" must be "element", "coordinates" or "fail", not %q`, d.Action)
	}
	return nil
}

// Decide picks the element for a step that DOM search could not resolve.
func (c *Client) Decide(ctx context.Context, in DecideInput) (Decision, activities.Usage, error) {
	out := decision{count: in.Page.Count, width: in.Width, height: in.Height}
	u, err := c.ask(ctx, RoleDecide, in.Budget, in, []Image{{Label: "Numbered screenshot:", PNG: in.Marked}}, decideSchema, &out)
	return out.Decision, u, err
}

// EvaluateInput is the evaluator's input: the activity's (its step bound), with the
// pages it names.
type EvaluateInput struct {
	activities.EvaluateStepInput
	After     Page
	Before    []byte
	AfterShot []byte
}

// Evaluation is the evaluator's verdict.
type Evaluation struct {
	Success    bool           `json:"success"`
	Confidence float64        `json:"confidence"`
	Reasoning  string         `json:"reasoning"`
	Feedback   *plan.Feedback `json:"feedback,omitempty"`
}

var feedbackTypes = []plan.FeedbackType{plan.WrongElement, plan.Timing, plan.PageState, plan.NotVisible, plan.Other}

// Validate checks the verdict: a failure must come with usable feedback.
func (e *Evaluation) Validate() error {
	if e.Confidence < 0 || e.Confidence > 1 {
		return fmt.Errorf(`"confidence" must be between 0 and 1, not %v`, e.Confidence)
	}
	if e.Success {
		return nil
	}
	if e.Feedback == nil || strings.TrimSpace(e.Feedback.Details) == "" {
		return errors.New(`a failed step needs "feedback" with "details" saying what went wrong`)
	}
	if !slices.Contains(feedbackTypes, e.Feedback.Type) {
		return fmt.Errorf(`"feedback.type" must be one of %v`, feedbackTypes)
	}
	return nil
}

// Evaluate judges a step from its before and after screenshots.
func (c *Client) Evaluate(ctx context.Context, in EvaluateInput) (Evaluation, activities.Usage, error) {
	var out Evaluation
	imgs := []Image{{Label: "Before:", PNG: in.Before}, {Label: "After:", PNG: in.AfterShot}}
	u, err := c.ask(ctx, RoleEvaluate, in.Budget, in, imgs, evaluateSchema, &out)
	return out, u, err
}

// ReplanInput is regenerate_plan's context bundle: the activity's, with the page.
type ReplanInput struct {
	activities.ReplanInput
	Page   Page
	Marked []byte
}

// Strategies are the replanning strategies the model may choose.
var Strategies = plan.ModelStrategies

// ReplanOutput is the new rest of the plan and the strategy chosen.
type ReplanOutput struct {
	Strategy  string      `json:"strategy"`
	Reasoning string      `json:"reasoning"`
	Steps     []plan.Step `json:"steps"`
}

// Validate checks the strategy and, unless it aborts, the steps.
func (r *ReplanOutput) Validate() error {
	if !slices.Contains(Strategies, r.Strategy) {
		return fmt.Errorf(`"strategy" must be one of %v`, Strategies)
	}
	if r.Strategy == plan.StrategyAbort {
		if strings.TrimSpace(r.Reasoning) == "" {
			return errors.New(`an "abort" needs "reasoning" that says why`)
		}
		return nil
	}
	min := 1
	if r.Strategy == plan.StrategySkip {
		min = 0
	}
	return validateSteps(r.Steps, min)
}

// Replan rewrites the rest of the plan from a failure.
func (c *Client) Replan(ctx context.Context, in ReplanInput) (ReplanOutput, activities.Usage, error) {
	var out ReplanOutput
	u, err := c.ask(ctx, RoleReplan, in.Budget, in, []Image{{Label: "Numbered screenshot:", PNG: in.Marked}}, replanSchema, &out)
	return out, u, err
}

// JudgeInput is validate_success's input: the activity's, with the final page.
type JudgeInput struct {
	activities.JudgeGoalInput
	Page Page
	// Text is the final page's text around what the goal names (judgeText); Alerts, what
	// the page announces, wherever it is on the page.
	Text   string
	Alerts []string
	// Path is the run's trajectory, a line a step, marked where a screenshot of the page
	// it left is attached (Shots, in order).
	Path       []string
	Shots      []Image
	Screenshot []byte
}

// Verdict says whether the goal was reached.
type Verdict struct {
	Success    bool    `json:"success"`
	Confidence float64 `json:"confidence"`
	Reason     string  `json:"reason"`
}

// Validate checks the verdict.
func (v *Verdict) Validate() error {
	if v.Confidence < 0 || v.Confidence > 1 {
		return fmt.Errorf(`"confidence" must be between 0 and 1, not %v`, v.Confidence)
	}
	if strings.TrimSpace(v.Reason) == "" {
		return errors.New(`"reason" is empty`)
	}
	return nil
}

// Judge decides from the final page whether the goal was reached.
func (c *Client) Judge(ctx context.Context, in JudgeInput) (Verdict, activities.Usage, error) {
	var out Verdict
	imgs := append(append([]Image(nil), in.Shots...), Image{Label: "Final screenshot:", PNG: in.Screenshot})
	u, err := c.ask(ctx, RoleJudge, in.Budget, in, imgs, judgeSchema, &out)
	return out, u, err
}

// summary is the closing summary as the model answers it.
type summary struct{ activities.Summary }

// Validate checks the summary has its brief.
func (s *summary) Validate() error {
	if strings.TrimSpace(s.Brief) == "" {
		return errors.New(`"brief" is empty`)
	}
	return nil
}

// Summarize writes the closing summary.
func (c *Client) Summarize(ctx context.Context, in activities.SummarizeInput) (activities.Summary, activities.Usage, error) {
	var out summary
	u, err := c.ask(ctx, RoleSummarize, in.Budget, in, nil, summarySchema, &out)
	return out.Summary, u, err
}

// ExtractInput is what an EXTRACT step reads, and the JSON schema its answer follows: the
// activity's (its step bound), with the page.
type ExtractInput struct {
	activities.ExtractInput
	SchemaJSON string
	Page       Page
	Text       string
	Screenshot []byte
	// FullText is the page's whole text, uncut, that every value read must occur in; ""
	// checks nothing.
	FullText string `json:"-"`
}

// Extracted is data read off a page.
type Extracted map[string]any

type extracted struct {
	data     map[string]any
	required []string
	page     *pageText
}

func (e *extracted) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &e.data) }

func (e *extracted) Validate() error {
	var missing []string
	for _, k := range e.required {
		if _, ok := e.data[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("required fields are missing: %s", strings.Join(missing, ", "))
	}
	if e.page != nil {
		if v, bad := e.page.ungrounded(map[string]any(e.data)); bad {
			return groundError(v)
		}
	}
	return nil
}

// Extract reads data shaped by the input's schema off the page.
func (c *Client) Extract(ctx context.Context, in ExtractInput) (Extracted, activities.Usage, error) {
	schema := in.Schema
	if schema == nil {
		schema = map[string]any{"type": "object", "properties": map[string]any{"value": map[string]any{"type": "string"}}, "required": []any{"value"}}
	}
	b, _ := json.MarshalIndent(schema, "", "  ")
	in.SchemaJSON = string(b)
	out := extracted{}
	if in.FullText != "" {
		out.page = newPageText(in.FullText)
	}
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				out.required = append(out.required, s)
			}
		}
	}
	u, err := c.ask(ctx, RoleExtract, in.Budget, in, []Image{{Label: "Screenshot:", PNG: in.Screenshot}}, schema, &out)
	return out.data, u, err
}

func (c *Client) ask(ctx context.Context, role Role, budget activities.Budget, data any, imgs []Image, schema map[string]any, out Output) (activities.Usage, error) {
	system, user, err := Render(string(role), data)
	if err != nil {
		return activities.Usage{}, err
	}
	var attached []Image
	for _, img := range imgs {
		if len(img.PNG) > 0 {
			attached = append(attached, img)
		}
	}
	return c.generate(ctx, call{role: role, cfg: c.cfg.Role(role), system: system, user: user, images: attached, schema: schema, budget: budget}, out)
}
