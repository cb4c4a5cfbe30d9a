package browser

import (
	"context"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/page"
)

// stored is a snapshot stored, or why it could not be.
type stored struct {
	snap activities.Snapshot
	err  error
}

// earlyBefore stores the "before" screenshot and element list (and the numbered copy,
// for a model) while the page acts and settles, off the step's path.
type earlyBefore struct {
	started bool
	before  chan stored
	marked  chan string
	// start, given to Do as OnBefore, starts storing them.
	start func(png []byte, obs page.Observation)
}

func (a *Activities) storeBeforeEarly(ctx context.Context, name string, numbered bool) *earlyBefore {
	e := &earlyBefore{before: make(chan stored, 1), marked: make(chan string, 1)}
	e.start = func(png []byte, obs page.Observation) {
		e.started = true
		go func() {
			snap, err := a.storeObservation(ctx, name+"-before", obs, png)
			e.before <- stored{snap, err}
		}()
		if numbered {
			go func() { e.marked <- a.storeMarked(ctx, name+"-before-marked.png", png, obs) }()
		}
	}
	return e
}
