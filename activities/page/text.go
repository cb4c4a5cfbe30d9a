package page

import (
	"regexp"
	"strings"

	"github.com/webagent-dev/webagent/internal/textcut"
)

var spaces = regexp.MustCompile(`\s+`)

// NormalizeText prepares page text for ContainsText.
func NormalizeText(text string) string { return norm(spaces.ReplaceAllString(text, " ")) }

// ContainsText reports whether normalized page text holds want, ignoring case and spacing.
func ContainsText(page, want string) bool { return strings.Contains(page, norm(want)) }

// Norm is the form values are compared in: trimmed, lower case, spacing collapsed.
func Norm(s string) string { return norm(s) }

// OneLine collapses s's spacing to single spaces.
func OneLine(s string) string { return spaces.ReplaceAllString(s, " ") }

// Truncate cuts s to at most n bytes, marking the cut with an ellipsis. It never cuts a
// character in two: what it returns goes into step errors and feedback, and invalid UTF-8
// there is a failure Temporal cannot encode.
func Truncate(s string, n int) string { return truncate(s, n) }

func truncate(s string, n int) string { return textcut.Cut(s, n, "…") }

// FirstNonEmpty returns the first of vs that is not empty.
func FirstNonEmpty(vs ...string) string { return firstNonEmpty(vs...) }
