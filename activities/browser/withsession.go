package browser

import (
	"context"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/browser/driver"
)

// withSession runs fn on the run's session, when it is the run's own (mine): it
// heartbeats each second from its start, takes the session's page for fn alone (waiting
// for an activity before it, or giving up when ctx ends), and gives it back when fn
// returns, also when ctx was cancelled.
func (a *Activities) withSession(ctx context.Context, id string, fn func(*driver.Session, *heartbeat) error) error {
	defer a.busy()()
	hb := beat(ctx)
	defer hb.stop()
	if err := a.mine(ctx, id); err != nil {
		return err
	}
	s, err := a.session(id)
	if err != nil {
		return err
	}
	if err := s.Acquire(ctx); err != nil {
		return err
	}
	defer s.Release()
	if err := a.handOff(ctx, id); err != nil {
		return err
	}
	return fn(s, hb)
}

// mine refuses the activity of ctx a session another workflow opened, before the session
// is touched: a session's ID and task queue are in its run's history, which others may
// read, and a run may be started with any input. The workflow that opened a session, and
// the runs it continues as (same workflow ID), are served.
func (a *Activities) mine(ctx context.Context, id string) error {
	who, ok := caller(ctx)
	if !ok {
		return nil
	}
	if !activities.SessionOf(id, who) {
		return notYours(id)
	}
	if s := a.Pool.Peek(id); s != nil && !s.OwnedBy(who) {
		return notYours(id)
	}
	return nil
}
