package driver

//lint:file-ignore SA1019 The text selected is the exact node found; only an ElementHandle names it.

import (
	"context"
	"fmt"
	"strings"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/internal/jsnum"
	"github.com/webagent-dev/webagent/internal/textcut"
	"github.com/webagent-dev/webagent/plan"
)

// paragraphElementJS is the page's one visible paragraph (or the nth, 1-based), or null
// when there is not exactly that one: paragraphJS's paragraph, as an element.
const paragraphElementJS = `(n) => {
  const ps = Array.from(document.querySelectorAll("p")).filter((p) => (!p.checkVisibility || p.checkVisibility()) && p.innerText.trim() !== "");
  if (n === 0) return ps.length === 1 ? ps[0] : null;
  return n <= ps.length ? ps[n - 1] : null;
}`

// paragraphTarget finds the paragraph a step names ("the paragraph", "the 2nd
// paragraph"); ok is false when the description names no paragraph, and why says why a
// paragraph it names is not there.
func (s *Session) paragraphTarget(desc string) (el playwright.ElementHandle, e page.Element, why string, ok bool) {
	m := paragraphRef.FindStringSubmatch(strings.TrimSpace(desc))
	if m == nil {
		return nil, page.Element{}, "", false
	}
	n := 0
	if m[1] != "" {
		n = plan.ReadOrdinal(m[1])
	}
	h, err := s.page.EvaluateHandle(paragraphElementJS, n)
	if err != nil || h.AsElement() == nil {
		if n == 0 {
			return nil, page.Element{}, `the page does not show exactly one paragraph: say which ("the 2nd paragraph")`, true
		}
		return nil, page.Element{}, fmt.Sprintf("the page shows no %s", desc), true
	}
	return h.AsElement(), page.Element{Index: -1, Role: "text", Tag: "p", Name: desc}, "", true
}

// selectText selects the element's whole text, as a person drags the mouse over it: a
// field's value, or the text of anything else. It is checked at once: the page's
// selection must hold that text (its spaces aside).
func selectText(ctx context.Context, a *action) *plan.Feedback {
	if a.step.Value != "" {
		return selectWords(ctx, a)
	}
	v, err := a.el.Evaluate(`(el) => {
	  if (el.matches("input, textarea")) { el.focus(); el.select(); return [el.value, el.value.substring(el.selectionStart, el.selectionEnd)]; }
	  const r = document.createRange(); r.selectNodeContents(el);
	  const sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(r);
	  return [el.innerText, sel.toString()];
	}`)
	if err != nil {
		return a.failed(err)
	}
	pair, _ := v.([]any)
	if len(pair) != 2 {
		return a.failed(fmt.Errorf("the page did not say what it selected"))
	}
	want, got := squeeze(fmt.Sprint(pair[0])), squeeze(fmt.Sprint(pair[1]))
	if want == "" {
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s holds no text to select", a.ref)}
	}
	if got != want {
		return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("selected %s, but the page's selection is %q, not its text", a.ref, textcut.Cut(got, 120, "…"))}
	}
	a.note("selected the text of %s (%d characters)", a.ref, len([]rune(want)))
	return nil
}

// selectWordsJS selects the words w where they occur once in el's text, as whole words
// (a word's letters do not run on either side), across the element's text nodes as a
// rich-text editor splits them. It answers [selected text, how many times w occurs].
const selectWordsJS = `(el, w) => {
  const word = (c) => c !== undefined && /[\p{L}\p{N}_]/u.test(c);
  const at = (text) => {
    const found = [];
    for (let i = text.indexOf(w); i >= 0; i = text.indexOf(w, i + 1)) {
      if (!(word(w[0]) && word(text[i - 1])) && !(word(w[w.length - 1]) && word(text[i + w.length]))) found.push(i);
    }
    return found;
  };
  if (el.matches("input, textarea")) {
    const found = at(el.value);
    if (found.length !== 1) return ["", found.length];
    el.focus(); el.setSelectionRange(found[0], found[0] + w.length);
    return [el.value.substring(el.selectionStart, el.selectionEnd), 1];
  }
  const nodes = [], walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let text = "";
  for (let n = walk.nextNode(); n; n = walk.nextNode()) { nodes.push([n, text.length]); text += n.data; }
  const found = at(text);
  if (found.length !== 1) return ["", found.length];
  const place = (i, end) => {
    for (let k = nodes.length - 1; k >= 0; k--) {
      const [n, from] = nodes[k];
      if (from < i || (from === i && !end)) return [n, i - from];
    }
    return [nodes[0][0], 0];
  };
  const r = document.createRange();
  r.setStart(...place(found[0], false)); r.setEnd(...place(found[0] + w.length, true));
  if (el.isContentEditable) el.focus();
  const sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(r);
  document.dispatchEvent(new Event("selectionchange"));
  return [sel.toString(), 1];
}`

// selectWords selects the step's words within the element's text, where they occur once
// as whole words; anywhere else (not there, or there twice) it is refused, nothing
// selected. It is checked at once against the page's own selection.
func selectWords(_ context.Context, a *action) *plan.Feedback {
	words := a.step.Value
	v, err := a.el.Evaluate(selectWordsJS, words)
	if err != nil {
		return a.failed(err)
	}
	pair, _ := v.([]any)
	if len(pair) != 2 {
		return a.failed(fmt.Errorf("the page did not say what it selected"))
	}
	f, _ := jsnum.Number(pair[1])
	switch n := int(f); {
	case n == 0:
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s does not hold %q as words of its text", a.ref, words)}
	case n > 1:
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s holds %q %d times: say which", a.ref, words, n)}
	}
	if got := fmt.Sprint(pair[0]); squeeze(got) != squeeze(words) {
		return &plan.Feedback{Type: plan.PageState, Details: fmt.Sprintf("selected %q in %s, but the page's selection is %q", words, a.ref, textcut.Cut(got, 120, "…"))}
	}
	a.note("selected %q in %s", words, a.ref)
	return nil
}

// squeeze drops every space of s: a selection and the text it covers differ in how their
// lines are joined.
func squeeze(s string) string { return strings.Join(strings.Fields(s), "") }
