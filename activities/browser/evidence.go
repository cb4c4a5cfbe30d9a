package browser

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"go.temporal.io/sdk/activity"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/internal/fault"
	"github.com/webagent-dev/webagent/plan"
)

// evidence fans out the storing of an attempt's evidence: the screenshots and element
// lists before and after, the page's text, the storage state, the downloads and the
// dataset's record. Once the step has acted, nothing may fail the activity: a retry would
// act twice. What cannot be stored becomes a warning.
type evidence struct {
	a    *Activities
	s    *driver.Session
	in   activities.RunStepInput
	step plan.Step
	name string
	out  *driver.Outcome
	res  *activities.RunStepResult

	mu sync.Mutex // guards res.Warnings
	wg sync.WaitGroup
}

// store stores it all, side by side, and returns when it is done (the dataset's record
// excepted: it is kept beside the run).
func (e *evidence) store(ctx context.Context, early *earlyBefore) {
	state, text := e.readPage(ctx)
	e.spawn(func() error { return e.before(ctx, early) })
	e.spawn(func() error { return e.after(ctx, text) })
	if state != nil {
		e.spawn(func() error { return e.state(ctx, state) })
	}
	e.downloads(ctx)
	e.dataset(ctx)
	e.wg.Wait()
	if e.out.Acted && e.in.Numbered && early.started {
		e.res.Before.MarkedKey = <-early.marked
	}
}

func (e *evidence) warn(err error) {
	if err != nil {
		e.mu.Lock()
		e.res.Warnings = append(e.res.Warnings, err.Error())
		e.mu.Unlock()
	}
}

// spawn runs f beside the others; its error becomes a warning.
func (e *evidence) spawn(f func() error) {
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		e.warn(f())
	}()
}

// readPage reads the storage state (of a step that succeeded) and the page's text, side
// by side, while this activity still holds the page. The text the page shows after the
// step is what the next step's effect is judged against: a check that already held
// before a step is no evidence that it did anything.
func (e *evidence) readPage(ctx context.Context) (state []byte, text string) {
	if e.out.OK {
		e.spawn(func() (err error) {
			state, err = e.s.StorageState()
			return err
		})
	}
	e.spawn(func() (err error) {
		text, err = e.s.ShownText(ctx)
		return err
	})
	e.wg.Wait()
	return state, text
}

// before stores the page before the action, or takes what was stored while it acted,
// and its text when it was read.
func (e *evidence) before(ctx context.Context, early *earlyBefore) error {
	text := make(chan error, 1)
	go func() { text <- e.beforeText(ctx) }()
	var err error
	if !early.started {
		e.res.Before, err = e.a.storeObservation(ctx, e.name+"-before", e.out.Before, e.out.BeforePNG)
	} else {
		b := <-early.before
		e.res.Before, err = b.snap, b.err
	}
	if terr := <-text; err == nil && terr == nil && e.out.BeforeText != "" {
		e.res.Before.TextKey = e.name + "-before.txt"
	} else if err == nil {
		err = terr
	}
	return err
}

// beforeText stores the page's text before the action, when it was read.
func (e *evidence) beforeText(ctx context.Context) error {
	if e.out.BeforeText == "" {
		return nil
	}
	return e.a.Store.Put(ctx, e.name+"-before.txt", "text/plain; charset=utf-8", []byte(e.out.BeforeText))
}

// after stores the page after the action, and its text.
func (e *evidence) after(ctx context.Context, text string) error {
	// The text is an object of its own: stored beside the picture and the list.
	stored := make(chan error, 1)
	go func() {
		if text == "" {
			stored <- nil
			return
		}
		stored <- e.a.Store.Put(ctx, e.name+"-after.txt", "text/plain; charset=utf-8", []byte(text))
	}()
	var err error
	e.res.After, err = e.a.storeObservation(ctx, e.name+"-after", e.out.After, e.out.AfterPNG)
	textErr := <-stored
	if err != nil {
		return err
	}
	// The step has acted and its evidence is half stored.
	fault.At(ctx, fault.Store)
	if text != "" && textErr == nil {
		e.res.After.TextKey = e.name + "-after.txt"
	}
	return textErr
}

// state stores the cookies and local storage the step left.
func (e *evidence) state(ctx context.Context, state []byte) error {
	key := fmt.Sprintf("%s/state/%03d.json", e.in.KeyPrefix, e.in.Seq)
	if err := e.a.putState(ctx, key, state); err != nil {
		return err
	}
	e.res.StorageStateKey = key
	return nil
}

// downloads stores the files the page downloaded while the step acted, and lists them.
func (e *evidence) downloads(ctx context.Context) {
	in := e.in
	for i, d := range e.out.Downloads {
		dl := activities.Download{Step: in.Seq, Name: d.Name, URL: e.s.Redact(d.URL), Bytes: len(d.Data)}
		if d.Err != nil {
			dl.Error = d.Err.Error()
			e.res.Downloads = append(e.res.Downloads, dl)
			continue
		}
		key := fmt.Sprintf("%s/downloads/%03d-%d-%d-%s", in.KeyPrefix, in.Seq, in.Attempt, i+1, safeFileName(d.Name))
		if err := e.a.Store.Put(ctx, key, "application/octet-stream", d.Data); err != nil {
			dl.Error = "not stored: " + err.Error()
		} else {
			dl.Key = key
		}
		e.res.Downloads = append(e.res.Downloads, dl)
	}
}

// dataset records the pages before and after the step in the run's dataset. The dataset
// is a record of the run: it never fails a step, and it is kept beside the run, not on
// the step's path — in order, run by run, and complete before the run's browser is
// closed.
func (e *evidence) dataset(ctx context.Context) {
	a, in, out := e.a, e.in, e.out
	if a.Dataset == nil || in.Purpose != activities.PurposeAttempt {
		return
	}
	log := activity.GetLogger(ctx)
	shots := []struct {
		action string
		png    []byte
		obs    page.Observation
	}{{"seen before step " + strconv.Itoa(in.Seq), out.BeforePNG, out.Before}, {e.step.String(), out.AfterPNG, out.After}}
	a.behind(in.KeyPrefix, func(ctx context.Context) {
		for _, c := range shots {
			if _, err := a.Dataset.Capture(ctx, in.KeyPrefix, in.Seq, c.action, c.png, c.obs); err != nil {
				log.Warn("dataset capture", "seq", in.Seq, "err", err)
				return
			}
		}
	})
}
