package browser

import (
	"strings"

	"github.com/webagent-dev/webagent/activities/page"
)

// A secret typed into a page may show up again in it — a "show password" toggle, a PIN
// field that is plain text, a page that echoes a code. The session remembers the secrets
// it typed and takes them out of everything it reports: element lists, page text and
// screenshots.

// Redacted is what stands for a secret in anything the session reports.
const Redacted = "••••"

// addSecret remembers a value the session typed from a secret.
func (s *Session) addSecret(v string) {
	if v == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, have := range s.secrets {
		if have == v {
			return
		}
	}
	s.secrets = append(s.secrets, v)
}

func (s *Session) secretValues() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.secrets...)
}

// redact replaces every secret the session typed in text.
func (s *Session) redact(text string) string { return redactAll(s.secretValues(), text) }

func redactAll(secrets []string, text string) string {
	for _, v := range secrets {
		text = strings.ReplaceAll(text, v, Redacted)
	}
	return text
}

// redactObservation takes the secrets out of an element list.
func (s *Session) redactObservation(obs *page.Observation) {
	secrets := s.secretValues()
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

// take empties a list the page's handlers fill, under the session's lock, and returns
// what it held.
func (s *Session) take(list *[]string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := *list
	*list = nil
	return out
}
