package main

import (
	"context"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/webagent-dev/webagent/activities"
	"github.com/webagent-dev/webagent/activities/browser"
	"github.com/webagent-dev/webagent/workflows"
)

// admissionWorker is the worker of the queue where runs ask for a browser
// (workflows.OpenQueue): it asks the server for an open only while this process has a
// browser free, so that a run never waits in line behind a busy worker while another
// has one free — it waits on the server, for the first worker with room.
func admissionWorker(c client.Client, shared string, stop time.Duration, b *browser.Activities) (worker.Worker, error) {
	one, err := worker.NewFixedSizeSlotSupplier(1)
	if err != nil {
		return nil, err
	}
	tuner, err := worker.NewCompositeTuner(worker.CompositeTunerOptions{
		WorkflowSlotSupplier: one, LocalActivitySlotSupplier: one, NexusSlotSupplier: one, SessionActivitySlotSupplier: one,
		ActivitySlotSupplier: &browserSlots{free: b.Free, max: b.Pool.Max()},
	})
	if err != nil {
		return nil, err
	}
	opts := options(stop)
	opts.Tuner, opts.DisableWorkflowWorker = tuner, true
	w := worker.New(c, workflows.OpenQueue(shared), opts)
	w.RegisterActivityWithOptions(b.OpenBrowser, activity.RegisterOptions{Name: activities.OpenBrowser.Name})
	return w, nil
}

// browserSlots hands the admission worker a slot for each browser this process has free,
// less the opens it has already taken and not finished: a task is polled for only when a
// browser is there to open.
type browserSlots struct {
	free func() int
	max  int
	mu   sync.Mutex
	held int
}

// ReserveSlot waits until a browser is free.
func (s *browserSlots) ReserveSlot(ctx context.Context, info worker.SlotReservationInfo) (*worker.SlotPermit, error) {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		if p := s.TryReserveSlot(info); p != nil {
			return p, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// TryReserveSlot takes a slot if a browser is free.
func (s *browserSlots) TryReserveSlot(worker.SlotReservationInfo) *worker.SlotPermit {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.free()-s.held <= 0 {
		return nil
	}
	s.held++
	return &worker.SlotPermit{}
}

// MarkSlotUsed does nothing: a slot is held from its reservation on.
func (s *browserSlots) MarkSlotUsed(worker.SlotMarkUsedInfo) {}

// ReleaseSlot gives the slot back once the open is done (its browser, if it opened one,
// now counts as not free).
func (s *browserSlots) ReleaseSlot(worker.SlotReleaseInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.held--
}

// MaxSlots is the pool's size.
func (s *browserSlots) MaxSlots() int { return s.max }
