package driver

import (
	"encoding/json"
	"html"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/webagent-dev/webagent/activities/page"
)

// A secret typed into a page may show up again in it — a "show password" toggle, a PIN
// field that is plain text, a page that echoes a code. The session remembers the secrets
// it typed and takes them out of everything it reports: element lists, page text and
// screenshots.

// Redacted is what stands for a secret in anything the session reports.
const Redacted = "••••"

// redactor remembers the values the session typed from secrets, in every form they take
// on their way out of a page, and takes them out of what the session reports.
type redactor struct {
	mu     sync.Mutex
	values []string
	// forms are the values and their encodings, longest first.
	forms []string
}

// add remembers a value the session typed from a secret.
func (r *redactor) add(v string) {
	if v == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if slices.Contains(r.values, v) {
		return
	}
	r.values = append(r.values, v)
	for _, f := range secretForms(v) {
		if !slices.Contains(r.forms, f) {
			r.forms = append(r.forms, f)
		}
	}
	slices.SortStableFunc(r.forms, func(a, b string) int { return len(b) - len(a) })
}

// all returns the values remembered, as typed.
func (r *redactor) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.values...)
}

// allForms returns every form of the values remembered, longest first.
func (r *redactor) allForms() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.forms...)
}

// redact replaces every secret the session typed in text, in any of its forms.
func (r *redactor) redact(text string) string { return redactAll(r.allForms(), text) }

// holds reports whether text carries a secret the session typed, in any of its forms, or
// a piece of one (a word of a passphrase) of four characters or more.
func (r *redactor) holds(text string) bool {
	if text == "" {
		return false
	}
	for _, f := range r.allForms() {
		if strings.Contains(text, f) {
			return true
		}
	}
	if t := strings.TrimSpace(text); len(t) >= 4 {
		for _, v := range r.all() {
			if strings.Contains(v, t) {
				return true
			}
		}
	}
	return false
}

func redactAll(forms []string, text string) string {
	for _, v := range forms {
		text = strings.ReplaceAll(text, v, Redacted)
	}
	return text
}

// secretForms are the forms a typed value takes where a run can see it again: as typed;
// in an address, percent-encoded in a query (space as "+") or a path or as a script's
// encodeURIComponent writes it, with upper- or lower-case hex; HTML-escaped in markup;
// JSON-escaped in an answer a page fetched.
func secretForms(v string) []string {
	forms := []string{v, url.QueryEscape(v), url.PathEscape(v), encodeComponent(v), html.EscapeString(v)}
	for _, escapeHTML := range []bool{false, true} {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(escapeHTML)
		if enc.Encode(v) == nil {
			forms = append(forms, strings.Trim(strings.TrimSpace(b.String()), `"`))
		}
	}
	for _, f := range forms[1:4] {
		forms = append(forms, lowerHex(f))
	}
	var out []string
	for _, f := range forms {
		if f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// encodeComponent percent-encodes as JavaScript's encodeURIComponent does.
func encodeComponent(s string) string {
	const keep = "-_.!~*'()"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(keep, c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteString("%" + strings.ToUpper(hex2(c)))
	}
	return b.String()
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

// lowerHex writes a percent-encoding's hex digits in lower case.
func lowerHex(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			b[i+1], b[i+2] = lower(b[i+1]), lower(b[i+2])
		}
	}
	return string(b)
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'F' {
		return c + 'a' - 'A'
	}
	return c
}

// observation takes the secrets out of an element list.
func (r *redactor) observation(obs *page.Observation) {
	secrets := r.allForms()
	if len(secrets) == 0 {
		return
	}
	for i := range obs.Elements {
		e := &obs.Elements[i]
		for _, f := range []*string{&e.Name, &e.Text, &e.Value, &e.Label, &e.Placeholder, &e.Title, &e.Hints, &e.Row, &e.Container} {
			*f = redactAll(secrets, *f)
		}
		for j := range e.Options {
			e.Options[j] = redactAll(secrets, e.Options[j])
		}
	}
	obs.Title = redactAll(secrets, obs.Title)
	obs.URL = redactAll(secrets, obs.URL)
}

// markSecretsJS marks, in one frame, the fields whose value holds a secret and the
// smallest elements whose text does, for the screenshot's mask.
const markSecretsJS = `(secrets) => {
  const has = (s) => !!s && secrets.some((v) => s.includes(v));
  for (const el of document.querySelectorAll("[data-webagent-secret]")) el.removeAttribute("data-webagent-secret");
  for (const el of document.querySelectorAll("input, textarea")) if (has(el.value)) el.setAttribute("data-webagent-secret", "");
  for (const el of document.querySelectorAll("body *")) {
    if (!has(el.innerText)) continue;
    if (Array.from(el.children).some((c) => has(c.innerText))) continue;
    el.setAttribute("data-webagent-secret", "");
  }
  return true;
}`
