package textcut

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"abcdef", 3, "abc…"},
		{"日本語", 4, "日…"}, // 3-byte characters: byte 4 is inside the second
		{"日本語", 6, "日本…"},
		{"日本語", 2, "…"},
		{"αβγ", 3, "α…"}, // 2-byte characters
		{"a😀b", 2, "a…"}, // a 4-byte character
		{"abc", 0, "…"},
		{"abc", -1, "…"},
		{"a\xffbc", 2, "ab…"}, // invalid bytes are dropped
		{"ok\xff", 10, "ok"},
	} {
		if got := Cut(tc.s, tc.n, "…"); got != tc.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

// TestCutEveryPoint cuts mixed text at every byte count and checks that the result is
// valid UTF-8 and no longer than asked.
func TestCutEveryPoint(t *testing.T) {
	s := strings.Repeat("ab日本αβ😀-", 20)
	for n := 0; n <= len(s)+1; n++ {
		got := Cut(s, n, "")
		if !utf8.ValidString(got) || len(got) > n || !strings.HasPrefix(s, got) {
			t.Fatalf("Cut(s, %d) = %q: invalid, too long or not a prefix", n, got)
		}
		if n-len(got) > 3 {
			t.Fatalf("Cut(s, %d) dropped %d bytes; a character is at most 4", n, n-len(got))
		}
	}
}
