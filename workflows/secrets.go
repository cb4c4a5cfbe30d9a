package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/internal/secret"
	"github.com/webagent-dev/webagent/plan"
)

// legacySecrets says whether a run whose input has "secrets" replays a history from before
// the worker's operator granted secrets by name: such a run was accepted then, and must
// replay as it ran. A new run with "secrets" is refused. Only inputs with secrets record
// the version marker, so that other runs' histories are unchanged.
func legacySecrets(ctx workflow.Context, has bool) bool {
	return has && workflow.GetVersion(ctx, "worker-secrets", workflow.DefaultVersion, 1) == workflow.DefaultVersion
}

// secretUses are the secrets the goal and its given plan name, for the worker that opens
// the browser to check, before anything starts, that it grants them all. A plan written
// later (by a model, or replanned) is checked at the moment of typing.
func (in GoalInput) secretUses() []secret.Use {
	texts := []string{in.Goal}
	for _, s := range in.Plan {
		texts = append(texts, s.Texts()...)
	}
	return plan.SecretUses(texts...)
}
