package driver

//lint:file-ignore SA1019 A word is read from the exact node the observation numbered; only an ElementHandle names that node.

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/plan"
)

// labelledValue reads an EXTRACT's target that names a value by its label: `the value of
// "Gender"`, `the number next to "Total"` — text on the page, not a control.
var labelledValue = regexp.MustCompile(`(?i)^\s*(?:the\s+)?(?:value|text|number|amount|entry|content)\s+(?:of|for|beside|next\s+to)\s+(?:the\s+)?"([^"]+)"\s*$`)

// readLabelledJS finds the visible elements whose whole text is the label (a trailing
// colon aside) and reads the value beside each: the next cell of its table row, the <dd>
// of a <dt>, the field a <label> names, or else the element after it.
const readLabelledJS = `(label) => {
  const norm = (t) => (t || "").replace(/\s+/g, " ").trim().replace(/:$/, "").trim().toLowerCase();
  const want = norm(label);
  const hits = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(el.tagName)) continue;
    const tc = el.textContent || "";
    if (tc.length > want.length * 2 + 40 || norm(tc) !== want) continue;
    if (Array.from(el.children).some((c) => norm(c.textContent) === want)) continue;
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) continue;
    hits.push(el);
  }
  const text = (n) => (n ? (n.matches("input, textarea, select") ? n.value : n.innerText) : "").trim();
  const beside = (el) => {
    const cell = el.closest("td, th");
    if (cell) return text(cell.nextElementSibling);
    if (el.tagName === "DT") { let d = el.nextElementSibling; while (d && d.tagName !== "DD") d = d.nextElementSibling; return text(d); }
    if (el.tagName === "LABEL" && el.control) return text(el.control);
    return text(el.nextElementSibling);
  };
  // Only a label with something beside it counts: the same word inside a sentence (the
  // instruction that names it) is not a label.
  const values = hits.map(beside).filter((v) => v !== "");
  return { n: hits.length, values };
}`

// readLabelled does an EXTRACT of a labelled value, exactly: a label the page does not
// show once, or shows with nothing beside it, reads nothing.
func (s *Session) readLabelled(ctx context.Context, out *Outcome, obs page.Observation, step plan.Step, label string) (*Outcome, error) {
	var got struct {
		N      int      `json:"n"`
		Values []string `json:"values"`
	}
	v, err := s.page.Evaluate(readLabelledJS, label)
	if err == nil {
		err = decode(v, &got)
	}
	if err != nil {
		return nil, fmt.Errorf("read the value beside %q: %w", label, err)
	}
	switch {
	case got.N == 0:
		return s.without(ctx, out, obs, &plan.Feedback{Type: plan.NotVisible,
			Details: fmt.Sprintf("the page shows no text %q to read a value beside", label)})
	case len(got.Values) == 0:
		return s.without(ctx, out, obs, &plan.Feedback{Type: plan.NotVisible,
			Details: fmt.Sprintf("nothing is written beside %q", label)})
	case len(got.Values) > 1:
		return s.without(ctx, out, obs, &plan.Feedback{Type: plan.WrongElement,
			Details: fmt.Sprintf("the page shows %q with a value beside it %d times: which one is meant is not clear", label, len(got.Values))})
	}
	value := got.Values[0]
	out.OK = true
	out.Extracted = map[string]any{page.FirstNonEmpty(step.Into, "value"): value}
	out.Actions = append(out.Actions, fmt.Sprintf("read %q beside %q", page.Truncate(value, 60), label))
	return s.without(ctx, out, obs, nil)
}

// wordOf reads an EXTRACT's target that names a word by its place in a text: "the 4th
// word in the paragraph", "the last word in the text area".
var wordOf = regexp.MustCompile(`(?i)^\s*(?:the\s+)?(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|\d+(?:st|nd|rd|th))\s+word\s+(?:in|of)\s+(.+?)\s*$`)

// paragraphJS is the text of the page's one visible paragraph (or of the nth, 1-based),
// or null when there is not exactly that one.
const paragraphJS = `(n) => {
  const ps = Array.from(document.querySelectorAll("p")).filter((p) => (!p.checkVisibility || p.checkVisibility()) && p.innerText.trim() !== "");
  if (n === 0) return ps.length === 1 ? ps[0].innerText : null;
  return n <= ps.length ? ps[n - 1].innerText : null;
}`

// paragraphRef reads "the paragraph", "the 2nd paragraph".
var paragraphRef = regexp.MustCompile(`(?i)^(?:the\s+)?(?:(first|second|third|\d+(?:st|nd|rd|th))\s+)?paragraph$`)

// readWord does an EXTRACT of one word of a text — a field's value or a paragraph's
// text — as a person reads it: words are what spaces separate, without the punctuation
// around them. A text that is not exactly one, or has no such word, reads nothing.
func (s *Session) readWord(ctx context.Context, out *Outcome, obs page.Observation, step plan.Step, which, in string) (*Outcome, error) {
	nth := plan.ReadOrdinal(which)
	var text string
	if m := paragraphRef.FindStringSubmatch(in); m != nil {
		n := 0
		if m[1] != "" {
			n = plan.ReadOrdinal(m[1])
		}
		v, err := s.page.Evaluate(paragraphJS, n)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", in, err)
		}
		t, ok := v.(string)
		switch {
		case !ok && n == 0:
			return s.without(ctx, out, obs, &plan.Feedback{Type: plan.NotVisible,
				Details: "the page does not show exactly one paragraph to read a word of", Suggestion: `say which: "the 2nd paragraph"`})
		case !ok:
			return s.without(ctx, out, obs, &plan.Feedback{Type: plan.NotVisible, Details: fmt.Sprintf("the page shows no %s", in)})
		}
		text = t
	} else {
		res := page.Resolve(in, plan.Extract, obs.Elements)
		if !res.Resolved() {
			return s.without(ctx, out, obs, unresolved(plan.Step{Action: plan.Extract, TargetDescription: in}, res, 0, obs))
		}
		el, err := s.element(res.Index)
		if err != nil {
			return nil, err
		}
		text = shownValue(el)
	}
	var words []string
	for _, w := range strings.Fields(text) {
		if w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }); w != "" {
			words = append(words, w)
		}
	}
	i := nth - 1
	if nth < 0 {
		i = len(words) - 1
	}
	if i < 0 || i >= len(words) {
		return s.without(ctx, out, obs, &plan.Feedback{Type: plan.NotVisible,
			Details: fmt.Sprintf("%s holds %d words: it has no %s word", in, len(words), which)})
	}
	out.OK = true
	out.Extracted = map[string]any{page.FirstNonEmpty(step.Into, "value"): words[i]}
	out.Actions = append(out.Actions, fmt.Sprintf("read %q, the %s word in %s", words[i], which, in))
	return s.without(ctx, out, obs, nil)
}
