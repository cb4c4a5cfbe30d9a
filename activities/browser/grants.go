package browser

import (
	"context"

	"github.com/webagent-dev/webagent/activities"
)

// WorkerGrants says what this worker's operator grants runs: the secrets by name (never a
// value, nor where the worker reads it) with the sites each may be typed on, and the
// internal addresses its browsers may reach.
func (a *Activities) WorkerGrants(ctx context.Context, _ activities.WorkerGrantsInput) (activities.WorkerGrantsResult, error) {
	res := activities.WorkerGrantsResult{Secrets: []activities.GrantedSecret{}, Internal: a.Pool.Internal().String()}
	for _, s := range a.Secrets.Names() {
		res.Secrets = append(res.Secrets, activities.GrantedSecret{Name: s.Name, Sites: s.Sites, TOTP: s.TOTP})
	}
	return res, nil
}
