package driver

//lint:file-ignore SA1019 The pager's control a page script found is a node, not a selector; only an ElementHandle names it.

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/playwright-community/playwright-go"
)

// A list split into pages (a contact book, search results, a table of orders) shows one
// page at a time: what a goal names may be on another page, and a person finds it by
// going to the next page until it shows. Paging changes what the page shows, not what the
// site holds; it stops at the last page, when the page stops changing, or at maxPages.

// maxPages is how many pages of a list are looked at, at most, for what a step names.
const maxPages = 20

// nextPageJS finds the control that shows a paged list's next page: a link or button
// marked rel=next, or called "Next" or "Next page" (aria-label, title), or written ">",
// "›", "»", "→" or "Next". It must be a pager's, not a form's "Next" (a wizard's step sends
// what was typed): it says "page" or rel=next, or sits among page numbers. One control
// is an answer; several (two lists, or the same pager twice) are not.
const nextPageJS = `() => {
  const norm = (t) => (t || "").replace(/\s+/g, " ").trim().toLowerCase();
  const said = (el) => norm(el.getAttribute("aria-label") || el.getAttribute("title") || "");
  const rel = (el) => (el.getAttribute("rel") || "").split(/\s+/).includes("next");
  const arrows = new Set([">", "›", "»", "→", "next", "next page", "next >", "next ›", "next »", "next →"]);
  const isNext = (el) => rel(el) || /^next(\s+page)?$/.test(said(el)) || arrows.has(norm(el.innerText || el.value));
  // Page numbers are a few links in a row, in a small box of their own with the next
  // control (not the days of a calendar's grid, whose "next" shows another month, nor a
  // number elsewhere in the page around a form's "Next").
  const numbered = (el) => {
    for (let p = el.parentElement, i = 0; p && i < 3; p = p.parentElement, i++) {
      const nums = Array.from(p.querySelectorAll("a, button, [role=link], [role=button], [aria-current], li > span")).filter((n) =>
        n !== el && !n.closest("td, [role=gridcell]") && /^\d{1,4}$/.test(norm(n.innerText || n.textContent)));
      if (nums.length > 0) return nums.length <= 15 && norm(p.innerText).length <= 120;
    }
    return false;
  };
  const pager = (el) => rel(el) || /page/.test(said(el) + " " + norm(el.innerText)) || numbered(el);
  const shown = (el) => {
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const cls = (n) => (n && typeof n.className === "string" ? n.className : "");
  const off = (el) => el.disabled || el.getAttribute("aria-disabled") === "true" ||
    /(^|\s)disabled(\s|$)/.test(cls(el)) || /(^|\s)disabled(\s|$)/.test(cls(el.parentElement));
  const all = Array.from(document.querySelectorAll("a, button, [role=link], [role=button], input[type=button]"))
    .filter((el) => el.type !== "submit" && isNext(el) && pager(el));
  const seen = all.filter(shown);
  if (seen.length === 0) return { state: all.length ? "gone" : "none" };
  const live = seen.filter((el) => !off(el));
  if (live.length === 0) return { state: "disabled" };
  if (live.length > 1) return { state: "several", n: live.length };
  window.__webagentNext = live[0];
  return { state: "ok", name: ((live[0].innerText || "").trim() || said(live[0])).slice(0, 30) };
}`

// shownTextJS counts the visible elements whose whole text is the name, and signs what
// the page says (its text's length and a hash), to tell a page that changed.
const shownTextJS = `(name) => {
  const norm = (t) => (t || "").replace(/\s+/g, " ").trim().replace(/:$/, "").trim().toLowerCase();
  const want = norm(name);
  let n = 0;
  for (const el of want ? document.body.querySelectorAll("*") : []) {
    if (/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(el.tagName)) continue;
    const tc = el.textContent || "";
    if (tc.length > want.length * 2 + 40 || norm(tc) !== want) continue;
    if (Array.from(el.children).some((c) => norm(c.textContent) === want)) continue;
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    n++;
  }
  const text = document.body.innerText || "";
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return { n, sign: text.length + ":" + h };
}`

