package driver

import (
	"context"
	"fmt"
)

// What a person sees: "is visible" and "is not visible" judge the text a person can read
// on the page, not the text the document holds. The page's rendered text (innerText)
// already leaves out what display: none, the hidden attribute and visibility: hidden
// hide; seenTextJS also leaves out
//   - the values of fields that are not shown (a hidden row's edit field keeps the row's
//     name as its value: the row is gone, its name is not on the page);
//   - shadow roots and frames whose host is not shown (innerText of an element that is
//     not rendered is its whole textContent);
//   - text that is rendered but cannot be seen: under opacity 0, clipped to a box of a
//     pixel or less (a collapsed panel, a screen-reader-only label), or placed wholly
//     above or left of the page.
//
// aria-hidden text is seen: it is hidden from assistive technology, not from the eye.
const seenTextJS = `(fields) => {
  const parts = [], unseen = [];
  const shown = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true, opacityProperty: true, visibilityProperty: true });
  // cannotSee: el is rendered, but a person cannot see what is in it.
  const cannotSee = (el) => {
    const cs = getComputedStyle(el);
    if (cs.display === "contents") return false;
    if (parseFloat(cs.opacity) === 0) return "opacity";
    const clips = cs.overflowX !== "visible" || cs.overflowY !== "visible" || cs.clip !== "auto" || cs.clipPath !== "none";
    const placed = cs.position === "absolute" || cs.position === "fixed";
    if (!clips && !placed) return false;
    const r = el.getBoundingClientRect();
    if (clips && (r.width <= 1 || r.height <= 1)) return true;
    // Above or left of the page: a fixed box is placed against the window, not the page.
    const [x, y] = cs.position === "fixed" ? [0, 0] : [scrollX, scrollY];
    return placed && (r.width > 0 || r.height > 0) && (r.right + x <= 0 || r.bottom + y <= 0);
  };
  // escapes: something in el is plainly seen all the same — a box of its own text that a
  // point at its centre reaches (a page lays its whole window out in absolutely placed
  // boxes inside a wrapper of no size, which clips nothing of them).
  const escapes = (el) => {
    let n = 0;
    for (const d of el.querySelectorAll("*")) {
      if (++n > 400) break;
      if (!Array.from(d.childNodes).some((c) => c.nodeType === 3 && c.textContent.trim())) continue;
      const r = d.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) continue;
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      const hit = d.ownerDocument.elementFromPoint(x, y);
      if (hit && (hit === d || d.contains(hit) || hit.contains(d))) return true;
    }
    return false;
  };
  const inUnseen = (el) => unseen.some((u) => u.contains(el));
  const read = (root) => {
    if (root.body) parts.push(root.body.innerText);
    for (const el of root.querySelectorAll("*")) {
      if (!el.checkVisibility()) continue;
      const why = !inUnseen(el) && cannotSee(el);
      // Opacity hides all that is in the box; a clip or a placement may leave some of it out.
      if (why && (why === "opacity" || !escapes(el))) { unseen.push(el); continue; }
      if (el.shadowRoot && shown(el) && !inUnseen(el)) {
        for (const c of el.shadowRoot.children) if (c.checkVisibility() && c.innerText) parts.push(c.innerText);
        read(el.shadowRoot);
      }
      if (el.tagName === "IFRAME" && shown(el) && !inUnseen(el)) {
        let doc = null;
        try { doc = el.contentDocument; } catch (e) { doc = null; }
        if (doc) read(doc);
      }
    }
    if (fields) for (const el of root.querySelectorAll("input, textarea, select")) {
      if (el.type === "password" || el.type === "hidden" || el.autocomplete === "one-time-code") continue;
      if (!shown(el) || inUnseen(el)) continue;
      if (el.tagName === "SELECT") { if (el.selectedOptions[0]) parts.push(el.selectedOptions[0].label); continue; }
      if (el.value) parts.push(el.value);
    }
  };
  read(document);
  let text = parts.join("\n");
  // Rendered text a person cannot see is taken out once for each place that holds it.
  for (const u of unseen) {
    const t = (u.innerText || "").trim();
    const at = t ? text.indexOf(t) : -1;
    if (at >= 0) text = text.slice(0, at) + "\n" + text.slice(at + t.length);
  }
  return text;
}`

// SeenText is the text a person can see on the page, with the values of the fields they
// can see when fields is true: what an assertion that text is (or is not) visible reads.
func (s *Session) SeenText(ctx context.Context, fields bool) (string, error) {
	return s.readText(ctx, seenTextJS, fields, "the text the page shows")
}

// fieldTextsJS reads what the page's shown fields hold: the values of its inputs and text
// areas and the text of its editable boxes, in open shadow roots and same-origin frames
// too (never a password field's).
const fieldTextsJS = `() => {
  const out = [];
  const shown = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const read = (root) => {
    for (const el of root.querySelectorAll("input, textarea, [contenteditable]:not([contenteditable=false])")) {
      if (!shown(el)) continue;
      if (el.tagName === "INPUT" || el.tagName === "TEXTAREA") {
        if (el.type === "password" || el.type === "hidden" || el.autocomplete === "one-time-code") continue;
        if (el.value) out.push(el.value);
      } else if (el.isContentEditable && el.innerText) {
        out.push(el.innerText);
      }
    }
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) read(el.shadowRoot);
      if (el.tagName === "IFRAME" && shown(el)) {
        let doc = null;
        try { doc = el.contentDocument; } catch (e) { doc = null; }
        if (doc) read(doc);
      }
    }
  };
  read(document);
  return out;
}`

// FieldTexts is what the fields a person sees hold: what the page shows only because it
// was typed into it.
func (s *Session) FieldTexts(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	v, err := s.page.Evaluate(fieldTextsJS)
	if err != nil {
		return nil, fmt.Errorf("read the page's fields: %w", err)
	}
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		if t, ok := x.(string); ok {
			out = append(out, s.secrets.redact(t))
		}
	}
	return out, nil
}
