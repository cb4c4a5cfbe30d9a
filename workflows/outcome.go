package workflows

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/plan"
)

// validate asks, on the final page, whether the goal was reached: the plan's closing
// checks must hold and, with a model, the model must agree. A run with a step done
// without evidence (it changed nothing visible, and nothing could judge it) is never
// verified: a closing check that holds says what the page shows, not that the step did
// what it was for (a "Deploy" click that changed nothing, and the node it was to deploy
// shown on the page anyway). It ends unverified, naming the step.
func (r *run) validate(ctx workflow.Context) error {
	if err := r.validateGoal(ctx); err != nil {
		return err
	}
	if v := &r.res.Validation; v.Verified && unverifiedSteps(r.steps) > 0 && patched(ctx, "unverified-steps-unverify") {
		v.Verified = false
		v.Confidence = min(v.Confidence, 0.5)
	}
	r.res.unverified(r.steps)
	return nil
}

// validateGoal is validate's look at the final page.
func (r *run) validateGoal(ctx workflow.Context) error {
	in := activities.ValidateGoalInput{SessionID: r.browser.session.SessionID, KeyPrefix: r.res.Metadata.keyPrefix(), Goal: r.in.Goal, Params: r.params}
	for _, s := range r.steps {
		switch s.Status {
		case StepCompleted:
			in.StepsCompleted++
			in.StepsPlanned++
		case StepReplanned:
		default:
			in.StepsPlanned++
		}
	}
	for j := len(r.steps) - 1; j >= 0 && r.steps[j].Step.Action == plan.Assert; j-- {
		in.Checks = append([]plan.Step{r.steps[j].Step}, in.Checks...)
	}
	if len(in.Checks) == 0 {
		typed, before, closed, stays := lastForm(r.steps, r.params)
		if stays {
			in.KeptTyped, in.TypedBefore = typed, before.TextKey
		} else {
			in.Typed, in.TypedBefore, in.TypedClosed, in.TypedAt = typed, before.TextKey, closed, before.URL
		}
		in.Done = lastClicks(r.steps, r.params)
		in.Gone = goneItems(r.steps, r.params)
	}
	if r.checkedAtTheEnd(in) && patched(ctx, "fold-validation") {
		// The closing checks were the last steps, and each held on the page as it is
		// now (nothing acted after them): looking again would only read the same page.
		r.res.Validation = Validation{Success: true, Verified: true, Confidence: 0.9, FinalScreenshot: r.last.ScreenshotKey,
			Reason: fmt.Sprintf("all %d steps completed, and on the final page %q: %s (the closing checks were the last steps)", in.StepsPlanned, r.last.Title, plan.Describe(in.Checks, r.params))}
		return nil
	}
	var res activities.ValidateGoalResult
	for try := 0; ; try++ {
		in.SessionID = r.browser.session.SessionID
		var err error
		res, err = activities.ValidateGoal.Execute(r.sessionOptions(ctx, 2*time.Minute, "validate the goal"), in)
		if err != nil && workerLost(err) && try == 0 {
			if rerr := r.recover(ctx, len(r.steps), err, true); rerr != nil {
				return rerr
			}
			continue
		}
		if err != nil {
			if temporal.IsCanceledError(err) {
				return err
			}
			r.res.Validation = Validation{Reason: "could not validate: " + rootMessage(err)}
			return nil
		}
		break
	}
	r.res.Validation = Validation{Success: res.Success, Verified: res.Success && len(in.Checks) > 0, Confidence: res.Confidence, Reason: res.Reason, FinalScreenshot: res.Final.ScreenshotKey}
	r.pageEvidence(ctx, in, res)
	r.last = res.Final
	if r.model && in.StepsCompleted == in.StepsPlanned && (res.Success || len(in.Checks) == 0) {
		if err := r.judge(ctx, in, res); err != nil {
			return err
		}
	}
	return nil
}

// checkedAtTheEnd says whether the run's validation is already done: every step
// completed, the plan ends with its closing checks, each of which held on the final page
// (no step acted after them), and no model is there to judge the page as well.
func (r *run) checkedAtTheEnd(in activities.ValidateGoalInput) bool {
	// Every planned step completed (a replanned one never ends a plan), so the closing
	// checks did, on the page as it is now.
	return !r.model && len(in.Checks) > 0 && in.StepsCompleted == in.StepsPlanned && r.last.ScreenshotKey != ""
}

// unverifiedSteps counts the steps done without evidence that they worked.
func unverifiedSteps(steps []StepRecord) int {
	n := 0
	for _, s := range steps {
		if s.Unverified {
			n++
		}
	}
	return n
}

