package plan

import (
	"fmt"
	"strings"
	"unicode"
)

// mask replaces each quoted string by a placeholder \x01N\x02 so that the splitting and
// the sentence patterns never look inside quotes.
func mask(s string) (string, []string) {
	s = strings.NewReplacer("“", `"`, "”", `"`, "„", `"`, "‘", "'", "’", "'", "«", `"`, "»", `"`).Replace(s)
	var out strings.Builder
	var quotes []string
	r := []rune(s)
	for i := 0; i < len(r); i++ {
		c := r[i]
		if c == '"' || (c == '\'' && (i == 0 || !isWordRune(r[i-1]))) {
			if end := closingQuote(r, i); end > 0 {
				fmt.Fprintf(&out, "\x01%d\x02", len(quotes))
				quotes = append(quotes, string(r[i+1:end]))
				i = end
				continue
			}
		}
		out.WriteRune(c)
	}
	return out.String(), quotes
}

// closingQuote finds the quote that closes the one at open, or -1. A single quote closes
// only where it is not followed by a letter, so that "don't" stays a word.
func closingQuote(r []rune, open int) int {
	for j := open + 1; j < len(r); j++ {
		if r[j] != r[open] {
			continue
		}
		if r[open] == '\'' && j+1 < len(r) && isWordRune(r[j+1]) {
			continue
		}
		return j
	}
	return -1
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// unmask puts the quoted strings back, with their quotes when keepQuotes is set.
func unmask(s string, quotes []string, keepQuotes bool) string {
	if !strings.Contains(s, "\x01") {
		return s
	}
	var b strings.Builder
	last := 0
	for _, t := range tokenize(s) {
		if t.kind != tQuote || t.single || t.quote >= len(quotes) {
			continue
		}
		b.WriteString(s[last:t.start])
		if keepQuotes {
			b.WriteString(`"` + quotes[t.quote] + `"`)
		} else {
			b.WriteString(quotes[t.quote])
		}
		last = t.end
	}
	b.WriteString(s[last:])
	return b.String()
}

// loneQuote is the index of the quoted string s is, when s is one placeholder alone.
func loneQuote(s string) (int, bool) {
	ts := tokenize(s)
	if len(ts) == 1 && ts[0].kind == tQuote && ts[0].text == s {
		return ts[0].quote, true
	}
	return 0, false
}

// quotesIn are the indexes of the quoted strings in masked s, in order.
func quotesIn(s string) []int {
	var out []int
	for _, t := range tokenize(s) {
		if t.kind == tQuote {
			out = append(out, t.quote)
		}
	}
	return out
}
