package driver

import "sync"

// notes is a list the page's event handlers (on their own goroutines) and the steps
// write to, for the next step to take and report.
type notes struct {
	mu   sync.Mutex
	list []string
}

// add appends a note.
func (n *notes) add(note string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.list = append(n.list, note)
}

// peek returns what the list holds, leaving it.
func (n *notes) peek() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.list...)
}

// take empties the list and returns what it held.
func (n *notes) take() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := n.list
	n.list = nil
	return out
}
