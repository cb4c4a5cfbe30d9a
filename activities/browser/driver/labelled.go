package driver

//lint:file-ignore SA1019 The value a page script found beside its label is a node, not a selector; only an ElementHandle names it.

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// A card (a contact, an order, a profile) writes its values beside labels: "Phone:" then
// the number, a link. A goal names the value by its label and the card by what it shows
// ("click on Clementine's phone number"): the target is the element after the label, in
// the card that says the name (plan.Target.Labelled).

// labelledJS finds, in the card that says row (or on the whole page, with no row), the
// label written as one of forms (case and a trailing colon aside), and the value beside
// it: the next cell of its row (not a column's heading), the <dd> of a <dt>, the field a
// <label> names, or else the element after it. X's card is the nearest box around the
// element that says X that holds such a label or is one of a list's items (the next box
// up is the list, with other cards' labels), short of the page itself; it must hold
// exactly one such label. The control in the value (its one link or button, or the value itself) is kept.
const labelledJS = `({ row, forms }) => {
  const norm = (t) => (t || "").replace(/\s+/g, " ").trim().replace(/:$/, "").trim().toLowerCase();
  const shown = (el) => !el.checkVisibility || el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const whole = (wants) => {
    const out = [];
    const longest = Math.max(...wants.map((w) => w.length));
    for (const el of document.body.querySelectorAll("*")) {
      if (/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(el.tagName)) continue;
      const tc = el.textContent || "";
      if (tc.length > longest * 2 + 40) continue;
      const n = norm(tc);
      if (!wants.includes(n) || Array.from(el.children).some((c) => norm(c.textContent) === n) || !shown(el)) continue;
      out.push(el);
    }
    return out;
  };
  const beside = (el) => {
    const cell = el.closest("td, th");
    if (cell) return cell.nextElementSibling && cell.nextElementSibling.tagName !== "TH" ? cell.nextElementSibling : null;
    if (el.tagName === "DT") { let d = el.nextElementSibling; while (d && d.tagName !== "DD") d = d.nextElementSibling; return d; }
    if (el.tagName === "LABEL" && el.control) return el.control;
    return el.nextElementSibling;
  };
  // item: a box among siblings of its tag and class (a card of a list), which is where a
  // card ends, whether or not it holds the label.
  const item = (p) => !!p.parentElement && Array.from(p.parentElement.children).some((sib) =>
    sib !== p && sib.tagName === p.tagName && sib.className === p.className);
  const said = (v) => (v && (v.value || v.innerText || "").trim()) || "";
  const labels = whole(forms).filter((l) => said(beside(l)) !== "");
  let found = labels;
  const rows = row ? whole([norm(row)]) : [];
  if (row) {
    if (rows.length === 0) return { rows: 0 };
    found = [];
    for (const r of rows) {
      for (let p = r.parentElement, i = 0; p && p !== document.body && i < 6; p = p.parentElement, i++) {
        const inCard = labels.filter((l) => p.contains(l));
        for (const l of inCard) if (!found.includes(l)) found.push(l);
        if (inCard.length > 0 || item(p)) break;
      }
    }
  }
  const names = found.map((l) => l.innerText.trim());
  if (found.length !== 1) return { rows: rows.length, found: found.length, names };
  const v = beside(found[0]);
  const controls = v.matches("a, button, [role=link], [role=button], input, select, textarea") ? [v] :
    Array.from(v.querySelectorAll("a, button, [role=link], [role=button], input, select, textarea")).filter(shown);
  if (controls.length > 1) return { rows: rows.length, found: 1, names, controls: controls.length };
  const c = controls[0] || v;
  window.__webagentValue = c;
  const r = c.getBoundingClientRect();
  return { rows: rows.length, found: 1, names, controls: controls.length, tag: c.tagName.toLowerCase(),
    text: said(c).slice(0, 80), box: [r.x, r.y, r.width, r.height] };
}`

// valueIndexJS is the index, in the last observation, of the control labelledJS kept (or
// of the one control inside it), or -1.
const valueIndexJS = `() => {
  const c = window.__webagentValue, nodes = (window.__webagent && window.__webagent.nodes) || [];
  if (!c) return -1;
  let i = nodes.indexOf(c);
  if (i >= 0) return i;
  const inside = nodes.filter((n) => n && c.contains(n));
  return inside.length === 1 ? nodes.indexOf(inside[0]) : -1;
}`

// labelled is what labelledJS found.
type labelled struct {
	Rows     int       `json:"rows"`
	Found    int       `json:"found"`
	Names    []string  `json:"names"`
	Controls int       `json:"controls"`
	Tag      string    `json:"tag"`
	Text     string    `json:"text"`
	Box      []float64 `json:"box"`
}

