package driver

import (
	"context"
	"fmt"
	"time"

	"github.com/webagent-dev/webagent/plan"
)

// A goal that says "log in as admin with the password …" names the parts of the page's
// sign-in form by what they are there (plan.Target.SignIn), not by their labels. The form
// is the one form in sight that holds one password field: a page with none has no sign-in
// form in sight, a form with two (a new password and its confirmation) signs nobody in,
// and two forms with one each are a tie to refuse. Its user name field is its one text
// field (text, email or a field of no type; not one named for where the person signs in,
// a company or a database), and its button is its one submit button, or else its one
// button.
// Anything else is refused with what the form holds: which of two text fields takes the
// user name is the page's to say, not ours to guess.

// signInJS finds the part of the sign-in form among the last observation's nodes and
// gives its index there, or why it is not one.
const signInJS = `({ part, places }) => {
  const nodes = (window.__webagent && window.__webagent.nodes) || [];
  const shown = (el) => {
    if (!el || !el.isConnected || el.disabled) return false;
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const live = nodes.filter(shown);
  const passwords = live.filter((n) => n.tagName === "INPUT" && n.type === "password");
  // A password's form: its <form>, or else the nearest box around it that holds more than
  // it (a form a script sends has no <form>).
  const formOf = (pw) => {
    let f = pw.form || pw.closest("form");
    if (f) return f;
    f = pw.parentElement;
    while (f && f !== document.body && !live.some((n) => n !== pw && f.contains(n))) f = f.parentElement;
    return f;
  };
  const forms = [...new Set(passwords.map(formOf))];
  // The sign-in form holds one password; a form with two sets a password.
  const signIn = forms.filter((f) => passwords.filter((p) => formOf(p) === f).length === 1);
  if (passwords.length === 0) return { why: "the page shows no password field: no sign-in form is in sight" };
  if (signIn.length === 0) return { why: "every form in sight holds two password fields: they set a password, none signs in" };
  if (signIn.length > 1) return { why: signIn.length + " forms in sight each hold a password field: which one signs in is not clear", tie: true };
  const form = signIn[0], pw = passwords.find((p) => formOf(p) === form);
  const inForm = (n) => form && (form.contains(n) || (n.form && n.form === form));
  const name = (n) => (n.labels && n.labels[0] && n.labels[0].innerText.trim()) || n.getAttribute("aria-label") || n.placeholder || n.name || n.value || n.innerText || "";
  const why = (what, found) => found.length === 0 ? { why: "the sign-in form holds no " + what } :
    { why: "the sign-in form holds " + found.length + " " + what + " (" + found.map((n) => JSON.stringify(name(n).trim().slice(0, 40))).join(", ") + "): which one is meant is not clear", tie: true };
  if (part === "password") return { index: nodes.indexOf(pw) };
  if (part === "user") {
    // A field that names where the person signs in (a company's books, a database, a
    // tenant, a domain) is not the user's: the goal gives it its own value.
    const place = new RegExp("^(" + places + ")\\b", "i");
    const text = live.filter((n) => inForm(n) && n.tagName === "INPUT" && /^(text|email|)$/.test(n.getAttribute("type") === null ? "" : n.type) && !n.readOnly && !place.test(name(n).trim()));
    return text.length === 1 ? { index: nodes.indexOf(text[0]) } : why("text fields", text);
  }
  const buttons = live.filter((n) => inForm(n) && n !== pw);
  const submit = buttons.filter((n) => (n.tagName === "BUTTON" && (n.type || "submit") === "submit") || (n.tagName === "INPUT" && /^(submit|image)$/.test(n.type)));
  if (submit.length === 1) return { index: nodes.indexOf(submit[0]) };
  if (submit.length > 1) return why("submit buttons", submit);
  const any = buttons.filter((n) => n.tagName === "BUTTON" || (n.tagName === "INPUT" && n.type === "button") || n.getAttribute("role") === "button");
  return any.length === 1 ? { index: nodes.indexOf(any[0]) } : why("buttons", any);
}`

// signInFound is what signInJS gives.
type signInFound struct {
	Index *int   `json:"index"`
	Why   string `json:"why"`
	Tie   bool   `json:"tie"`
}

// targetSignIn makes the part of the page's sign-in form the target names the step's
// target, waiting for the form within the wait budget; what is not exactly one part is
// refused with the reason, and nothing is done.
func (at *attempt) targetSignIn(ctx context.Context, t plan.Target) (*Outcome, error) {
	s := at.s
	deadline := s.pace.targetDeadline(at.opts.WaitBudget)
	for {
		obs, err := s.Observe(ctx)
		if err != nil {
			return nil, err
		}
		var got signInFound
		v, err := s.page.Evaluate(signInJS, map[string]any{"part": t.SignIn, "places": plan.SignInPlaces})
		if err == nil {
			err = decode(v, &got)
		}
		if err != nil {
			return nil, fmt.Errorf("find %s: %w", t.Describe(), err)
		}
		if got.Index != nil && *got.Index >= 0 && *got.Index < len(obs.Elements) {
			e := obs.Elements[*got.Index]
			if at.el, err = s.element(*got.Index); err != nil {
				return nil, err
			}
			at.out.Target, at.out.Before = &e, obs
			return nil, nil
		}
		if got.Why == "" {
			got.Why = "the sign-in form's " + t.SignIn + " is not among the controls the page lists"
		}
		if !time.Now().Before(deadline) {
			kind := plan.NotVisible
			if got.Tie {
				kind = plan.WrongElement
			}
			return s.without(ctx, at.out, obs, &plan.Feedback{Type: kind, Details: got.Why, ExpectedElement: at.step.TargetDescription,
				Suggestion: "name the field or the button by the words the page shows beside it (type \"admin\" into \"Username\")"})
		}
		if err := sleep(ctx, 200*time.Millisecond); err != nil {
			return nil, err
		}
	}
}
