package browser

// The dataset recorder keeps each run's last state in memory (its decoded pixels among
// them) while the run's browser is here. A run leaves a worker in many ways — its end, a
// wait for a person (the browser released), a recovery or a deploy that moves it to
// another worker, an idle browser reaped after its run was terminated — and the memory
// goes with it in every one: each open and close of a browser here forgets the runs that
// no longer have one here. A run that comes back reloads its manifest from the store.

// uses notes that the run whose evidence goes under prefix has its browser in session.
func (a *Activities) uses(session, prefix string) {
	if a.Dataset == nil || prefix == "" {
		return
	}
	a.queuesMu.Lock()
	defer a.queuesMu.Unlock()
	if a.sessions == nil {
		a.sessions = map[string]string{}
	}
	a.sessions[session] = prefix
}

// forgetGone frees the dataset memory of the runs whose browser is no longer here, once
// their captures under way are done (a capture after the forgetting would keep it).
func (a *Activities) forgetGone() {
	if a.Dataset == nil {
		return
	}
	a.queuesMu.Lock()
	defer a.queuesMu.Unlock()
	live := map[string]bool{}
	var gone []string
	for session, prefix := range a.sessions {
		if a.Pool.Has(session) {
			live[prefix] = true
		} else {
			gone = append(gone, session)
		}
	}
	for _, session := range gone {
		prefix := a.sessions[session]
		if live[prefix] || !a.idle(prefix) {
			continue
		}
		a.Dataset.Forget(prefix)
		delete(a.sessions, session)
	}
}

// idle says, under queuesMu, whether the run's work beside its steps is all done.
func (a *Activities) idle(prefix string) bool {
	last := a.queues[prefix]
	if last == nil {
		return true
	}
	select {
	case <-last:
		return true
	default:
		return false
	}
}
