package noise

import (
	"net/http"
	"sync"

	"github.com/webagent-dev/webagent/internal/geminitest"
)

// Router is one stand-in's script for runs that go on at once: it hands each call to the
// script of the run whose goal the prompt states ("Goal: ..." opens every prompt), so
// runs of different goals share a stand-in and a worker.
type Router struct {
	mu      sync.Mutex
	scripts map[string]geminitest.Script
}

// Set routes the calls about goal to script (nil: no more).
func (r *Router) Set(goal string, script geminitest.Script) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.scripts == nil {
		r.scripts = map[string]geminitest.Script{}
	}
	if script == nil {
		delete(r.scripts, goal)
		return
	}
	r.scripts[goal] = script
}

// Script is the router as the stand-in's script.
func (r *Router) Script(c geminitest.Call, n int) geminitest.Reply {
	goal := field(c.Prompt, "Goal")
	r.mu.Lock()
	s := r.scripts[goal]
	r.mu.Unlock()
	if s == nil {
		return geminitest.Reply{Status: http.StatusBadRequest, Message: "no run has the goal " + goal}
	}
	return s(c, n)
}