// paging is what paging a list for a name did: the pages it went on (clicks of the next
// control, called control) and whether the name showed; why says why the name is not
// there, once a list was paged through without it.
type paging struct {
	found   bool
	clicks  int
	control string
	why     string
}

// shown is what shownTextJS reads.
type shown struct {
	N    int    `json:"n"`
	Sign string `json:"sign"`
}

func (s *Session) shownText(name string) (shown, error) {
	var got shown
	v, err := s.page.Evaluate(shownTextJS, name)
	if err == nil {
		err = decode(v, &got)
	}
	return got, err
}

// pageTo goes to the next page of the page's one paged list until the page shows name as
// an element's whole text. A page with no pager (or several) is not paged: nothing is
// done, and nothing said. A pager click that sends a change to the site stops it.
func (s *Session) pageTo(ctx context.Context, name string) (paging, error) {
	var p paging
	for {
		now, err := s.shownText(name)
		if err != nil {
			return p, err
		}
		if now.N > 0 {
			p.found = true
			return p, nil
		}
		if p.clicks+1 >= maxPages {
			p.why = fmt.Sprintf("%q is not on any of the %d pages looked at (the most a step pages through)", name, p.clicks+1)
			return p, nil
		}
		var next struct {
			State string `json:"state"`
			Name  string `json:"name"`
		}
		v, err := s.page.Evaluate(nextPageJS)
		if err == nil {
			err = decode(v, &next)
		}
		if err != nil || next.State != "ok" {
			if p.clicks > 0 {
				p.why = fmt.Sprintf("%q is not on any of the %d pages of the list (paged with %q to the last, where the next page control is %s)", name, p.clicks+1, p.control, nextGone[next.State])
			}
			return p, err
		}
		p.control = next.Name
		if why, err := s.nextPage(ctx, now.Sign); err != nil || why != "" {
			if why != "" {
				p.why = fmt.Sprintf("%q is not on any of the %d pages looked at: %s", name, p.clicks+1, why)
			}
			return p, err
		}
		p.clicks++
	}
}

// nextGone says how a pager shows that there is no next page.
var nextGone = map[string]string{"none": "gone", "gone": "hidden", "disabled": "disabled", "several": "not one control", "": "not found"}

// nextPage clicks the control nextPageJS found and waits, up to a few seconds, for the
// page to say something else than it did (sign). why says why paging stops there.
func (s *Session) nextPage(ctx context.Context, sign string) (string, error) {
	el := s.kept(`() => window.__webagentNext || null`)
	if el == nil {
		return "the next page control went away", nil
	}
	defer el.Dispose()
	m0 := s.Mutations()
	if err := el.Click(playwright.ElementHandleClickOptions{Timeout: ms(bounded(ctx, 5*time.Second))}); err != nil {
		return "the next page control could not be clicked", ctx.Err()
	}
	if err := s.Settle(ctx, 3*time.Second); err != nil {
		return "", err
	}
	if s.Mutations() > m0 {
		return "going to the next page sent a change to the site, so paging stopped", nil
	}
	for deadline := time.Now().Add(3 * time.Second); ; {
		now, err := s.shownText("")
		if err != nil {
			return "", err
		}
		if now.Sign != sign {
			return "", nil
		}
		if !time.Now().Before(deadline) {
			return "the page did not change when its next page control was clicked", nil
		}
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return "", err
		}
	}
}

// note says what paging did, for the step's actions.
func (p paging) note(name string) string {
	times := strconv.Itoa(p.clicks) + " times"
	if p.clicks == 1 {
		times = "once"
	}
	return fmt.Sprintf("went to the next page of the list (%q) %s, to the page that shows %q", p.control, times, name)
}
