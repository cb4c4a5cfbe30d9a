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
	return has && !patched(ctx, "worker-secrets")
}

// SecretUses are the secrets the goal and its given plan name: what the worker that opens
// the browser checks, before anything starts, that it grants them all, and what a caller
// checks before it starts the run. A plan written later (by a model, or replanned) is
// checked at the moment of typing.
func (in GoalInput) SecretUses() []secret.Use {
	texts := []string{in.Goal}
	for _, s := range in.Plan {
		texts = append(texts, s.Texts()...)
	}
	return plan.SecretUses(texts...)
}
