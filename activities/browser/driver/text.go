package driver

import (
	"context"
	"fmt"
)

// visibleTextJS reads the page's text, with its open shadow roots' and same-origin
// iframes' text, and, when fields is true, the values of its fields (never of secret ones).
const visibleTextJS = `(fields) => {
  const parts = [];
  const read = (root) => {
    if (root.body) parts.push(root.body.innerText);
    if (fields) for (const el of root.querySelectorAll("input, textarea, select")) {
      if (el.type === "password" || el.autocomplete === "one-time-code") continue;
      if (el.tagName === "SELECT") { if (el.selectedOptions[0]) parts.push(el.selectedOptions[0].label); continue; }
      if (el.value && el.type !== "hidden") parts.push(el.value);
    }
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) {
        for (const c of el.shadowRoot.children) if (c.innerText) parts.push(c.innerText);
        read(el.shadowRoot);
      }
      if (el.tagName === "IFRAME") {
        let doc = null;
        try { doc = el.contentDocument; } catch (e) { doc = null; }
        if (doc) read(doc);
      }
    }
  };
  read(document);
  return parts.join("\n");
}`

// VisibleText returns the text a person can read on the page, with the values of its
// fields (but never of password fields).
func (s *Session) VisibleText(ctx context.Context) (string, error) { return s.text(ctx, true) }

// ShownText is the text the page itself shows, without the values of its fields: what
// a step's effect is looked for in (a value the agent typed is no evidence of anything).
func (s *Session) ShownText(ctx context.Context) (string, error) { return s.text(ctx, false) }

func (s *Session) text(ctx context.Context, fields bool) (string, error) {
	return s.readText(ctx, visibleTextJS, fields, "the page's text")
}

// readText runs one of the page's text readers (js, given whether to take the fields'
// values) and takes the secrets the session typed out of what it read.
func (s *Session) readText(ctx context.Context, js string, fields bool, what string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	v, err := s.page.Evaluate(js, fields)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", what, err)
	}
	text, _ := v.(string)
	return s.secrets.redact(text), nil
}
