package page

import (
	"fmt"
	"strings"
)

// TextBlock is text the page shows that a person reads first: a heading, or what the page
// announces — an alert, a status line or toast, an error message.
type TextBlock struct {
	// Kind is "heading", "alert", "status" or "error".
	Kind string `json:"kind"`
	Text string `json:"text"`
	// Where is "above" or "below" for a block scrolled out of the viewport, else "".
	Where string `json:"where,omitempty"`
}

// Outline is the page's text that matters, for a prompt: its headings and announcements,
// one a line, and how much of the page lies above and below the viewport. "" when the
// observation has neither.
func (o Observation) Outline() string {
	var b strings.Builder
	for _, t := range o.Blocks {
		fmt.Fprintf(&b, "%s: %q", t.Kind, truncate(t.Text, 160))
		if t.Where != "" {
			fmt.Fprintf(&b, " (%s the viewport)", t.Where)
		}
		b.WriteByte('\n')
	}
	if s := o.scrolled(); s != "" {
		b.WriteString(s + "\n")
	}
	return b.String()
}

// scrolled says how far the page reaches past the viewport, or "" when it fits.
func (o Observation) scrolled() string {
	above, below := o.ScrollY, o.ScrollMax-o.ScrollY
	switch {
	case above <= 0 && below <= 0:
		return ""
	case above <= 0:
		return fmt.Sprintf("the page goes on for %d px below the viewport", below)
	case below <= 0:
		return fmt.Sprintf("the page is scrolled to its end; %d px are above the viewport", above)
	}
	return fmt.Sprintf("%d px of the page are above the viewport and %d px below", above, below)
}

// Alerts are the blocks the page announces (alerts, status lines, toasts, errors), which
// may say whether an action worked wherever they sit on the page.
func (o Observation) Alerts() []TextBlock {
	var out []TextBlock
	for _, t := range o.Blocks {
		if t.Kind != "heading" {
			out = append(out, t)
		}
	}
	return out
}
