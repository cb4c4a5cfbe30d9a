package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"go.temporal.io/sdk/temporal"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/store"
)

// intend stores the attempt's intent to act (activities.IntentKey) and returns once the
// store has it: until then the attempt does nothing to the page.
func (a *Activities) intend(ctx context.Context, in activities.RunStepInput) error {
	data, err := json.Marshal(activities.ActingNotice{Seq: in.Seq, Attempt: in.Attempt})
	if err != nil {
		return err
	}
	return a.Store.Put(ctx, activities.IntentKey(in.KeyPrefix, in.Seq, in.Attempt), "application/json", data)
}

// Intended says whether an attempt stored its intent to act: asked by a run whose
// attempt ended in an error, on any worker, of its own objects only (its workflow's key
// prefix). A store that cannot answer is an error, retried: the answer is never a guess.
func (a *Activities) Intended(ctx context.Context, in activities.IntendedInput) (activities.IntendedResult, error) {
	if who, checked := caller(ctx); checked && !strings.HasPrefix(in.KeyPrefix, activities.RunPrefix(who, "")) {
		return activities.IntendedResult{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("the objects under %q are another workflow's", in.KeyPrefix), activities.ErrNotYourSession, nil)
	}
	_, err := a.Store.Get(ctx, activities.IntentKey(in.KeyPrefix, in.Seq, in.Attempt))
	switch {
	case err == nil:
		return activities.IntendedResult{Told: true}, nil
	case errors.Is(err, store.ErrNotFound):
		return activities.IntendedResult{}, nil
	}
	return activities.IntendedResult{}, err
}
