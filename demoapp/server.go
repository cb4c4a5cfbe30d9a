// Package demoapp is a small project tracker (in the spirit of Linear or Asana) that the
// agent is demonstrated and tested against. Its interesting UI states have no URL of their
// own: a modal dialog, a row menu, a toast, tabs, and a control that appears only after a
// delay. State lives on the server so that tests can check what really happened.
package demoapp

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

//go:embed static
var static embed.FS

// Priorities are the values the "Priority" select offers.
var Priorities = []string{"Low", "Medium", "High"}

// Project is one row of the tracker.
type Project struct {
	Name     string `json:"name"`
	Priority string `json:"priority"`
	Private  bool   `json:"private"`
	Archived bool   `json:"archived"`
}

// State is what GET /api/state returns.
type State struct {
	Projects []Project `json:"projects"`
	// CreateRequests counts every POST /api/projects received, accepted or not, so that a
	// test can tell a step that ran twice from one that ran once.
	CreateRequests int `json:"createRequests"`
}

// Server serves the tracker's pages and its JSON API.
type Server struct {
	// ControlDelay is how long the page waits before showing its delayed "Import" button.
	ControlDelay time.Duration

	mu    sync.Mutex
	state State
	mux   *http.ServeMux
	// actionsLabel is the accessible name of each row's menu button.
	actionsLabel string
	// onCreate is called when a create request arrives, before it is answered.
	onCreate func()
}

// OnCreate sets a function called whenever a create request arrives, before it is
// answered: a test kills a worker there, the worst moment for a run.
func (s *Server) OnCreate(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onCreate = f
}

// Reset forgets every project and request count.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state = State{}
}

// DefaultActionsLabel is the accessible name of each row's menu button.
const DefaultActionsLabel = "Project actions"

// SetActionsLabel renames each row's menu button, as a site's redesign would: tests use
// it to change the page under a learned skill.
func (s *Server) SetActionsLabel(label string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.actionsLabel = label
}

// New returns a tracker seeded with projects (which may be empty).
func New(seed ...Project) *Server {
	s := &Server{ControlDelay: 1500 * time.Millisecond, mux: http.NewServeMux(), actionsLabel: DefaultActionsLabel}
	s.state.Projects = append([]Project{}, seed...)
	sub, _ := fs.Sub(static, "static")
	files := http.FileServerFS(sub)
	s.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/projects", http.StatusFound)
	})
	s.mux.HandleFunc("GET /projects", func(w http.ResponseWriter, r *http.Request) {
		r.URL.Path = "/"
		files.ServeHTTP(w, r)
	})
	s.mux.Handle("GET /static/", http.StripPrefix("/static", files))
	s.mux.HandleFunc("GET /api/config", s.config)
	s.mux.HandleFunc("GET /api/state", s.getState)
	s.mux.HandleFunc("POST /api/reset", s.reset)
	s.mux.HandleFunc("POST /api/projects", s.create)
	s.mux.HandleFunc("POST /api/projects/archive", s.archive)
	s.mux.HandleFunc("POST /api/projects/rename", s.rename)
	s.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	s.mux.ServeHTTP(w, r)
}

// Snapshot returns a copy of the current state.
func (s *Server) Snapshot() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.state
	st.Projects = slices.Clone(s.state.Projects)
	if st.Projects == nil {
		st.Projects = []Project{}
	}
	return st
}

func (s *Server) config(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	label := s.actionsLabel
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"controlDelayMs": s.ControlDelay.Milliseconds(), "actionsLabel": label})
}

func (s *Server) getState(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.Snapshot())
}

// reset clears the state; a body {"projects": [...]} seeds it.
func (s *Server) reset(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Projects []Project `json:"projects"`
	}
	if r.ContentLength > 0 {
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			writeError(w, http.StatusBadRequest, "reset body must be {\"projects\": [...]}: %v", err)
			return
		}
	}
	for i, p := range body.Projects {
		if err := validate(&body.Projects[i]); err != nil {
			writeError(w, http.StatusBadRequest, "project %q: %v", p.Name, err)
			return
		}
	}
	s.mu.Lock()
	s.state = State{Projects: body.Projects}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, s.Snapshot())
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.state.CreateRequests++
	hook := s.onCreate
	s.mu.Unlock()
	if hook != nil {
		hook()
	}
	var p Project
	if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
		writeError(w, http.StatusBadRequest, "bad project: %v", err)
		return
	}
	if err := validate(&p); err != nil {
		writeError(w, http.StatusUnprocessableEntity, "%v", err)
		return
	}
	p.Archived = false
	s.mu.Lock()
	s.state.Projects = append(s.state.Projects, p)
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, p)
}

func (s *Server) archive(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Name string `json:"name"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		writeError(w, http.StatusBadRequest, "bad request: %v", err)
		return
	}
	s.update(w, body.Name, func(p *Project) error { p.Archived = true; return nil })
}

func (s *Server) rename(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Name    string `json:"name"`
		NewName string `json:"newName"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		writeError(w, http.StatusBadRequest, "bad request: %v", err)
		return
	}
	newName := strings.TrimSpace(body.NewName)
	s.update(w, body.Name, func(p *Project) error {
		if newName == "" {
			return errors.New("the new name is empty")
		}
		p.Name = newName
		return nil
	})
}

func (s *Server) update(w http.ResponseWriter, name string, change func(*Project) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.state.Projects {
		if s.state.Projects[i].Name == name {
			if err := change(&s.state.Projects[i]); err != nil {
				writeError(w, http.StatusUnprocessableEntity, "%v", err)
				return
			}
			writeJSON(w, http.StatusOK, s.state.Projects[i])
			return
		}
	}
	writeError(w, http.StatusNotFound, "no project named %q", name)
}

func validate(p *Project) error {
	p.Name = strings.TrimSpace(p.Name)
	if p.Name == "" {
		return errors.New("the project name is empty")
	}
	if p.Priority == "" {
		p.Priority = "Medium"
	}
	if !slices.Contains(Priorities, p.Priority) {
		return fmt.Errorf("priority %q is not one of %v", p.Priority, Priorities)
	}
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, map[string]string{"error": fmt.Sprintf(format, args...)})
}
