package driver

//lint:file-ignore SA1019 The calendar is opened by clicking the exact node the observation numbered; only an ElementHandle names that node.

import (
	"context"
	"fmt"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/webagent-dev/webagent/plan"
)

// calendarJS looks at the calendar a date field opened — the smallest visible element
// that shows a month and a year and the days of a month — and, given the wanted month,
// marks what to click next: the wanted day when the calendar shows that month, or its
// "next" or "previous" control. It marks nothing when there is no such calendar, the
// control is missing, or the day is not there exactly once (disabled days and days of the
// months beside it are not days of this month).
const calendarJS = `([year, month, day]) => {
  const months = ["january","february","march","april","may","june","july","august","september","october","november","december"];
  const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden"; };
  for (const m of document.querySelectorAll("[data-webagent-pick]")) m.removeAttribute("data-webagent-pick");
  const shown = (el) => {
    const t = (el.innerText || "").toLowerCase();
    const m = t.match(/(january|february|march|april|may|june|july|august|september|october|november|december)[\s,]*(\d{4})/);
    return m ? { year: +m[2], month: months.indexOf(m[1]) + 1 } : null;
  };
  const dayCells = (el) => [...el.querySelectorAll("a, button, td, [role=gridcell]")].filter((c) => {
    if (!visible(c) || !/^\d{1,2}$/.test((c.innerText || "").trim())) return false;
    if (c.querySelector("a, button") && c.tagName === "TD") return false; // the link inside is the day
    const cls = ((c.className && c.className.baseVal !== undefined ? c.className.baseVal : c.className) + " " + (c.parentElement ? c.parentElement.className : "")).toLowerCase();
    return !/other-month|outside|disabled|unselectable|prev-month|next-month|old|new\b/.test(cls) && c.getAttribute("aria-disabled") !== "true" && !c.disabled;
  });
  let cal = null, area = Infinity;
  for (const el of document.querySelectorAll("body *")) {
    if (!visible(el) || !shown(el)) continue;
    const days = dayCells(el);
    if (days.length < 28) continue;
    const r = el.getBoundingClientRect();
    if (r.width * r.height < area) { cal = el; area = r.width * r.height; }
  }
  if (!cal) return { found: false };
  const at = shown(cal);
  const want = year * 12 + month, have = at.year * 12 + at.month;
  if (want === have) {
    const hits = dayCells(cal).filter((c) => +c.innerText.trim() === day);
    if (hits.length !== 1) return { found: true, year: at.year, month: at.month, marked: "" };
    hits[0].setAttribute("data-webagent-pick", "day");
    return { found: true, year: at.year, month: at.month, marked: "day" };
  }
  const re = want > have ? /^(next|next month|›|»|>|→)$/i : /^(prev|previous|previous month|‹|«|<|←)$/i;
  const ctl = [...cal.querySelectorAll("a, button, [role=button], span, div")].find((c) => visible(c) &&
    [c.getAttribute("title"), c.getAttribute("aria-label"), (c.innerText || "").trim()].some((s) => s && re.test(s.trim())));
  if (!ctl) return { found: true, year: at.year, month: at.month, marked: "" };
  ctl.setAttribute("data-webagent-pick", want > have ? "next" : "prev");
  return { found: true, year: at.year, month: at.month, marked: want > have ? "next" : "prev" };
}`

// maxMonths bounds how far a calendar is paged to find the month.
const maxMonths = 60

// pickDate sets a date field that takes no typing (a read-only field with a calendar) the
// way a person does: open its calendar, page to the month, click the day. The field's
// value is then checked like any typed value. Exact or silent: a calendar that cannot be
// read, a month it cannot reach, or a day not there exactly once is a failure that says
// so, and nothing else is clicked.
func pickDate(ctx context.Context, a *action, when time.Time, shown string) *plan.Feedback {
	fail := func(details string) *plan.Feedback {
		return &plan.Feedback{Type: plan.WrongElement, Details: fmt.Sprintf("%s takes no typing, and %s", a.ref, details),
			Suggestion: "pick the date in the page's own calendar step by step"}
	}
	if err := a.el.Click(playwright.ElementHandleClickOptions{Timeout: timeout}); err != nil {
		return a.failed(err)
	}
	pick := a.s.page.Locator("[data-webagent-pick]")
	for range maxMonths + 1 {
		if err := a.s.Settle(ctx, a.opts.SettleTimeout); err != nil {
			return a.failed(err)
		}
		raw, err := a.s.page.Evaluate(calendarJS, []int{when.Year(), int(when.Month()), when.Day()})
		if err != nil {
			return a.failed(err)
		}
		var cal struct {
			Found       bool
			Year, Month int
			Marked      string
		}
		_ = decode(raw, &cal)
		switch {
		case !cal.Found:
			return fail("clicking it opened no calendar the agent can read")
		case cal.Marked == "":
			return fail(fmt.Sprintf("its calendar, at %s %d, offers no way to %s exactly", time.Month(cal.Month), cal.Year, when.Format("January 2, 2006")))
		case cal.Marked == "day":
			a.note("picked %s in the calendar of %s", shown, a.ref)
			return a.failed(pick.Click(playwright.LocatorClickOptions{Timeout: timeout}))
		}
		if err := pick.Click(playwright.LocatorClickOptions{Timeout: timeout}); err != nil {
			return a.failed(err)
		}
	}
	return fail(fmt.Sprintf("%s is more than %d months from where its calendar opens", shown, maxMonths))
}

// dateValue reads a value as a calendar date, in the forms inputValue reads.
func dateValue(v string) (time.Time, bool) {
	iso, ok := inputValue("date", v)
	if !ok {
		return time.Time{}, false
	}
	t, err := time.Parse("2006-01-02", iso)
	return t, err == nil
}
