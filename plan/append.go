package plan

// Adding to what a field holds, not replacing it: a wiki page's new last line.

// appendTo is "add the line "* 26 December" at the end of the text box", "append "Ask the
// front desk." to "Notes"", "add a new line "X" to the text area": an APPEND, its value
// after what the field holds. A line may be written unquoted ("add the line * 26
// December at the end of the text box"); any other value is quoted.
var appendTo = seq(word("add", "append", "insert"),
	alt(seq(opt(word("the", "a")), opt(word("new")), opt(word("last", "final")), word("line"), grab("v", some)),
		seq(opt(word("the", "the text", "the words")), grab("v", quoteTok), opt(word("as a new line", "as a new last line", "as the last line", "on a new line")))),
	word("at the end of", "to the end of", "at the bottom of", "to the bottom of", "to", "into", "in"), the, grab("t", all), end)

// readAppend reads adding a value after what a field holds.
func readAppend(c string, quotes []string) (Step, string, bool) {
	m := read(appendTo, c)
	if m == nil {
		return Step{}, "", false
	}
	v, unclear := exactValue(m.get("v"), quotes)
	if unclear != "" {
		return found(Step{}, unclear)
	}
	if HasSecret(v) {
		return found(Step{}, "a secret is typed into a field in place of what it holds, never added after it")
	}
	return found(exact(Step{Action: Append, Value: v, TargetDescription: cleanOperand(m.get("t"), quotes)}, m.get("t"), quotes, ""))
}
