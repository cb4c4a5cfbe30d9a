package dataset

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
)

// Linker is what ShareRun needs of the object store: *store.MinIO.
type Linker interface {
	List(ctx context.Context, prefix string) ([]string, error)
	Link(ctx context.Context, key string, ttl time.Duration) (string, error)
}

// Sharing hands out links to what runs stored, so that the starter can export a run's
// dataset with no credentials for the store.
type Sharing struct {
	Store Linker
}

// MaxShareTTL caps how long a link works.
const MaxShareTTL = 24 * time.Hour

// ShareRun lists the objects under a run's prefix, each with a link that works for the
// TTL asked for (15 minutes by default, a day at most).
func (s *Sharing) ShareRun(ctx context.Context, in activities.ShareRunInput) (activities.ShareRunResult, error) {
	if !strings.HasPrefix(in.Prefix, "runs/") || strings.Contains(in.Prefix, "..") {
		return activities.ShareRunResult{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("%q is not a run's prefix (runs/<workflowId>/<runId>/...)", in.Prefix), activities.ErrBadInput, nil)
	}
	ttl := in.TTL
	if ttl <= 0 {
		ttl = 15 * time.Minute
	}
	ttl = min(ttl, MaxShareTTL)
	keys, err := s.Store.List(ctx, in.Prefix)
	if err != nil {
		return activities.ShareRunResult{}, err
	}
	res := activities.ShareRunResult{Objects: []activities.SharedObject{}}
	for _, k := range keys {
		u, err := s.Store.Link(ctx, k, ttl)
		if err != nil {
			return activities.ShareRunResult{}, err
		}
		res.Objects = append(res.Objects, activities.SharedObject{Key: k, URL: u})
	}
	return res, nil
}
