package plan

import (
	"testing"
	"unicode/utf8"
)

// A key is capitalised by its first character, not its first byte.
func TestKeyFor(t *testing.T) {
	for in, want := range map[string]string{
		"ctrl + a": "Control+A",
		"enter":    "Enter",
		"f5":       "F5",
		"é":        "É",
		"ñandú":    "Ñandú",
		"shift+ß":  "Shift+ß",
		"alt+ω":    "Alt+Ω",
	} {
		got := keyFor(in)
		if got != want || !utf8.ValidString(got) {
			t.Errorf("keyFor(%q) = %q, want %q", in, got, want)
		}
	}
}