// unverified says, for a success with no evidence behind it, what of the steps was not
// verified.
func (d *draft) unverified(steps []StepRecord) {
	v := &d.Validation
	if !v.Success || v.Verified {
		return
	}
	var why []string
	for _, s := range steps {
		switch {
		case s.Unverified && s.UnverifiedWhy != "":
			why = append(why, fmt.Sprintf("step %d (%s): %s", s.Order, s.Description, s.UnverifiedWhy))
		case s.Unverified:
			why = append(why, fmt.Sprintf("step %d (%s) changed nothing visible", s.Order, s.Description))
		}
	}
	switch n := len(steps); {
	case d.judgeUnsure && len(why) == 0:
		// The model judged, or could not, and its reason already says why.
		return
	case d.judgeUnsure:
	case len(why) > 0 && n > 0 && steps[n-1].Step.Action == plan.Assert:
		why = append(why, "no model judged the final page, and a closing check shows what the page holds, not that those steps did what they were for")
	default:
		why = append(why, "the goal states no check to confirm it and no model judged the final page")
	}
	v.Confidence = min(v.Confidence, 0.5)
	v.Reason += "; not verified: " + strings.Join(why, "; ")
	d.warn("not verified: " + strings.Join(why, "; ") + `; add a closing check ("then check that ... is visible") or configure a model`)
}

// judge has the model look at the final page as well, and at the run's path to it. A
// judge that errs or is not sure never makes a run a success where the model chose what
// the run did: a closing check the model wrote ("Project archived" is visible) holds for
// the wrong project as well as for the right one.
func (r *run) judge(ctx workflow.Context, in activities.ValidateGoalInput, checks activities.ValidateGoalResult) error {
	var steps []string
	for _, s := range r.steps {
		steps = append(steps, fmt.Sprintf("%s: %s", s.Status, s.Step.Described(r.params)))
	}
	ji := activities.JudgeGoalInput{Goal: r.in.Goal, Steps: steps, Final: checks.Final, Trajectory: r.trajectory()}
	if len(in.Checks) > 0 {
		ji.Checks = checks.Reason
	}
	v, err := askModel(ctx, r, nil, "judge", activities.JudgeGoal, "judge the goal with the model", ji)
	val := &r.res.Validation
	switch {
	case err != nil && temporal.IsCanceledError(err):
		return err
	case err != nil && r.modelChoseAny():
		val.Verified, r.res.judgeUnsure = false, true
		val.Reason += "; not verified: the model chose what the run did, and could not judge the goal (" + rootMessage(err) + ")"
		r.res.warn("the model could not validate the goal (" + rootMessage(err) + "); the run's steps were the model's choices, so the page's own checks do not verify it alone")
		return nil
	case err != nil:
		r.res.warn("the model could not validate the goal (" + rootMessage(err) + "); the page's own checks stand")
		return nil
	}
	val.Success = v.Success && checks.Success
	val.Verified = val.Success && v.Confidence >= judgeSure
	val.Confidence = v.Confidence
	val.Reason = v.Reason
	if val.Success && !val.Verified {
		r.res.judgeUnsure = true
		val.Reason += fmt.Sprintf("; not verified: the model was not sure (confidence %.2f)", v.Confidence)
	}
	if len(in.Checks) > 0 {
		val.Reason += "; " + checks.Reason
	}
	return nil
}

// judgeSure is the confidence below which a judge's success verifies nothing.
const judgeSure = 0.7

// modelChoseAny reports whether a model chose anything the run did: it wrote the plan or
// a step, or picked an element.
func (r *run) modelChoseAny() bool {
	if r.modelPlanned {
		return true
	}
	for _, s := range r.steps {
		if s.ModelWritten || s.ModelPicked || s.Status == StepReplanned {
			return true
		}
	}
	return false
}

// trajectory is the run's path for the judge: each step that ran, with what it did and
// the page it left.
func (r *run) trajectory() []activities.TrajectoryStep {
	var out []activities.TrajectoryStep
	for _, s := range r.steps {
		if s.Attempts == 0 {
			continue
		}
		line := fmt.Sprintf("step %d, %s after %s: %s", s.Order, s.Status, attempts(s.Attempts), s.Description)
		if n := len(s.Actions); n > 0 {
			line += " — " + oneLine(s.Actions[n-1])
		}
		if s.Mutated {
			line += " (it sent a state-changing request)"
		}
		t := activities.TrajectoryStep{Line: line}
		if s.Step.Action.Spec().Acts && s.Evidence.AfterScreenshot != "" {
			t.After = activities.Snapshot{URL: s.URL, ScreenshotKey: s.Evidence.AfterScreenshot, ElementsKey: s.Evidence.AfterElements}
		}
		out = append(out, t)
	}
	return out
}

