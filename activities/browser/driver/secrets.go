package driver

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/webagent-dev/webagent/internal/secret"
	"github.com/webagent-dev/webagent/plan"
)

// typed resolves a TYPE's value: a {{secret:name}} or {{totp:name}} is read now, at the
// moment of typing, only if the field is on one of the secret's sites; it is remembered by
// the session (to be redacted from all it reports), and never written down.
func (a *action) typed() (string, *plan.Feedback) {
	v := a.step.Value
	if !plan.HasSecret(v) {
		return v, nil
	}
	refused := func(err error) *plan.Feedback {
		return &plan.Feedback{Type: plan.Other, Details: "not typed: " + err.Error(),
			Suggestion: "a secret is typed only into a field of one of the sites its worker's operator granted it for"}
	}
	if a.opts.Secret == nil {
		return "", refused(errors.New("the step types a secret, and this worker grants none"))
	}
	at, err := a.fieldAddress()
	if err != nil {
		return "", refused(err)
	}
	v, err = plan.BindSecrets(v, func(u secret.Use) (string, error) {
		val, err := a.opts.Secret(u, at)
		if err == nil {
			a.s.secrets.add(val)
		}
		return val, err
	})
	if err != nil {
		return "", refused(err)
	}
	a.out.typed = v
	return v, nil
}

// fieldAddress is the address of the page or frame a TYPE's value goes to: the target's
// own frame, or the page's when the typing goes to a point or to the focused element —
// unless that is inside a frame, whose site the page's address does not tell.
func (a *action) fieldAddress() (string, error) {
	if a.el != nil {
		f, err := a.el.OwnerFrame()
		if err != nil || f == nil {
			return "", errors.New("which page or frame the field belongs to cannot be told")
		}
		return f.URL(), nil
	}
	var inFrame any
	var err error
	if p := a.opts.Point; p != nil {
		inFrame, err = a.s.page.Evaluate(`([x, y]) => { const e = document.elementFromPoint(x, y); return !!e && /^(IFRAME|FRAME|OBJECT|EMBED)$/.test(e.tagName) }`, []float64{p[0], p[1]})
	} else {
		inFrame, err = a.s.page.Evaluate(`() => { const e = document.activeElement; return !!e && /^(IFRAME|FRAME|OBJECT|EMBED)$/.test(e.tagName) }`)
	}
	switch {
	case err != nil:
		return "", fmt.Errorf("which page the field belongs to cannot be told: %w", err)
	case inFrame == true:
		return "", errors.New("the field is inside a frame, whose site cannot be told from the page: name the field, so that its own frame is checked")
	}
	return a.s.page.URL(), nil
}

// reClipboard matches the keys that copy or cut a selection.
var reClipboard = regexp.MustCompile(`(?i)^(?:control|ctrl|meta|cmd|command|controlormeta)\+(?:shift\+)?(?:c|x|insert)$|^shift\+delete$`)

// focusedValueJS is the value or selected text of the element a key would go to.
const focusedValueJS = `(el) => {
  const e = el || document.activeElement;
  if (!e) return "";
  if ("value" in e && typeof e.value === "string") return e.value;
  return String(window.getSelection() || "") + " " + (e.isContentEditable ? e.innerText : "");
}`

// clipboardGuard refuses a key that copies or cuts while the element it goes to holds a
// secret this run typed: what is on the clipboard can be pasted anywhere.
func (a *action) clipboardGuard() *plan.Feedback {
	if !reClipboard.MatchString(strings.ReplaceAll(a.step.Key, " ", "")) || len(a.s.secrets.all()) == 0 {
		return nil
	}
	var v any
	var err error
	if a.el != nil {
		v, err = a.el.Evaluate(focusedValueJS, nil)
	} else {
		v, err = a.s.page.Evaluate(focusedValueJS, nil)
	}
	text, _ := v.(string)
	if err != nil || a.s.secrets.holds(text) {
		return &plan.Feedback{Type: plan.Other,
			Details:    "not pressed: " + a.step.Key + " would copy a field holding a secret this run typed (or a field that cannot be read to tell)",
			Suggestion: "a secret is typed only by its name ({{secret:name}}) and only on its own sites; it is never copied"}
	}
	return nil
}
