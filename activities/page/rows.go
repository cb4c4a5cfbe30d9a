package page

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// How well a row's text holds the name a target gives the row.
const (
	rowNone  = iota
	rowInner // the name is inside a longer word: "Q4-bugs" in "Q4-bugs-old"
	rowWhole // the name stands as words of its own: "Q4-bugs" in "Q4-bugs Medium"
)

// rowFit says how well row holds name: as whole words, only inside a longer word, or not
// at all. A hyphen, an underscore or an apostrophe joins a word: "Q4-bugs-old" is another
// project than "Q4-bugs", and a row named the one is not the row named the other.
func rowFit(row, name string) int {
	row, name = asData(row, name)
	row, name = norm(row), norm(name)
	if name == "" {
		return rowNone
	}
	best := rowNone
	for from := 0; ; {
		i := strings.Index(row[from:], name)
		if i < 0 {
			return best
		}
		i += from
		end := i + len(name)
		if bounded(row, i, end) {
			return rowWhole
		}
		best = rowInner
		from = i + 1
	}
}

// asData reads an item named by its data ("alertname=InstanceDown", a matcher, a label) as
// the page may write it, with its value quoted (alertname="InstanceDown"): the quotes are
// no part of the data, on either side.
func asData(row, name string) (string, string) {
	if !strings.Contains(name, "=") {
		return row, name
	}
	drop := strings.NewReplacer(`"`, "", "'", "", "“", "", "”", "")
	return drop.Replace(row), drop.Replace(name)
}

// bounded reports whether row[i:end] is not part of a longer word.
func bounded(row string, i, end int) bool {
	joins := func(r rune) bool {
		return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '\''
	}
	first, _ := utf8.DecodeRuneInString(row[i:])
	last, _ := utf8.DecodeLastRuneInString(row[:end])
	if before, _ := utf8.DecodeLastRuneInString(row[:i]); i > 0 && joins(before) && joins(first) {
		return false
	}
	if after, _ := utf8.DecodeRuneInString(row[end:]); end < len(row) && joins(after) && joins(last) {
		return false
	}
	return true
}

// rowFitOf is how well e sits in the row (or, for a named item, the container) the target
// names.
func (t Target) rowFitOf(e Element) int {
	fit := rowFit(e.Row, t.Row)
	if t.RowNoun == "section" {
		// Under a heading: the section it heads, or the box it begins (a menu's part,
		// headed by a host's name); the name elsewhere in the box is no heading.
		fit = max(rowFit(e.Section, t.Row), rowFit(e.Container, t.Row))
		if r, n := norm(e.Row), norm(t.Row); n != "" && strings.HasPrefix(r, n) && bounded(r, 0, len(n)) {
			fit = rowWhole
		}
		return fit
	}
	if t.RowNoun != "" {
		// A named item, a section: the box it is in, or the heading over it.
		fit = max(fit, rowFit(e.Container, t.Row), rowFit(e.Section, t.Row))
	}
	return fit
}

// bestRows keeps the elements in the row the target names: a row that holds the name as
// words of its own. "In the row \"Q4-bugs\"" is never the row "Q4-bugs-old": that is
// another name, and exact or silent.
func (t Target) bestRows(pool []Element) []Element {
	return filterAll(pool, func(e Element) bool { return t.rowFitOf(e) == rowWhole })
}
