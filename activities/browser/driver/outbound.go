package driver

// What a session hands out goes through its redactor (redact.go, scrub.go): the caller
// that takes a result, a read or an address out of the browser to store or report it
// asks the session to take the secrets it typed out first.

// AddSecret makes the session recognise v as a secret from now on, before it is typed:
// a page restored after a lost worker may already show one the run typed.
func (s *Session) AddSecret(v string) { s.secrets.add(v) }

// Scrub redacts, in place, every string reachable from v (a pointer to a result) for
// each form a secret of the session takes, leaving alone the fields that hold names the
// worker made (object keys, fingerprints, the session's ID).
func (s *Session) Scrub(v any) { s.secrets.scrub(v) }

// Redact is text with every form of a secret of the session masked.
func (s *Session) Redact(text string) string { return s.secrets.redact(text) }

// RefuseRead fails a step whose read (an EXTRACT, a copy) holds a secret the session
// typed, and drops what it read.
func (s *Session) RefuseRead(out *Outcome) { s.secrets.refuseRead(out) }
