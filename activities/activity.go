package activities

import "go.temporal.io/sdk/workflow"

// Activity names a registered activity together with its input and result types, so that
// the workflow calls it with the right ones and the worker registers it under its name.
type Activity[In, Out any] struct {
	// Name is the activity type's registered name, as the history and the Web UI show it.
	Name string
}

// Execute runs the activity with the options already on ctx and waits for its result.
// On an error the result is what the activity returned beside it, usually zero.
func (a Activity[In, Out]) Execute(ctx workflow.Context, in In) (Out, error) {
	var out Out
	err := workflow.ExecuteActivity(ctx, a.Name, in).Get(ctx, &out)
	return out, err
}

// Start schedules the activity and returns its future, for callers that do not wait.
func (a Activity[In, Out]) Start(ctx workflow.Context, in In) workflow.Future {
	return workflow.ExecuteActivity(ctx, a.Name, in)
}

// Task queues the workers poll. Browser activities after OpenBrowser go to the queue of
// the worker that holds the run's browser, which OpenBrowser names.
const (
	// TaskQueue is the shared queue: workflows, and opening a browser on any worker.
	TaskQueue = "webagent"
	// ModelTaskQueue carries planning, the skills library and every model call, so that
	// they can be rate-limited apart from the browser work.
	ModelTaskQueue = "webagent-model"
)

// The browser family (activities/browser). OpenBrowser runs on the shared queue; the
// others on the queue it names.
var (
	OpenBrowser  = Activity[OpenBrowserInput, OpenBrowserResult]{"OpenBrowser"}
	RunStep      = Activity[RunStepInput, RunStepResult]{"RunStep"}
	Observe      = Activity[ObserveInput, Snapshot]{"Observe"}
	ValidateGoal = Activity[ValidateGoalInput, ValidateGoalResult]{"ValidateGoal"}
	CloseBrowser = Activity[CloseBrowserInput, CloseBrowserResult]{"CloseBrowser"}
	// ShareRun hands out time-limited links to a run's stored objects.
	ShareRun = Activity[ShareRunInput, ShareRunResult]{"ShareRun"}
	// WorkerGrants says which secrets (by name) and internal addresses a worker grants.
	WorkerGrants = Activity[WorkerGrantsInput, WorkerGrantsResult]{"WorkerGrants"}
	// PutRunFiles stores the files given to a run, for its UPLOAD steps (shared queue).
	PutRunFiles = Activity[PutRunFilesInput, PutRunFilesResult]{"PutRunFiles"}
)

// The model family (activities/model), on ModelTaskQueue.
var (
	DecideTarget = Activity[DecideInput, DecideResult]{"DecideTarget"}
	EvaluateStep = Activity[EvaluateStepInput, EvaluateStepResult]{"EvaluateStep"}
	JudgeGoal    = Activity[JudgeGoalInput, JudgeGoalResult]{"JudgeGoal"}
	Summarize    = Activity[SummarizeInput, SummarizeResult]{"Summarize"}
	ExtractData  = Activity[ExtractInput, ExtractResult]{"ExtractData"}
)

// The planning family (activities/planning), on ModelTaskQueue.
var (
	PlanGoal     = Activity[PlanGoalInput, PlanGoalResult]{"PlanGoal"}
	Replan       = Activity[ReplanInput, ReplanResult]{"Replan"}
	SaveSkill    = Activity[SaveSkillInput, SaveSkillResult]{"SaveSkill"}
	ManageSkills = Activity[ManageSkillsInput, ManageSkillsResult]{"ManageSkills"}
)
