package workflows

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Caps on what people send with the Updates that answer a run (approve, reject, resolve,
// pause, resume, cancel, hint). Anyone who may start a run may send them, and what they
// send is written into the run's history, its output and, for a hint, the replanner's
// prompt: a name or a note of megabytes would bloat all three. The validators refuse an
// answer past these caps before it is written anywhere, so a refused Update leaves no
// trace, and the starter checks the same before it sends.
const (
	// MaxByBytes caps who answers ("by"): a name, on one line.
	MaxByBytes = 200
	// MaxNoteBytes caps the note an answer carries for the record.
	MaxNoteBytes = 2000
	// MaxHintBytes caps a hint's text, which goes to the replanner.
	MaxHintBytes = 2000
)

// CheckAnswer says what is wrong with who answers and the note they send, or nil: "by"
// is a name on one line; a note may hold newlines and tabs but no other control
// character; both are valid UTF-8 within their caps.
func CheckAnswer(by, note string) error {
	if strings.TrimSpace(by) == "" {
		return errors.New(`say who answers: "by" is empty`)
	}
	if err := checkText(`"by"`, by, MaxByBytes, false); err != nil {
		return err
	}
	return checkText("the note", note, MaxNoteBytes, true)
}

// CheckHint says what is wrong with a hint's text, or nil.
func CheckHint(text string) error {
	if strings.TrimSpace(text) == "" {
		return errors.New("the hint is empty: say what to do, e.g. 'click \"Advanced\" first'")
	}
	return checkText("the hint", text, MaxHintBytes, true)
}

// checkText refuses s past limit bytes, not valid UTF-8, or holding a control character
// (but for newline and tab where lines are allowed): each would reach a log line, a
// report or a prompt as something other than the text a person wrote.
func checkText(what, s string, limit int, lines bool) error {
	if n := len(s); n > limit {
		return fmt.Errorf("%s is %s bytes; at most %s are kept: shorten it", what, thousands(n), thousands(limit))
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("%s is not valid UTF-8: send it as text", what)
	}
	for i, r := range s {
		if lines && (r == '\n' || r == '\t') {
			continue
		}
		if unicode.IsControl(r) {
			if !lines {
				return fmt.Errorf("%s holds a control character (%U at byte %d): write it on one line, as plain text", what, r, i)
			}
			return fmt.Errorf("%s holds a control character (%U at byte %d): only newlines and tabs are kept; remove it", what, r, i)
		}
	}
	return nil
}

// thousands writes n with its thousands separated, as people read sizes: 5,321.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
