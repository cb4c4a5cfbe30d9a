package browser

import (
	"context"
	"fmt"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/activities/page"
)

// evidenceReads reads, once each, what the final page's evidence is weighed against: the
// texts of pages before (stored by key) and what the final page's fields hold. Several
// kinds of evidence ask for the same page before (the form's, the last click's) and for
// the same fields.
type evidenceReads struct {
	a          *Activities
	s          *driver.Session
	texts      map[string]string
	fields     []string
	fieldsRead bool
	pages      map[string]page.Observation
}

// text is the stored page text under key (what names it in errors).
func (r *evidenceReads) text(ctx context.Context, key, what string) (string, error) {
	if t, ok := r.texts[key]; ok {
		return t, nil
	}
	b, err := r.a.Store.Get(ctx, key)
	if err != nil {
		return "", fmt.Errorf("read %s (%s): %w", what, key, err)
	}
	if r.texts == nil {
		r.texts = map[string]string{}
	}
	r.texts[key] = string(b)
	return string(b), nil
}

// fieldTexts is what the final page's shown fields hold.
func (r *evidenceReads) fieldTexts(ctx context.Context) ([]string, error) {
	if !r.fieldsRead {
		f, err := r.s.FieldTexts(ctx)
		if err != nil {
			return nil, err
		}
		r.fields, r.fieldsRead = f, true
	}
	return r.fields, nil
}

// controls is the page's controls stored under key (what names it in errors).
func (r *evidenceReads) controls(ctx context.Context, key, what string) (page.Observation, error) {
	if o, ok := r.pages[key]; ok {
		return o, nil
	}
	o, err := r.a.storedObservation(ctx, key, what)
	if err != nil {
		return o, err
	}
	if r.pages == nil {
		r.pages = map[string]page.Observation{}
	}
	r.pages[key] = o
	return o, nil
}
