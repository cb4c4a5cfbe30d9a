package demoapp

import (
	"fmt"
	"html"
	"net/http"
	"slices"
	"strconv"
	"time"
)

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

// publish records a click on the canvas page's painted "Publish" button: a test counts
// them on the server side to tell whether, and how often, the agent acted.
func (s *Server) publish(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	s.published++
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// Published is how often the canvas page's "Publish" was clicked.
func (s *Server) Published() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.published
}

// save records a click on the settings page's "Save", which changes server state and
// nothing the page shows: a test counts them to tell a click done once from one repeated.
func (s *Server) save(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	s.saves++
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// Saves is how often the settings page's "Save" reached the server.
func (s *Server) Saves() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.saves
}

// Account is the lab sign-in page's one user.
type Account struct{ User, Password, PIN string }

// SetAccount sets who may sign in at /lab/signin.
func (s *Server) SetAccount(a Account) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.account = a
}

// SignIns is how many sign-ins at /lab/signin succeeded.
func (s *Server) SignIns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.signIns
}

// signin is a sign-in form checked on the server, with the two ways real pages show a
// secret as text: a "Show password" toggle and a PIN field that is a plain text box.
func (s *Server) signin(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	msg := ""
	if r.Method == http.MethodPost {
		s.mu.Lock()
		a := s.account
		ok := a.User != "" && r.FormValue("user") == a.User && r.FormValue("password") == a.Password && r.FormValue("pin") == a.PIN
		if ok {
			s.signIns++
		}
		s.mu.Unlock()
		if ok {
			fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Welcome · Lab</title></head>
<body><main><h1>Welcome, %s</h1><p>You are signed in.</p></main></body></html>`, html.EscapeString(a.User))
			return
		}
		msg = `<p role="alert">Wrong user name, password or PIN.</p>`
	}
	fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in · Lab</title><link rel="stylesheet" href="/static/style.css"></head>
<body><main><h1>Sign in</h1>%s
<form method="post" action="/lab/signin">
  <p><label for="user">User name</label> <input id="user" name="user" autocomplete="username"></p>
  <p><label for="password">Password</label> <input id="password" name="password" type="password"></p>
  <p><label><input type="checkbox" id="show" onchange="document.getElementById('password').type = this.checked ? 'text' : 'password'"> Show password</label></p>
  <p><label for="pin">PIN</label> <input id="pin" name="pin" inputmode="numeric"></p>
  <button type="submit">Sign in</button>
</form></main></body></html>`, msg)
}

// Invoice is the file the windows page's "Download the invoice" sends as an attachment.
const Invoice = "item,amount\nHosting,120.00\nSupport,80.00\n"

func invoice(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="invoice-2026-11.csv"`)
	fmt.Fprint(w, Invoice)
}
