package workflows

import "go.temporal.io/sdk/workflow"

// Registry is where workflows are registered: a worker, or a replayer.
type Registry interface {
	RegisterWorkflowWithOptions(w any, options workflow.RegisterOptions)
}

// RegisterAll registers every workflow under the name runs are started by, as a worker
// and the replay tests both must.
func RegisterAll(r Registry) {
	r.RegisterWorkflowWithOptions(Goal, workflow.RegisterOptions{Name: GoalWorkflowName})
	r.RegisterWorkflowWithOptions(SaveSkill, workflow.RegisterOptions{Name: SaveSkillWorkflowName})
	r.RegisterWorkflowWithOptions(ManageSkills, workflow.RegisterOptions{Name: ManageSkillsWorkflowName})
	r.RegisterWorkflowWithOptions(ShareRun, workflow.RegisterOptions{Name: ShareRunWorkflowName})
	r.RegisterWorkflowWithOptions(Suite, workflow.RegisterOptions{Name: SuiteWorkflowName})
	r.RegisterWorkflowWithOptions(Grants, workflow.RegisterOptions{Name: GrantsWorkflowName})
}
