package model

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTruncateText: a page's text in a prompt is cut to at most n bytes and "\n[…]", on a
// character boundary: the model's API takes UTF-8 only.
func TestTruncateText(t *testing.T) {
	const mark = "\n[…]"
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdef", 3, "abc" + mark},
		{"日本語", 4, "日" + mark},
	} {
		if got := truncateText(tc.in, tc.n); got != tc.want {
			t.Errorf("truncateText(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
	s := strings.Repeat("ab日本αβ😀-", 4)
	for n := range len(s) {
		got := truncateText(s, n)
		if !utf8.ValidString(got) || len(got) > n+len(mark) || !strings.HasPrefix(s, strings.TrimSuffix(got, mark)) {
			t.Errorf("truncateText(s, %d) = %q: invalid, too long, or not a cut of s", n, got)
		}
	}
}
