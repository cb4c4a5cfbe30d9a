package plan

import (
	"regexp"
	"strings"
)

// dropRestated drops the intent a goal states before its steps when the steps restate it:
// "Please add a folder named "invoices-2026" next to the other invoice folders. Click F7,
// type invoices-2026 into …", "Rename draft-q3.txt to report-q3.txt: click draft-q3.txt …". The
// intent is the goal's first part, up to a colon or the end of its first sentence,
// starting with a verb. (A colon's label before steps is dropped by dropLabels as well,
// names or none; a sentence is dropped only here.) It is dropped only when the reader cannot read it
// as steps (a step it reads is kept, and done), and when it holds a name (a quoted text, or
// a word with a digit or of joined parts) and every name it holds is in the steps after
// it. An intent that names nothing, or something the steps never mention ("subscribe
// carla@… to the list: My lists, hiking-club, Admin"), is kept, to be read or refused:
// what it asks beyond its steps would be lost.
func dropRestated(goal string) string {
	intent, rest, ok := intentFirst(goal)
	if !ok || !startsWithVerb(stripFillers(intent)) {
		return goal
	}
	names := intentNames(intent)
	if len(names) == 0 {
		return goal
	}
	low := strings.ToLower(rest)
	for _, n := range names {
		if !strings.Contains(low, strings.ToLower(n)) {
			return goal
		}
	}
	// Read last, and only then: most goals end at the checks above.
	if _, err := Parse(intent); err == nil {
		return goal
	}
	return rest
}

// intentFirst splits goal at the end of its first part: a colon outside quotes with no
// sentence's end before it, or else the end of its first sentence; ok when steps follow.
func intentFirst(goal string) (intent, rest string, ok bool) {
	inQuote := false
	for i, r := range goal {
		switch {
		case r == '"':
			inQuote = !inQuote
		case inQuote:
		case r == ':' && i+1 < len(goal) && goal[i+1] == ' ':
			return strings.TrimSpace(goal[:i]), strings.TrimSpace(goal[i+1:]), strings.TrimSpace(goal[i+1:]) != ""
		case (r == '.' || r == '!') && i+1 < len(goal) && goal[i+1] == ' ':
			return strings.TrimSpace(goal[:i]), strings.TrimSpace(goal[i+1:]), strings.TrimSpace(goal[i+1:]) != ""
		}
	}
	return "", "", false
}

// intentName is a name an intent holds: a quoted text, or a word with a digit or of parts
// joined by hyphens, dots, underscores, at signs or slashes.
var intentName = regexp.MustCompile(`"[^"]+"|[\pL\pN]*\pN[\pL\pN]*(?:[-_.@/][\pL\pN]+)*|[\pL\pN]+(?:[-_.@/][\pL\pN]+)+`)

// intentNames are the names intent holds, quotes taken off.
func intentNames(intent string) []string {
	var out []string
	for _, m := range intentName.FindAllString(intent, -1) {
		if n := strings.Trim(m, `"`); n != "" {
			out = append(out, n)
		}
	}
	return out
}
