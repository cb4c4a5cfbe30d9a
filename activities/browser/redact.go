package browser

import (
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

// redactor remembers the values the session typed from secrets, and takes them out of
// what the session reports.
type redactor struct {
	mu     sync.Mutex
	values []string
}

// add remembers a value the session typed from a secret.
func (r *redactor) add(v string) {
	if v == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, have := range r.values {
		if have == v {
			return
		}
	}
	r.values = append(r.values, v)
}

// all returns the values remembered.
func (r *redactor) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.values...)
}

// redact replaces every secret the session typed in text.
func (r *redactor) redact(text string) string { return redactAll(r.all(), text) }

func redactAll(secrets []string, text string) string {
	for _, v := range secrets {
		text = strings.ReplaceAll(text, v, Redacted)
	}
	return text
}

// observation takes the secrets out of an element list.
func (r *redactor) observation(obs *page.Observation) {
	secrets := r.all()
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
