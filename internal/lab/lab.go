// Package lab is the test fixture the browser and end-to-end tests drive besides the demo
// app: a page per behaviour under /static/lab/ (a canvas, a sign-in form, a sortable list,
// frames, a slow report...) and the endpoints they send to under /lab/, where a test reads
// what the page did. It serves the demo app for every other path, so that lab pages and the
// tracker share one origin and one stylesheet as before; the demo app's own binary carries
// none of it.
package lab

import (
	"embed"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/webagent-dev/webagent/demoapp"
)

//go:embed pages
var pages embed.FS

// Server is the demo app with the lab's pages and endpoints beside it. The demo app's
// methods (Snapshot, Reset, OnCreate, SetActionsLabel) are its own.
type Server struct {
	*demoapp.Server
	mux *http.ServeMux

	mu sync.Mutex
	// observations are when the watch page saw the agent look at it.
	observations []time.Time
	// published counts the clicks on the canvas page's painted "Publish".
	published int
	// saves counts the settings page's "Save" requests.
	saves int
	// account may sign in at /lab/signin; signIns counts its sign-ins.
	account Account
	signIns int
	// tickets are the sign-ins waiting for their one-time code.
	tickets map[string]bool
	// choreList is the chores list (nil: the default one); choreWrites counts the
	// changes the page sent.
	choreList   []Chore
	choreWrites int
	// states are what lab pages sent to /lab/state/{name}.
	states map[string]json.RawMessage
}

// New returns the lab beside a demo app seeded with projects (which may be empty).
func New(seed ...demoapp.Project) *Server {
	s := &Server{Server: demoapp.New(seed...), mux: http.NewServeMux()}
	sub, _ := fs.Sub(pages, "pages")
	s.mux.Handle("GET /static/lab/", http.StripPrefix("/static/lab", http.FileServerFS(sub)))
	s.mux.HandleFunc("GET /lab/slow", s.slow)
	s.mux.HandleFunc("POST /lab/observed", s.observed)
	s.mux.HandleFunc("POST /lab/publish", s.count(&s.published))
	s.mux.HandleFunc("POST /lab/save", s.count(&s.saves))
	s.mux.HandleFunc("/lab/chores", s.chores)
	s.mux.HandleFunc("/lab/state/{name}", s.labState)
	s.mux.HandleFunc("/lab/signin", s.signin)
	s.mux.HandleFunc("/lab/signin/code", s.signinCode)
	s.mux.HandleFunc("GET /lab/invoice.csv", invoice)
	s.mux.Handle("/", s.Server)
	return s
}

// ServeHTTP implements http.Handler: the lab's paths, and the demo app's for the rest.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	s.mux.ServeHTTP(w, r)
}

// MaxSlow caps how long the slow page keeps a request waiting.
const MaxSlow = time.Minute

// slow answers after ms milliseconds (at most MaxSlow): a page that takes long to load,
// to check that a browser step busy with it is not taken for a lost worker.
func (s *Server) slow(w http.ResponseWriter, r *http.Request) {
	d := time.Second
	if v, err := strconv.Atoi(r.URL.Query().Get("ms")); err == nil && v >= 0 {
		d = min(time.Duration(v)*time.Millisecond, MaxSlow)
	}
	select {
	case <-time.After(d):
	case <-r.Context().Done():
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Slow report · Lab</title></head>
<body><main><h1>Slow report</h1><p>This page took %s to answer.</p><a href="/projects">Back to projects</a></main></body></html>`, html.EscapeString(d.String()))
}

// observed records that the page at /static/lab/watch.html saw the agent look at it.
func (s *Server) observed(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	s.observations = append(s.observations, time.Now())
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// Observations returns when the watch page saw the agent look at it, in order: a test
// uses it to tell when the browser stopped acting.
func (s *Server) Observations() []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.observations)
}

// count answers a request to an endpoint by counting it in *n: a test reads the count on
// the server side to tell whether, and how often, the agent acted.
func (s *Server) count(n *int) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		s.mu.Lock()
		*n++
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}
}

// counted is *n, read under the lock.
func (s *Server) counted(n *int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return *n
}

// Published is how often the canvas page's painted "Publish" was clicked.
func (s *Server) Published() int { return s.counted(&s.published) }

// Saves is how often the settings page's "Save" reached the server: it changes server
// state and nothing the page shows, so a test tells a click done once from one repeated.
func (s *Server) Saves() int { return s.counted(&s.saves) }

// Invoice is the file the windows page's "Download the invoice" sends as an attachment.
const Invoice = "item,amount\nHosting,120.00\nSupport,80.00\n"

func invoice(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="invoice-2026-11.csv"`)
	fmt.Fprint(w, Invoice)
}