// labelForms are the labels a value asked for by the words asked may be written with on
// the page, in lower case: the words themselves, or the same without or with a trailing
// "number" or "address", which says what the value is and not which one: "phone number"
// is the value a card labels "Phone", "email" the one it labels "Email address". The page
// is the judge: a card with both "Phone" and "Phone number" has two, and is refused.
func labelForms(asked string) []string {
	w := strings.ToLower(strings.Join(strings.Fields(asked), " "))
	w = strings.TrimSpace(strings.TrimSuffix(w, ":"))
	forms := []string{w}
	for _, noun := range []string{"number", "address"} {
		if base, ok := strings.CutSuffix(w, " "+noun); ok && base != "" {
			forms = append(forms, base)
		}
	}
	if len(forms) == 1 {
		for _, noun := range []string{"number", "address"} {
			if w != noun {
				forms = append(forms, w+" "+noun)
			}
		}
	}
	return forms
}

// findLabelled runs labelledJS for the target.
func (s *Session) findLabelled(t plan.Target) (labelled, error) {
	var got labelled
	v, err := s.page.Evaluate(labelledJS, map[string]any{"row": t.Row, "forms": labelForms(t.Name)})
	if err == nil {
		err = decode(v, &got)
	}
	if err != nil {
		return got, fmt.Errorf("find the value beside %q: %w", t.Name, err)
	}
	return got, nil
}

// why says why what labelledJS found is not one value to act on, or "".
func (l labelled) why(t plan.Target) string {
	in := ""
	if t.Row != "" {
		in = fmt.Sprintf(" in the card of %q", t.Row)
	}
	switch {
	case t.Row != "" && l.Rows == 0:
		return fmt.Sprintf("the page shows no %q", t.Row)
	case l.Found == 0:
		return fmt.Sprintf("no label %q with a value beside it%s (labels looked for: %s)", t.Name, in, quoteAll(labelForms(t.Name)))
	case l.Found > 1:
		return fmt.Sprintf("%d labels for %q%s (%s): which value is meant is not clear", l.Found, t.Name, in, quoteAll(l.Names))
	case l.Controls > 1:
		return fmt.Sprintf("the value beside %q%s holds %d controls: which one is meant is not clear", l.Names[0], in, l.Controls)
	}
	return ""
}

// targetLabelled finds the value a target that says "the value of "P" for "X"" names,
// within the wait budget: a paged list is paged (once) when no card says X. What is not
// exactly one value is refused with the reason, and nothing is done.
func (at *attempt) targetLabelled(ctx context.Context, t plan.Target) (*Outcome, error) {
	s := at.s
	deadline := s.pace.targetDeadline(at.opts.WaitBudget)
	paged, exhausted := false, false
	var got labelled
	for {
		var err error
		if got, err = s.findLabelled(t); err != nil {
			return nil, err
		}
		why := got.why(t)
		if why == "" {
			break
		}
		if t.Row != "" && got.Rows == 0 && !paged {
			paged = true
			p, err := s.pageTo(ctx, t.Row)
			if err != nil {
				return nil, err
			}
			if p.found && p.clicks > 0 {
				s.notes.add(p.note(t.Row))
				continue
			}
			// Paged through to the end without it: not there to wait for.
			exhausted = p.why != ""
			why = page.FirstNonEmpty(p.why, why)
		}
		if exhausted || !time.Now().Before(deadline) {
			obs, err := s.Observe(ctx)
			if err != nil {
				return nil, err
			}
			kind := plan.NotVisible
			if got.Found > 1 || got.Controls > 1 {
				kind = plan.WrongElement
			}
			return s.without(ctx, at.out, obs, &plan.Feedback{Type: kind, Details: why, ExpectedElement: at.step.TargetDescription})
		}
		if err := sleep(ctx, 200*time.Millisecond); err != nil {
			return nil, err
		}
	}
	return at.takeLabelled(ctx, t, got)
}

// takeLabelled makes the value labelledJS kept the step's target: the control the
// observation lists, or else the value's own element, as the page shows it.
func (at *attempt) takeLabelled(ctx context.Context, t plan.Target, got labelled) (*Outcome, error) {
	s := at.s
	obs, err := s.Observe(ctx)
	if err != nil {
		return nil, err
	}
	i := -1
	v, err := s.page.Evaluate(valueIndexJS)
	if err == nil {
		err = decode(v, &i)
	}
	if err != nil {
		return nil, fmt.Errorf("find the value beside %q: %w", t.Name, err)
	}
	if i >= 0 && i < len(obs.Elements) {
		e := obs.Elements[i]
		at.out.Target = &e
		if at.el, err = s.element(i); err != nil {
			return nil, err
		}
	} else {
		el := s.kept(`() => window.__webagentValue || null`)
		if el == nil {
			return s.without(ctx, at.out, obs, &plan.Feedback{Type: plan.NotVisible, Details: fmt.Sprintf("the value beside %q went away", t.Name)})
		}
		e := page.Element{Index: -1, Role: "text", Tag: got.Tag, Name: got.Text}
		if len(got.Box) == 4 {
			e.Box = page.Box{X: int(got.Box[0]), Y: int(got.Box[1]), W: int(got.Box[2]), H: int(got.Box[3])}
		}
		at.out.Target, at.el = &e, el
	}
	where := ""
	if t.Row != "" {
		where = fmt.Sprintf(" in the card of %q", t.Row)
	}
	s.notes.add(fmt.Sprintf("the value beside the label %q%s is %q", got.Names[0], where, got.Text))
	at.out.Before = obs
	return nil, nil
}
