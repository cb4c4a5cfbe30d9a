package page

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTruncate: text a step quotes from the page is cut to at most n bytes and "…", on a
// character boundary: pages in any script reach step errors, which must stay valid UTF-8.
func TestTruncate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"Apollo", 6, "Apollo"},
		{"Apollo", 3, "Apo…"},
		{"日本語", 4, "日…"},
		{"Ελλάδα", 3, "Ε…"},
		{"a😀", 4, "a…"},
	} {
		if got := Truncate(tc.in, tc.n); got != tc.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
	s := strings.Repeat("ab日本αβ😀-", 4)
	for n := range len(s) {
		got := Truncate(s, n)
		if !utf8.ValidString(got) || len(got) > n+len("…") || !strings.HasPrefix(s, strings.TrimSuffix(got, "…")) {
			t.Errorf("Truncate(s, %d) = %q: invalid, too long, or not a cut of s", n, got)
		}
	}
}
