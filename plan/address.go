package plan

import (
	"regexp"
	"strings"
	"unicode"
)

// Names written as addresses: a host, a mailbox, a path ("example.org",
// "lisa@example.org", "/wiki-old"), as an admin page lists them.

// addressLike is a name written as an address, one word with a dot, an at sign or a
// slash inside: "example.org", "lisa@example.org", "/wiki-old".
func addressLike(p string) bool {
	return len(strings.Fields(p)) == 1 && strings.ContainsAny(p, ".@/") && strings.ContainsFunc(p, unicode.IsLetter)
}

// nounThenAddress reads "the host example.org", "the user lisa@example.org", "the app
// /reports": a word for what kind of thing it is, then its name written as an address.
// The name is the target, as `the draft "Lighthouse Tours"` is; the word only says what
// the person calls it. A word the resolver reads as a kind ("the link /help") is kept.
func nounThenAddress(t string) (string, bool) {
	f := strings.Fields(strings.TrimSpace(t))
	if len(f) == 3 && strings.EqualFold(f[0], "the") {
		f = f[1:]
	}
	if len(f) != 2 || !addressLike(f[1]) || strings.ToLower(f[0]) != f[0] || roleWord(f[0]) != "" || sideWords[f[0]] || pronouns[f[0]] {
		return "", false
	}
	for _, r := range f[0] {
		if r < 'a' || r > 'z' {
			return "", false
		}
	}
	return f[1], true
}

// betweenWords is "the field between "with idle ≥" and "minutes"": a field written
// inside a line of words, named by the words just before it, as the browser names it. The
// words after it say where the line goes on, not which field: the first quote is the name.
var betweenWords = regexp.MustCompile(`(?i)\bbetween\s+(\x01\d+\x02|"[^"]*")\s+and\s+(?:\x01\d+\x02|"[^"]*")`)

// dropBetween writes such a field as the one named by the first quote.
func dropBetween(s string) string { return betweenWords.ReplaceAllString(s, "$1") }
