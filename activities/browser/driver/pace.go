package driver

import (
	"context"
	"time"

	"github.com/playwright-community/playwright-go"
)

// pacer times "click ONE, wait 1 second, then click TWO": the action after a WAIT comes
// the WAIT's time after the action before it. It is the session's one timing feature,
// opt-in: only a WAIT that paces its next step (DoOptions.PaceNext) sets a time, and only
// the step it timed consults it. Every other step acts as soon as it is ready.
type pacer struct {
	// actedAt is when the last step that acts did its action, and leadIn how long that
	// step took from its start to its action: a WAIT counts from the one and allows for
	// the other (wait). due is when a WAIT says the next action may come.
	actedAt time.Time
	leadIn  time.Duration
	due     time.Time
}

// paceSlack is what the margin of a paced WAIT allows for the activities between it and
// the next action (a Temporal round trip each, and an observation).
const paceSlack = 300 * time.Millisecond

// acted records the action of a step that acts: when it acted, and how long it took
// from its start to get there.
func (p *pacer) acted(at time.Time, leadIn time.Duration) { p.actedAt, p.leadIn = at, leadIn }

// timed reports whether a WAIT set a time for the next action.
func (p *pacer) timed() bool { return !p.due.IsZero() }

// wait is how long a WAIT of d sleeps so that the action after it comes d after the
// action before it, as "click ONE, wait 1 second, then click TWO" means. The WAIT sets
// when the next action may come (d after the last action) and sleeps until a margin
// before it: the margin allows for the next step's lead-in (twice the last acting step's,
// from its start to its action, plus the activities between; at most three quarters of d —
// the next step looks for its target until the wait's end and its own wait after), and the
// next step sleeps the rest (keep): one that acts just before it acts (a click once the
// browser's checks on its target are done), any other before it looks — so the action
// lands on time whether the lead-in is long or short. A WAIT with no action after it (next
// false: the last step, or one that only reads) leaves nothing to it and sleeps to d
// after the last action; with no action before it in this browser, all of d.
func (p *pacer) wait(pg playwright.Page, d time.Duration, next bool) time.Duration {
	if p.actedAt.IsZero() {
		return d
	}
	// When the page saw the last action's input, if it can say (a page that navigated
	// since cannot; an iframe's input is not seen from the top).
	if v, err := pg.Evaluate(`() => window.__webagentInputAt || 0`); err == nil {
		if ms, ok := v.(int); ok && ms > 0 {
			at := time.UnixMilli(int64(ms))
			if at.After(p.actedAt) && at.Before(p.actedAt.Add(10*time.Second)) {
				p.actedAt = at
			}
		}
	}
	if !next {
		return max(0, time.Until(p.actedAt.Add(d)))
	}
	p.due = p.actedAt.Add(d)
	margin := min(2*p.leadIn+paceSlack, d*3/4)
	return max(0, time.Until(p.due)-margin)
}

// targetDeadline is until when a timed step looks for its target: as long after the
// time the WAIT set as any other step looks (the target may come meanwhile).
func (p *pacer) targetDeadline(budget time.Duration) time.Time {
	if p.due.After(time.Now()) {
		return p.due.Add(budget)
	}
	return time.Now().Add(budget)
}

// keep sleeps until the time a WAIT set for the next action, once.
func (p *pacer) keep(ctx context.Context) error {
	t := p.due
	p.due = time.Time{}
	if d := time.Until(t); d > 0 {
		return sleep(ctx, d)
	}
	return nil
}
