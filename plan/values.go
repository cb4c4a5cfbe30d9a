package plan

import "strings"

// The values a step's operands hold, read without patterns: keys, durations, addresses
// and numbers.

// keyWords are the keys a goal names ("press Enter", "hit the down arrow key"); modWords
// the keys held with another ("ctrl+a").
var (
	keyWords = word("enter", "return", "tab", "escape", "esc", "backspace", "delete", "del", "space", "spacebar",
		"arrowup", "arrowdown", "arrowleft", "arrowright", "arrow up", "arrow down", "arrow left", "arrow right",
		"up", "down", "left", "right", "home", "end", "pageup", "pagedown", "page up", "page down",
		"f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12")
	modWords = word("ctrl", "control", "shift", "alt", "option", "meta", "cmd", "command")
	plus     = one(func(t tok) bool { return t.text == "+" })
	// keyName is a key or a chord: "Enter", "ctrl+a", "shift + tab".
	keyName = alt(seq(many(seq(modWords, plus)), keyWords),
		seq(modWords, plus, many(seq(modWords, plus)), one(func(t tok) bool { return len(t.low) == 1 && isWordChar(rune(t.low[0])) && t.low != "_" })))
)

// reSpace is what a pattern's \s is: ASCII white space.
const reSpace = " \t\n\f\r"

// readDuration reads "2", "1.5 seconds", "500ms": the number and the unit as written.
func readDuration(s string) (num, unit string, ok bool) {
	s = strings.Trim(s, reSpace)
	n := len(s) - len(strings.TrimLeft(s, "0123456789"))
	if n == 0 {
		return "", "", false
	}
	if n < len(s) && s[n] == '.' {
		d := len(s[n+1:]) - len(strings.TrimLeft(s[n+1:], "0123456789"))
		if d == 0 {
			return "", "", false
		}
		n += 1 + d
	}
	num, unit = s[:n], strings.TrimLeft(s[n:], reSpace)
	switch strings.ToLower(unit) {
	case "", "ms", "millisecond", "milliseconds", "s", "sec", "secs", "second", "seconds", "m", "min", "mins", "minute", "minutes":
		return num, unit, true
	}
	return "", "", false
}

func isDuration(s string) bool { _, _, ok := readDuration(s); return ok }

// isURL reports whether s is an address a goal goes to: a URL with its scheme,
// localhost, an IPv4 address or a host name (each with a port and path or not), or a path.
func isURL(s string) bool {
	if strings.ContainsAny(s, reSpace) || s == "" {
		return false
	}
	low := strings.ToLower(s)
	for _, scheme := range []string{"http://", "https://"} {
		if strings.HasPrefix(low, scheme) {
			return len(s) > len(scheme)
		}
	}
	if s[0] == '/' {
		return true
	}
	host := low
	if i := strings.IndexAny(low, ":/"); i >= 0 {
		host, low = low[:i], low[i:]
	} else {
		low = ""
	}
	if strings.HasPrefix(low, ":") {
		d := len(low[1:]) - len(strings.TrimLeft(low[1:], "0123456789"))
		if d == 0 {
			return false
		}
		low = low[1+d:]
	}
	if low != "" && low[0] != '/' {
		return false
	}
	return host == "localhost" || isIPv4(host) || isHostName(host)
}

func isIPv4(h string) bool {
	parts := strings.Split(h, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if len(p) < 1 || len(p) > 3 || !isDigits(p) {
			return false
		}
	}
	return true
}

// isHostName reports a name of two or more labels whose last is two or more letters.
func isHostName(h string) bool {
	labels := strings.Split(h, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || strings.Trim(l, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return false
		}
	}
	last := labels[len(labels)-1]
	return len(last) >= 2 && strings.Trim(last, "abcdefghijklmnopqrstuvwxyz") == ""
}

// isNumberWord reports a number as a goal writes an amount: a sign and a currency or not,
// thousands separated by commas, decimals after a point ("$47.10", "-1,200").
func isNumberWord(s string) bool {
	if strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-") {
		s = s[1:]
	}
	for _, c := range []string{"$", "€", "£", "¥"} {
		if strings.HasPrefix(s, c) {
			s = s[len(c):]
			break
		}
	}
	if s != "" && strings.ContainsRune(reSpace, rune(s[0])) {
		s = s[1:]
	}
	return isDigitsAmount(s)
}

// isDigitsAmount reports digits, in groups of three after commas or not, with decimals or
// not: "1,200.50", "47".
func isDigitsAmount(s string) bool {
	whole, frac, dot := strings.Cut(s, ".")
	if dot && (frac == "" || !isDigits(frac)) {
		return false
	}
	groups := strings.Split(whole, ",")
	if len(groups) == 1 {
		return isDigits(whole)
	}
	if len(groups[0]) < 1 || len(groups[0]) > 3 || !isDigits(groups[0]) {
		return false
	}
	for _, g := range groups[1:] {
		if len(g) != 3 || !isDigits(g) {
			return false
		}
	}
	return true
}
