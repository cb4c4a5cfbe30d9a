package plan

import "strings"

// An intent followed by the control that does it, in brackets: "cancel the job named
// Quarterly report (the Cancel Job button in its row)", "edit davina (the pencil icon in
// her row)". The brackets name the exact control and say its row is the item's: the step
// is a click on it there. The intent's verb says why, and is one people use for what a
// row's control does.

// rowControlAside is the bracket: the control, its kind, and "in its row".
var rowControlAside = seq(word("the"), grab("c", some), grab("k", word("button", "icon", "link")), word("in", "on"),
	word("its", "her", "his", "their", "that"), word("row", "line"), end)

// rowIntent is the intent at the end of the clause before the bracket: its verb, what
// kind of item it names (said or not), and the item's name.
var rowIntent = seq(word("cancel", "edit", "delete", "remove", "open", "stop", "start", "pause", "resume", "disable", "enable",
	"rename", "view", "change", "modify", "restart", "release", "hold", "approve", "reject", "archive", "restore"),
	opt(seq(word("the"), lowerWord)), opt(word("named", "called")), grab("x", some), end)

// rowControl rewrites the clause that ends masked (before its bracket, aside) as a click on
// the control the bracket names, in the item's row; ok is false when they are not so.
func rowControl(masked, aside string) (string, bool) {
	a := read(rowControlAside, aside)
	if a == nil {
		return "", false
	}
	ts := tokenize(masked)
	for k := len(ts) - 1; k >= 0 && k >= len(ts)-8; k-- {
		if ts[k].kind != tWord {
			continue
		}
		m, e := matchAt(ts, masked, rowIntent, k)
		if m == nil || e != len(ts) {
			continue
		}
		x := strings.TrimSpace(m.get("x"))
		if xs := tokenize(x); (len(xs) != 1 || xs[0].kind != tQuote) && (len(strings.Fields(x)) > 4 || strings.ContainsAny(x, ",;:\x01")) {
			continue // a name is one quote, or up to four words as the page writes them
		}
		return masked[:ts[k].start] + "click the " + a.get("c") + " " + a.get("k") + " in the row of " + x, true
	}
	return "", false
}
