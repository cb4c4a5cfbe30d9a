//go:build !faultinject

package fault

import "context"

// WithStep returns ctx: without the faultinject tag there is no step to mark.
func WithStep(ctx context.Context, seq int) context.Context { return ctx }

// At does nothing: without the faultinject tag a worker has no hook, whatever
// WEBAGENT_FAULT says.
func At(ctx context.Context, point string) {}
