package plan

// The operands of a step as the planner writes them: keys, names, durations, and what a
// step is for.

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// keyFor writes a key or chord the way Playwright names it ("ctrl + a" → "Control+A").
func keyFor(s string) string {
	names := map[string]string{
		"enter": "Enter", "return": "Enter", "tab": "Tab", "escape": "Escape", "esc": "Escape",
		"backspace": "Backspace", "delete": "Delete", "del": "Delete", "space": "Space", "spacebar": "Space",
		"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight",
		"arrowup": "ArrowUp", "arrowdown": "ArrowDown", "arrowleft": "ArrowLeft", "arrowright": "ArrowRight",
		"home": "Home", "end": "End", "pageup": "PageUp", "pagedown": "PageDown",
		"ctrl": "Control", "control": "Control", "shift": "Shift", "alt": "Alt", "option": "Alt",
		"meta": "Meta", "cmd": "Meta", "command": "Meta",
	}
	var parts []string
	for _, p := range strings.Split(strings.ToLower(s), "+") {
		p = strings.Join(strings.Fields(p), "")
		switch {
		case names[p] != "":
			parts = append(parts, names[p])
		case utf8.RuneCountInString(p) == 1:
			parts = append(parts, strings.ToUpper(p))
		default:
			// The first character, not the first byte: a key named in another script.
			r, n := utf8.DecodeRuneInString(p)
			parts = append(parts, string(unicode.ToUpper(r))+p[n:])
		}
	}
	return strings.Join(parts, "+")
}

func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "_"):
			b.WriteByte('_')
		}
	}
	return strings.Trim(b.String(), "_")
}

// describe fills in the semantic role and the expected outcome the planner can infer.
func describe(s *Step) {
	*s = s.typed()
	if s.SemanticRole == "" {
		switch s.Action {
		case Navigate, Scroll:
			s.SemanticRole = Navigation
		case Type, Append, Select, Check:
			s.SemanticRole = FormField
		case Assert, Wait, Extract:
			s.SemanticRole = Confirmation
		default:
			s.SemanticRole = PrimaryAction
			if hasWord(s.TargetDescription, word("tab", "link", "menu", "page", "back", "next", "previous")) {
				s.SemanticRole = Navigation
			}
		}
	}
	if s.ExpectedOutcome == "" {
		switch s.Action {
		case Click:
			s.ExpectedOutcome = "the page responds to the click on " + strconv.Quote(s.TargetDescription)
		case Type:
			s.ExpectedOutcome = fmt.Sprintf("%q holds %q", s.TargetDescription, s.Value)
		case Append:
			s.ExpectedOutcome = fmt.Sprintf("%q ends with %q", s.TargetDescription, s.Value)
		case Select:
			s.ExpectedOutcome = fmt.Sprintf("%q shows %q", s.TargetDescription, s.Value)
		case Check:
			s.ExpectedOutcome = fmt.Sprintf("%q is %s", s.TargetDescription, map[bool]string{true: "unchecked", false: "checked"}[s.Uncheck])
		case Navigate:
			s.ExpectedOutcome = "the browser shows " + s.URL
		case Assert:
			s.ExpectedOutcome = s.String()
		}
	}
}

// ParseDuration reads a WAIT value: "2", "2s", "1.5 seconds", "500 ms", "1 minute".
func ParseDuration(v string) (time.Duration, error) {
	num, u, ok := readDuration(v)
	if !ok {
		return 0, fmt.Errorf("cannot read %q as a duration; write it as \"2 seconds\" or \"500ms\"", v)
	}
	n, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("cannot read %q as a duration; write it as \"2 seconds\" or \"500ms\"", v)
	}
	unit := time.Second
	switch u := strings.ToLower(u); {
	case strings.HasPrefix(u, "ms") || strings.HasPrefix(u, "milli"):
		unit = time.Millisecond
	case u == "m" || strings.HasPrefix(u, "min"):
		unit = time.Minute
	}
	if n*float64(unit) > float64(MaxWait) {
		return 0, fmt.Errorf("a wait of %q is longer than the %s a step may wait", v, MaxWait)
	}
	return time.Duration(n * float64(unit)), nil
}
