package plan

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A tok is one token of a sentence: a word, a number, a quoted string (masked as
// \x01N\x02, see mask) or one character of punctuation. The grammar reads tokens, never
// characters; what it captures is the text between tokens, as written.
type tok struct {
	// text is the token as written; low is it in lower case, what the lexicon is matched
	// with.
	text, low string
	// start and end are the token's bytes in the sentence.
	start, end int
	// space is true when white space comes before the token.
	space bool
	kind  tokKind
	// quote is the index of a quoted string, for a quote token; single is true when the
	// string was quoted in single quotes where those do not name a place (maskTarget).
	quote  int
	single bool
}

type tokKind uint8

const (
	tWord tokKind = iota
	tNumber
	tQuote
	tPunct
)

// tokenize splits s into tokens. A word is a run of letters, digits and underscores, with
// an apostrophe inside it ("user's", "don't"); a number is digits with one decimal part
// ("47.10"); anything else but white space is a token of its own.
func tokenize(s string) []tok {
	var out []tok
	space := false
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsSpace(r):
			space = true
			i += n
			continue
		case r == '\x01':
			if end := strings.IndexByte(s[i:], '\x02'); end > 0 {
				n, single := strings.CutPrefix(s[i+1:i+end], "'")
				if q, err := strconv.Atoi(n); err == nil && isDigits(n) {
					out = append(out, tok{text: s[i : i+end+1], low: s[i : i+end+1], start: i, end: i + end + 1, space: space, kind: tQuote, quote: q, single: single})
					i, space = i+end+1, false
					continue
				}
			}
		case isWordChar(r):
			j := wordEnd(s, i)
			kind := tWord
			if isDigits(s[i:j]) {
				kind = tNumber
				if j+1 < len(s) && s[j] == '.' && isDigitByte(s[j+1]) {
					j = wordEnd(s, j+1)
				}
			}
			out = append(out, tok{text: s[i:j], low: strings.ToLower(s[i:j]), start: i, end: j, space: space, kind: kind})
			i, space = j, false
			continue
		}
		out = append(out, tok{text: s[i : i+n], low: strings.ToLower(s[i : i+n]), start: i, end: i + n, space: space, kind: tPunct})
		i, space = i+n, false
	}
	return out
}

// wordEnd is where the word that starts at i ends: letters, digits, underscores, and an
// apostrophe between letters.
func wordEnd(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if isWordChar(r) {
			i += n
			continue
		}
		if r == '\'' && i+n < len(s) {
			if next, _ := utf8.DecodeRuneInString(s[i+n:]); unicode.IsLetter(next) && i > 0 {
				i += n
				continue
			}
		}
		break
	}
	return i
}

func isWordChar(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func isDigitByte(b byte) bool { return b >= '0' && b <= '9' }

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigitByte(s[i]) {
			return false
		}
	}
	return s != ""
}

// capitalised reports a word written with a capital first letter: a name as a page
// writes it ("Last name", "Continue", "Tree (Network)").
func capitalised(w string) bool { return w != "" && w[:1] != strings.ToLower(w[:1]) }

// upperFirst is w with its first letter written as a capital ("save" → "Save"), as a
// page writes a control's name; w is a lexicon's word, its first letter one byte.
func upperFirst(w string) string {
	if w == "" {
		return w
	}
	return strings.ToUpper(w[:1]) + w[1:]
}

// replaceWords writes with in place of each of the phrases in s, left to right.
func replaceWords(s string, words rule, with string) string {
	for from := 0; ; {
		ts := tokenizeLoose(s[from:])
		i, j := findWord(ts, words)
		if i < 0 {
			return s
		}
		at := from + ts[i].start
		s = s[:at] + with + s[from+ts[j-1].end:]
		from = at + len(with)
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
