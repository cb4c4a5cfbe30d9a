package workflows

import "go.temporal.io/sdk/workflow"

// allPatches is the one change marker a Goal run records for every change below that it
// was written with (each one a workflow.GetVersion of its own until then). A run that
// began before it replays each change as its history recorded it. Each GetVersion costs a
// run a marker and an upsert of Temporal's change-version search attribute — a visibility
// write on the server — and a new run made nine of them, seven in its first workflow task,
// on the path of every run. A change made after this one asks for its own version, as
// before, or joins the bundle at its next version (bundled), which only runs begun after
// it record.
const allPatches = "changes-2026-11-25"

// bundled are the changes that joined allPatches after its first version, each with the
// version that brought it; a run that recorded an earlier version does without them.
var bundled = map[string]workflow.Version{
	// intentObject: an attempt records its intent to act as an object in the store, and
	// the run asks for it only when the attempt ended in an error; runs before signal it.
	intentObject: 2,
}

// latestPatches is the version of allPatches a new run records.
const latestPatches workflow.Version = 2

type patchesKey struct{}

// withPatches marks ctx with the version of allPatches the run records, when it began
// after the first; the first thing a Goal run does.
func withPatches(ctx workflow.Context) workflow.Context {
	if v := workflow.GetVersion(ctx, allPatches, workflow.DefaultVersion, latestPatches); v >= 1 {
		return workflow.WithValue(ctx, patchesKey{}, v)
	}
	return ctx
}

// patched reports whether the run has the change: a change of the allPatches version the
// run recorded or an earlier one, and for a run that began before allPatches, what
// workflow.GetVersion says for it.
func patched(ctx workflow.Context, change string) bool {
	if v, ok := ctx.Value(patchesKey{}).(workflow.Version); ok {
		return v >= max(bundled[change], 1)
	}
	return workflow.GetVersion(ctx, change, workflow.DefaultVersion, 1) == 1
}