// finish counts, decides the status and writes the summary. A run is StatusSuccess only
// when every step is done and the validation is verified (a closing check held on the
// final page, or the model judged it with its evidence); done without that is
// StatusUnverified, which nothing counts as a success.
func (r *run) finish(ctx workflow.Context) {
	r.phase = PhaseDone
	ex := &r.res.Execution
	for _, s := range r.steps {
		switch s.Status {
		case StepCompleted:
			ex.StepsCompleted++
		case StepFailed, StepReplanned:
			ex.StepsFailed++
		case StepSkipped, StepPending, StepRunning:
			ex.StepsSkipped++
		}
		if s.Attempts > 1 {
			ex.TotalRetries += s.Attempts - 1
		}
	}
	ex.StepsPlanned = len(r.steps)
	allDone := ex.StepsCompleted > 0 && ex.StepsCompleted+countStatus(r.steps, StepReplanned) == len(r.steps)
	switch {
	case r.held && !r.unattendedStop:
		// A person was asked to approve an action and did not: not a failure of the run,
		// and not done.
		ex.Status = StatusPartial
	case allDone && r.res.Validation.Success && r.res.Validation.Verified:
		ex.Status = StatusSuccess
	case allDone && r.res.Validation.Success:
		// Every step ran, but nothing specific to the goal — no closing check, no model's
		// judgement — says it holds, or a step changed nothing visible: done, not
		// confirmed. Success is not claimed; a step that changed nothing is named in the
		// brief and the warnings (it used to end partial: it was done, not half done).
		ex.Status = StatusUnverified
	case allDone || !madeProgress(r.steps):
		ex.Status = StatusFailed
	default:
		ex.Status = StatusPartial
	}
	now := workflow.Now(ctx)
	r.res.Metadata.FinishedAt = now
	r.res.Metadata.DurationMs = now.Sub(r.started).Milliseconds()
	r.res.Metadata.FinalURL = r.last.URL
	r.res.Steps = r.steps
	sum := &r.res.Summary
	switch ex.Status {
	case StatusSuccess:
		sum.Brief = fmt.Sprintf("Done: %s (%d steps in %.1fs)", oneLine(r.in.Goal), ex.StepsCompleted, float64(r.res.Metadata.DurationMs)/1000)
	case StatusUnverified:
		sum.Brief = fmt.Sprintf("Done, not verified: %s (%d steps in %.1fs); nothing checked the result", oneLine(r.in.Goal), ex.StepsCompleted, float64(r.res.Metadata.DurationMs)/1000)
		if n := unverifiedSteps(r.steps); n > 0 {
			sum.Brief += fmt.Sprintf(", and %d step(s) changed nothing visible", n)
		}
	case StatusPartial:
		sum.Brief = fmt.Sprintf("Partly done: %d of %d steps of %s", ex.StepsCompleted, ex.StepsPlanned, oneLine(r.in.Goal))
		if r.held && len(r.res.Errors) > 0 {
			sum.Brief += " — " + r.res.Errors[len(r.res.Errors)-1].Message
		}
	default:
		sum.Brief = fmt.Sprintf("Failed: %s", oneLine(r.in.Goal))
		if n := len(r.res.Errors); n > 0 {
			sum.Brief += " — " + r.res.Errors[n-1].Message
		} else if r.res.Validation.Reason != "" {
			sum.Brief += " — " + r.res.Validation.Reason
		}
	}
	for _, s := range r.steps {
		if s.Status == StepCompleted {
			sum.Highlights = append(sum.Highlights, s.Description)
		}
	}
	r.report(ctx)
}

// summarize has the model write the closing summary, when there is a model and the run
// planned anything; the counted summary stays if it cannot.
func (r *run) summarize(ctx workflow.Context) {
	if !r.model || len(r.steps) == 0 {
		return
	}
	in := activities.SummarizeInput{Goal: r.in.Goal, Status: string(r.res.Execution.Status)}
	for _, s := range r.steps {
		in.Steps = append(in.Steps, fmt.Sprintf("%s: %s", s.Status, s.Step.Described(r.params)))
	}
	for _, e := range r.res.Errors {
		in.Errors = append(in.Errors, fmt.Sprintf("step %d: %s", e.Step, e.Message))
	}
	if len(r.res.ExtractedData.Structured) > 0 {
		//workflowcheck:ignore encoding/json writes map keys sorted
		b, _ := json.Marshal(r.res.ExtractedData.Structured)
		in.Extracted = string(b)
	}
	res, err := askModel(ctx, r, nil, "summarize", activities.Summarize, "summarize the run", in)
	if err != nil {
		r.res.warn("the model could not summarise the run: " + rootMessage(err))
		return
	}
	sum := &r.res.Summary
	sum.Brief, sum.Detailed = res.Summary.Brief, res.Summary.Detailed
	if len(res.Summary.Highlights) > 0 {
		sum.Highlights = res.Summary.Highlights
	}
	sum.Warnings = append(sum.Warnings, res.Summary.Warnings...)
}

// madeProgress reports whether a step that does something (not only waits or looks)
// completed: a run that did nothing failed rather than partly succeeded.
func madeProgress(steps []StepRecord) bool {
	for _, s := range steps {
		if s.Status == StepCompleted && s.Step.Action.Spec().Progress {
			return true
		}
	}
	return false
}

func countStatus(steps []StepRecord, status StepStatus) int {
	n := 0
	for _, s := range steps {
		if s.Status == status {
			n++
		}
	}
	return n
}
