// Package textcut shortens text for messages, prompts and tables without ever cutting a
// character in two. A string cut inside a multi-byte character is invalid UTF-8, and a
// failure message that is not valid UTF-8 cannot be encoded by Temporal: the workflow task
// that carries it never completes. Every place that shortens text uses Cut.
package textcut

import (
	"strings"
	"unicode/utf8"
)

// Cut returns s when it is at most n bytes long; otherwise its longest prefix of at most n
// bytes that ends on a character boundary, followed by mark (which is not counted in n).
// The result is always valid UTF-8: bytes of s that are not are dropped.
func Cut(s string, n int, mark string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "")
	}
	if len(s) <= n {
		return s
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + mark
}
