package demoapp

import (
	"encoding/json"
	"net/http"
	"slices"
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
