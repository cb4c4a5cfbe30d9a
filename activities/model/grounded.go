package model

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// pageText is a page's full text as values read off it are looked up in: lower case,
// white space collapsed, with the numbers it shows read as numbers.
type pageText struct {
	text    string
	numbers map[float64]bool
	digits  string
}

func newPageText(s string) *pageText {
	p := &pageText{text: normText(s), numbers: map[float64]bool{}}
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' && r != ',' }) {
		if f, ok := number(tok); ok {
			p.numbers[f] = true
		}
	}
	p.digits = digitsOf(s)
	return p
}

// occurs reports whether a value read off the page is on it: its text, case and spacing
// aside; or, for a number, the same number however the page formats it ("1,234.50" is
// 1234.5), or its digits in the page's when it has four or more (a phone number).
func (p *pageText) occurs(v string) bool {
	n := normText(v)
	if n == "" || strings.Contains(p.text, n) {
		return true
	}
	if !numeric(v) {
		return false
	}
	if f, ok := number(strings.Trim(v, " $€£¥%+")); ok && p.numbers[f] {
		return true
	}
	d := digitsOf(v)
	return len(d) >= 4 && strings.Contains(p.digits, d)
}

// ungrounded is the first string in the data (in key order) that does not occur on the
// page, and whether there is one.
func (p *pageText) ungrounded(data any) (string, bool) {
	switch v := data.(type) {
	case string:
		return v, !p.occurs(v)
	case []any:
		for _, x := range v {
			if s, bad := p.ungrounded(x); bad {
				return s, true
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if s, bad := p.ungrounded(v[k]); bad {
				return s, true
			}
		}
	}
	return "", false
}

// groundError is what the model is told of a value that is not on the page.
func groundError(v string) error {
	return fmt.Errorf("%q does not occur on the page; copy values exactly as the page shows them, or answer null", v)
}

func normText(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// numeric reports whether a value is a number as pages write them: digits with separators,
// a sign, a currency or a percent, and no words.
func numeric(v string) bool {
	digits := false
	for _, r := range v {
		switch {
		case unicode.IsDigit(r):
			digits = true
		case !strings.ContainsRune(" .,-+()$€£¥%/:", r):
			return false
		}
	}
	return digits
}

// number reads a number written with thousands commas.
func number(s string) (float64, bool) {
	f, err := strconv.ParseFloat(strings.ReplaceAll(strings.Trim(s, ".,"), ",", ""), 64)
	return f, err == nil
}

func digitsOf(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return r
		}
		return -1
	}, s)
}
