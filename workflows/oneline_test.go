package workflows

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestOneLine: the goal a run quotes in its summaries is cut to 117 bytes and "..." when it
// is over 120, on a character boundary, so that a goal in any script stays valid UTF-8.
func TestOneLine(t *testing.T) {
	a := func(n int) string { return strings.Repeat("a", n) }
	for _, tc := range []struct{ in, want string }{
		{"click  it,\n then   check", "click it, then check"},
		{a(120), a(120)},
		{a(121), a(117) + "..."},
		{a(116) + "日本", a(116) + "..."},   // 日 is bytes 116-118: it does not fit
		{a(114) + "日本語", a(114) + "日..."}, // 日 ends at 117
		{a(115) + "😀😀", a(115) + "..."},
	} {
		if got := oneLine(tc.in); got != tc.want {
			t.Errorf("oneLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// Every byte of the pattern comes under the cut once.
	unit := "ab日本αβ😀-"
	for pad := range len(unit) {
		s := strings.Repeat("x", pad) + strings.Repeat(unit, 10)
		got := oneLine(s)
		if !utf8.ValidString(got) || len(got) > 120 || !strings.HasSuffix(got, "...") || !strings.HasPrefix(s, strings.TrimSuffix(got, "...")) {
			t.Errorf("oneLine(%q) = %q: invalid, too long, or not a cut of it", s, got)
		}
	}
}
