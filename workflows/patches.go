package workflows

import "go.temporal.io/sdk/workflow"

// allPatches is the one change marker a Goal run records for every change below that it
// was written with (each one a workflow.GetVersion of its own until then). A run that
// began before it replays each change as its history recorded it. Each GetVersion costs a
// run a marker and an upsert of Temporal's change-version search attribute — a visibility
// write on the server — and a new run made nine of them, seven in its first workflow task,
// on the path of every run. A change made after this one asks for its own version, as
// before; a later bundle may take it in the same way.
const allPatches = "changes-2026-11-25"

type patchesKey struct{}

// withPatches marks ctx as a run that has every change of allPatches, when it began after
// them; the first thing a Goal run does.
func withPatches(ctx workflow.Context) workflow.Context {
	if workflow.GetVersion(ctx, allPatches, workflow.DefaultVersion, 1) == 1 {
		return workflow.WithValue(ctx, patchesKey{}, true)
	}
	return ctx
}

// patched reports whether the run has the change: every change of allPatches for a run
// that began after them, and otherwise what workflow.GetVersion says for it.
func patched(ctx workflow.Context, change string) bool {
	if all, _ := ctx.Value(patchesKey{}).(bool); all {
		return true
	}
	return workflow.GetVersion(ctx, change, workflow.DefaultVersion, 1) == 1
}
