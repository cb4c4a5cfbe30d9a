package lab

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
)

// Chore is one item of the lab's chores list (/static/lab/chores.html): a list that uses
// the idioms of real apps — a row's delete button shown only while the row is hovered,
// checkboxes the stylesheet hides behind their labels, editing by double-click, a context
// menu on right-click — and keeps its items on the server, where a test reads them.
type Chore struct {
	Title string `json:"title"`
	Done  bool   `json:"done"`
}

// DefaultChores is the list a reset starts from.
var DefaultChores = []Chore{{Title: "Buy milk"}, {Title: "Water the plants"}, {Title: "Call Ann"}}

// chores answers the list (GET) or takes the whole list the page sends after a change (PUT).
func (s *Server) chores(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.choreList == nil {
		s.choreList = slices.Clone(DefaultChores)
	}
	if r.Method == http.MethodPut {
		var list []Chore
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&list); err != nil {
			http.Error(w, "want a JSON list of chores", http.StatusBadRequest)
			return
		}
		s.choreList, s.choreWrites = list, s.choreWrites+1
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(s.choreList)
}

// Chores returns the chores list as the server keeps it, and how many changes the page
// sent.
func (s *Server) Chores() ([]Chore, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.choreList == nil {
		return slices.Clone(DefaultChores), s.choreWrites
	}
	return slices.Clone(s.choreList), s.choreWrites
}

// ResetChores puts the chores list back as it started.
func (s *Server) ResetChores() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.choreList, s.choreWrites = nil, 0
}

// labState keeps what a lab page sends with PUT /lab/state/{name} (a JSON value) and
// answers it on GET: the board page's columns, for a test to read.
func (s *Server) labState(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.states == nil {
		s.states = map[string]json.RawMessage{}
	}
	if r.Method == http.MethodPut {
		var v json.RawMessage
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&v); err != nil {
			http.Error(w, "want a JSON value", http.StatusBadRequest)
			return
		}
		s.states[name] = v
	}
	w.Header().Set("Content-Type", "application/json")
	if v, ok := s.states[name]; ok {
		_, _ = w.Write(v)
		return
	}
	_, _ = w.Write([]byte("null"))
}

// ResetLabStates forgets what the lab pages sent.
func (s *Server) ResetLabStates() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.states = nil
}

// LabState is what a lab page last sent under name (nil: nothing).
func (s *Server) LabState(name string) json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.states[name]
}

// Line writes a chores list in one line as tests compare it: "Buy milk, Call Ann (done)".
func Line(list []Chore) string {
	out := make([]string, len(list))
	for i, c := range list {
		out[i] = c.Title
		if c.Done {
			out[i] += " (done)"
		}
	}
	return strings.Join(out, ", ")
}
