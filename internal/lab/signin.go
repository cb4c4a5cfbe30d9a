package lab

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Account is the lab sign-in page's one user. With a TOTPSeed (base32), a sign-in asks for
// the current one-time code after the password, as two-step verification does.
type Account struct{ User, Password, PIN, TOTPSeed string }

// SetAccount sets who may sign in at /lab/signin.
func (s *Server) SetAccount(a Account) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.account = a
}

// SignIns is how many sign-ins at /lab/signin succeeded.
func (s *Server) SignIns() int { return s.counted(&s.signIns) }

// signin is a sign-in form checked on the server, with the two ways real pages show a
// secret as text: a "Show password" toggle and a PIN field that is a plain text box.
func (s *Server) signin(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	msg := ""
	if r.Method == http.MethodPost {
		s.mu.Lock()
		a := s.account
		ok := a.User != "" && r.FormValue("user") == a.User && r.FormValue("password") == a.Password && r.FormValue("pin") == a.PIN
		ticket := ""
		switch {
		case ok && a.TOTPSeed != "":
			ticket = strconv.FormatInt(time.Now().UnixNano(), 36)
			if s.tickets == nil {
				s.tickets = map[string]bool{}
			}
			s.tickets[ticket] = true
		case ok:
			s.signIns++
		}
		s.mu.Unlock()
		if ticket != "" {
			codePage(w, ticket, "")
			return
		}
		if ok {
			welcome(w, a.User)
			return
		}
		msg = `<p role="alert">Wrong user name, password or PIN.</p>`
	}
	if q := r.URL.Query().Get("q"); q != "" {
		// A search that echoes what was asked, as search pages do: the address and the
		// page both carry it.
		msg += `<p id="results">No help found for “` + html.EscapeString(q) + `”.</p>`
	}
	fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in · Lab</title><link rel="stylesheet" href="/static/style.css"></head>
<body><main><h1>Sign in</h1>%s
<form method="post" action="/lab/signin">
  <p><label for="user">User name</label> <input id="user" name="user" autocomplete="username"></p>
  <p><label for="password">Password</label> <input id="password" name="password" type="password"></p>
  <p><label><input type="checkbox" id="show" onchange="document.getElementById('password').type = this.checked ? 'text' : 'password'"> Show password</label></p>
  <p><label for="pin">PIN</label> <input id="pin" name="pin" inputmode="numeric"></p>
  <button type="submit">Sign in</button>
</form>
<form method="get" action="/lab/signin" role="search"><p><label for="q">Search help</label> <input id="q" name="q"> <button type="submit">Search</button></p></form>
</main></body></html>`, msg)
}

// signinCode checks the one-time code of a sign-in whose password was right (RFC 6238:
// HMAC-SHA-1, 30 s steps, 6 digits; the step before is accepted too, for clocks apart).
func (s *Server) signinCode(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	ticket := r.FormValue("ticket")
	s.mu.Lock()
	a, waiting := s.account, s.tickets[ticket]
	ok := waiting && r.Method == http.MethodPost
	if ok {
		code := r.FormValue("code")
		now := time.Now().Unix() / 30
		ok = code != "" && (code == totp(a.TOTPSeed, now) || code == totp(a.TOTPSeed, now-1))
	}
	if ok {
		delete(s.tickets, ticket)
		s.signIns++
	}
	s.mu.Unlock()
	switch {
	case ok:
		welcome(w, a.User)
	case !waiting:
		http.Redirect(w, r, "/lab/signin", http.StatusSeeOther)
	default:
		codePage(w, ticket, `<p role="alert">That code is not the current one.</p>`)
	}
}

func welcome(w http.ResponseWriter, user string) {
	fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Welcome · Lab</title></head>
<body><main><h1>Welcome, %s</h1><p>You are signed in.</p></main></body></html>`, html.EscapeString(user))
}

func codePage(w http.ResponseWriter, ticket, msg string) {
	fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Two-step verification · Lab</title><link rel="stylesheet" href="/static/style.css"></head>
<body><main><h1>Two-step verification</h1>%s
<form method="post" action="/lab/signin/code">
  <input type="hidden" name="ticket" value="%s">
  <p><label for="code">Code from your authenticator app</label> <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code"></p>
  <button type="submit">Verify</button>
</form></main></body></html>`, msg, html.EscapeString(ticket))
}

// totp is the 6-digit code of a base32 seed for a 30-second step.
func totp(seed string, step int64) string {
	key, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(strings.ToUpper(strings.TrimRight(seed, "=")))
	if err != nil || len(key) == 0 {
		return ""
	}
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], uint64(step))
	m := hmac.New(sha1.New, key)
	m.Write(msg[:])
	sum := m.Sum(nil)
	off := sum[19] & 0x0f
	return fmt.Sprintf("%06d", (binary.BigEndian.Uint32(sum[off:])&0x7fffffff)%1000000)
}
