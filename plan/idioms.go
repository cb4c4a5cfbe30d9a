package plan

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// An idiom is a way people phrase a step that is not one of the planner's plain sentences
// but says exactly what they mean: "delete the email Neille sent me" is a click on the
// delete icon in the email from "Neille". Each idiom writes its sentence as the plain
// sentences it means, which the planner then reads as any other, every part held exact;
// an idiom never guesses (what it cannot write exactly it refuses, saying why). A new
// phrasing is a new row of idioms, with a sentence it reads and what that is written as,
// which the tests check row by row.
type idiom struct {
	name string
	// example is a sentence the idiom reads; means is what it writes it as.
	example, means string
	re             *regexp.Regexp
	// write gives the plain sentences for a match, by group name, or a reason to refuse.
	write func(g map[string]string) (sentences, reason string)
}

const (
	// personName is a sender's or a recipient's name as a goal writes it unquoted: one
	// or two words, or a handle, or quoted.
	personName = `(?:"[^"]+"|@?[\pL][\pL\pN'_-]*(?:\.[\pL\pN_-]+)*(?:\s+[\pL][\pL'-]*)?)`
	oneName    = `(?:"[^"]+"|@?[\pL][\pL\pN'_-]*(?:\.[\pL\pN_-]+)*)`
	// idiomTail is what may follow the idiom in the same goal: the next steps.
	idiomTail = `(?P<tail>(?:[.,;!]|\s+and\b|\s+then\b).*)?$`
)

// idiomRe compiles an idiom's pattern, which matches at the start of a goal and keeps what
// follows for the planner to read.
func idiomRe(p string) *regexp.Regexp {
	return regexp.MustCompile(`(?is)^\s*(?:please\s+)?(?:first,?\s+)?` + p + idiomTail)
}

// openItem, reply and forward are the steps people mean by reading, replying to and
// forwarding an item of a list (an email, a message): open it, use its control, write,
// send. Each is exact: the item is the one from that sender (two from them is refused by
// the resolver, not guessed), the field and the send control are found by name or icon.
func openItem(g map[string]string) string {
	return fmt.Sprintf("click the %s from %s", singular(g["item"]), quoteName(g["who"]))
}

func replyTo(g map[string]string) (string, string) {
	return fmt.Sprintf(`%s, click "Reply", type %s into the text area, click the send icon`, openItem(g), g["text"]), ""
}

func forwardTo(g map[string]string) (string, string) {
	return fmt.Sprintf(`%s, click "Forward", type %s into the "to" field, click the send icon`, openItem(g), quoteName(g["to"])), ""
}

var idioms = []idiom{
	signInIdiom,
	signInPasswordOnly,
	signInFields,
	{
		// "Buy HLW stock": the page's one "Buy" control, once the thing bought is seen to be
		// on the page (a page that shows another symbol is not the one meant).
		name:    "buying something when a number on the page meets a bound",
		example: "Buy HLW stock when the price is less than $47.10.",
		means:   `verify "HLW", then click "Buy" when the price is less than $47.10.`,
		re: idiomRe(`buy\s+(?P<what>"[^"]+"|[\pL\pN][\pL\pN.&'-]*)(?:\s+(?:stocks?|shares?))?\s+(?P<when>(?:when|once|as\s+soon\s+as)\s+` +
			`(?:the\s+)?[\pL][\pL ]{0,30}?\s+(?:is|goes|drops|falls|rises)\s+` + compareWords + `\s+` + numberPat + `)`),
		write: func(g map[string]string) (string, string) {
			return fmt.Sprintf(`verify %s, then click "Buy" %s`, quoteName(g["what"]), g["when"]), ""
		},
	},
	{
		name:    "an icon on an item found by its sender",
		example: "Find the email by Rochella and click the trash icon to delete it.",
		means:   `click the trash icon in the email from "Rochella"`,
		re:      idiomRe(`find\s+(?:the\s+)?(?P<item>` + itemNouns + `)\s+(?:by|from|of|named|called)\s+(?P<who>` + personName + `)\s+and\s+click\s+(?:on\s+)?(?:the|its)\s+(?P<icon>` + purposeWords + `)\s+(?P<kind>icon|button)(?:\s+to\s+[^,;.]+)?`),
		write: func(g map[string]string) (string, string) {
			return fmt.Sprintf("click the %s %s in the %s from %s", strings.ToLower(g["icon"]), strings.ToLower(g["kind"]), singular(g["item"]), quoteName(g["who"])), ""
		},
	},
	{
		name:    "deleting an item named by its sender",
		example: "Delete the email Neille sent me.",
		means:   `click the delete icon in the email from "Neille"`,
		re:      idiomRe(`(?:delete|remove|trash|bin)\s+(?:the\s+)?(?P<item>` + itemNouns + `)\s+(?:(?:from|by|of)\s+(?P<who>` + personName + `)|(?P<who2>` + oneName + `)\s+(?:sent|wrote)(?:\s+(?:me|you|us))?)`),
		write: func(g map[string]string) (string, string) {
			return fmt.Sprintf("click the delete icon in the %s from %s", singular(g["item"]), quoteName(g["who"]+g["who2"])), ""
		},
	},
	{
		name:    "replying to an item found by its sender",
		example: `Find the email by Rochella and reply to them with the text "In.".`,
		means:   `click the email from "Rochella", click "Reply", type "In." into the text area, click the send icon`,
		re:      idiomRe(`find\s+(?:the\s+)?(?P<item>` + itemNouns + `)\s+(?:by|from)\s+(?P<who>` + personName + `)\s+and\s+reply\s+(?:to\s+(?:them|him|her|it|that\s+\w+)\s+)?with\s+(?:the\s+)?(?:text|message|words?|reply)?\s*(?P<text>"[^"]*")`),
		write:   replyTo,
	},
	{
		name:    "forwarding an item found by its sender",
		example: "Find the email by Rochella and forward that email to Brooke.",
		means:   `click the email from "Rochella", click "Forward", type "Brooke" into the "to" field, click the send icon`,
		re:      idiomRe(`find\s+(?:the\s+)?(?P<item>` + itemNouns + `)\s+(?:by|from)\s+(?P<who>` + personName + `)\s+and\s+(?:forward|send)\s+(?:it|them|that\s+\w+)(?:\s+on)?\s+to\s+(?P<to>` + oneName + `)`),
		write:   forwardTo,
	},
	{
		name:    "forwarding an item, the recipient first",
		example: "Send to Neille the email you got from Helena.",
		means:   `click the email from "Helena", click "Forward", type "Neille" into the "to" field, click the send icon`,
		re:      idiomRe(`(?:send|forward)\s+to\s+(?P<to>` + oneName + `)\s+the\s+(?P<item>` + itemNouns + `)\s+(?:you|i|we)\s+(?:got|received)\s+from\s+(?P<who>` + personName + `)`),
		write:   forwardTo,
	},
	{
		name:    "forwarding an item, the sender first",
		example: "Forward the email from Helena to Neille.",
		means:   `click the email from "Helena", click "Forward", type "Neille" into the "to" field, click the send icon`,
		re:      idiomRe(`forward\s+the\s+(?P<item>` + itemNouns + `)\s+(?:from|by)\s+(?P<who>` + oneName + `)\s+to\s+(?P<to>` + oneName + `)`),
		write:   forwardTo,
	},
	{
		name:    "a control on some of the posts by one author",
		example: `Click the "Like" button on 2 posts by @lacus and then click Submit.`,
		means:   `click the 1st "Like" icon for "@lacus", then click the 2nd "Like" icon for "@lacus" and then click Submit.`,
		re:      idiomRe(`click\s+(?:on\s+)?the\s+"(?P<label>[^"]+)"\s+(?:button|icon|link)\s+on\s+(?P<n>\d+|one|two|three|four|five|all|every|each)\s+(?:the\s+)?(?P<item>` + itemNouns + `)\s+(?:by|from)\s+(?P<who>` + oneName + `)`),
		write:   onSomeItems,
	},
	{
		name:    "a control named with whose item it is in",
		example: `For the user @nisi, click on the "Reply" button.`,
		means:   `click on the "Reply" button for "@nisi"`,
		re:      idiomRe(`for\s+(?:the\s+)?(?:user|person|author|sender|contact)\s+(?P<who>` + oneName + `)\s*,?\s+(?P<verb>click|tap|press)\s+(?P<target>(?:on\s+)?(?:the\s+)?"[^"]+"(?:\s+(?:button|icon|link))?)`),
		write: func(g map[string]string) (string, string) {
			return fmt.Sprintf("%s %s for %s", strings.ToLower(g["verb"]), g["target"], quoteName(g["who"])), ""
		},
	},
	{
		name:    "a value in a person's card, found in a list",
		example: "Find Clementine in the contact book and click on their phone number.",
		means:   `click the value of "phone number" for "Clementine"`,
		re:      idiomRe(`find\s+(?P<who>` + personName + `)\s+in\s+(?:the|your|my|our)\s+(?:[\pL-]+\s+){0,2}?(?:book|list|directory|contacts|table|roster)\s+and\s+(?:click|tap)\s+(?:on\s+)?(?:their|his|her|its)\s+(?P<prop>"[^"]+"|[\pL][\pL -]{0,30}?)`),
		// The words the goal names the value by ("phone number") are matched against the
		// labels the page shows when the step runs ("Phone:"), not translated here: only
		// the page knows what it calls the value. Paging to the card is the step's too.
		write: func(g map[string]string) (string, string) {
			return fmt.Sprintf("click the value of %s for %s", quoteName(strings.ToLower(g["prop"])), quoteName(g["who"])), ""
		},
	},
	{
		name:    "a field used to enter a text",
		example: `Use the textbox to enter "Jerald" and press "Search".`,
		means:   `type "Jerald" into the textbox and press "Search".`,
		re:      idiomRe(`use\s+the\s+(?P<field>[a-z][a-z ]{0,30}?)\s+to\s+(?:enter|type|input|write)\s+(?P<text>"[^"]*")`),
		write: func(g map[string]string) (string, string) {
			return fmt.Sprintf("type %s into the %s", g["text"], g["field"]), ""
		},
	},
	{
		name:    "each slider of the page to a value",
		example: "Set the sliders to the combination [5,11,10] and submit.",
		means:   "drag the 1st of 3 slider to 5, drag the 2nd of 3 slider to 11, drag the 3rd of 3 slider to 10 and submit.",
		re:      idiomRe(`set\s+the\s+sliders\s+to\s+(?:the\s+)?(?:combination|values?|numbers?)?\s*\[(?P<values>\s*-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?)+\s*)\]`),
		write:   eachSlider,
	},
	{
		name:    "a kind of control, any one",
		example: `Click on a "textarea" widget.`,
		means:   "click the first text area",
		re:      idiomRe(`click\s+(?:on\s+)?(?:a|an|any)\s+"(?P<kind>[a-z ]+)"\s+(?:widget|element|control)`),
		write: func(g map[string]string) (string, string) {
			kind, ok := widgetKinds[strings.ToLower(g["kind"])]
			if !ok {
				return "", fmt.Sprintf("%q is not a kind of control the planner knows (button, checkbox, radio, text, textarea, link, dropdown)", g["kind"])
			}
			return "click the first " + kind, ""
		},
	},
	{
		name:    "a text typed in upper or lower case",
		example: `Type "bernardine" in all upper case letters in the text input and press Submit.`,
		means:   `type "BERNARDINE" into the text input and press Submit.`,
		re:      idiomRe(`(?:type|enter|write|input)\s+"(?P<text>[^"]*)"\s+in\s+(?:all\s+)?(?P<case>upper|lower)[\s-]?case(?:\s+letters)?\s+(?:in|into)\s+(?P<field>[^,;.]+?)`),
		write: func(g map[string]string) (string, string) {
			text := strings.ToLower(g["text"])
			if strings.EqualFold(g["case"], "upper") {
				text = strings.ToUpper(g["text"])
			}
			return fmt.Sprintf("type %s into %s", strconv.Quote(text), g["field"]), ""
		},
	},
	{
		// Any item so made is what was asked: the first of them is one. What was typed
		// calls the suggestions up, and the item is chosen from what the page offers.
		name:    "an item chosen by how it starts and ends",
		example: `Enter an item that starts with "Egy" and ends with "gypt".`,
		means:   `type "Egy" into the text field, click the first item that starts with "Egy" and ends with "gypt"`,
		re:      idiomRe(`(?:enter|type|input|pick|choose|select)\s+an?\s+(?:item|entry|option|value|suggestion|word|name)\s+(?:that\s+|which\s+)?(?:starts|begins)\s+with\s+"(?P<start>[^"]+)"(?:\s*,?\s*and\s+ends\s+with\s+"(?P<end>[^"]+)")?(?:\s+(?:in|into)\s+(?P<field>[^,;.]+?))?`),
		write: func(g map[string]string) (string, string) {
			field, item := g["field"], fmt.Sprintf("the first item that starts with %q", g["start"])
			if field == "" {
				field = "the text field"
			}
			if g["end"] != "" {
				item += fmt.Sprintf(" and ends with %q", g["end"])
			}
			return fmt.Sprintf("type %q into %s, click %s", g["start"], field, item), ""
		},
	},
	{
		// A style is given as a person gives it: the words selected, then the editor's
		// button for the style, named by its purpose (a toolbar's buttons are icons).
		name:    "a style given to words in a text editor",
		example: "Using the text editor, give the text Neque the style bold and press Submit.",
		means:   `select the text "Neque" in the text editor, click the bold button and press Submit.`,
		re:      idiomRe(`(?:using\s+the\s+(?P<editor>(?:rich[\s-]?)?(?:text\s+)?editor)\s*,?\s+)?(?:give|make)\s+(?:the\s+(?:text|words?)\s+(?P<words>"[^"]+"|[^\s"]+)|(?P<all>everything|all\s+(?:of\s+)?the\s+text))\s+the\s+style\s+(?P<style>bold|italics?|underlined?|underline|strikethrough)`),
		write:   styleWords,
	},
	{
		name:    "revealing what holds the target, to find it",
		example: `Switch between the tabs to find and click on the link "Amet".`,
		means:   `click on the link "Amet"`,
		re:      regexp.MustCompile(`(?is)^\s*(?:switch\s+between\s+the\s+tabs|expand\s+the\s+sections?(?:\s+below)?|open\s+the\s+(?:tabs|sections)(?:\s+below)?),?\s+(?:and\s+)?to\s+find\s+and\s+(?P<click>click(?:\s+on)?\s+.+)$`),
		write:   func(g map[string]string) (string, string) { return g["click"], "" },
	},
	{
		name:    "each field of a form filled from the page's table",
		example: "Enter the value that corresponds with each label into the form and submit when done.",
		means:   "fill each labelled field with its value from the table and submit when done.",
		re:      idiomRe(`(?:enter|type|fill\s+in|put|write|copy)\s+the\s+values?\s+(?:that\s+)?(?:corresponds?|goes|belongs?|matches)\s+(?:with|to)\s+each\s+label\s+(?:into|in|to)\s+the\s+form`),
		write: func(map[string]string) (string, string) {
			return "fill each labelled field with its value from the table", ""
		},
	},
	{
		name:    "a value read off the page, typed into a field",
		example: "Enter the value of Gender into the text field and press Submit.",
		means:   `extract the value of "Gender" as copied, paste it into the text field and press Submit.`,
		re:      regexp.MustCompile(`(?is)^\s*(?:enter|type|put|write)\s+the\s+value\s+(?:of|for)\s+(?P<label>[\pL\pN][\pL\pN' -]{0,40}?)\s+(?:into|in)\s+(?P<field>the\s+[a-z ]+?)(?P<tail>(?:,|\s+and|\s+then).*)?$`),
		write: func(g map[string]string) (string, string) {
			return fmt.Sprintf("extract the value of %q as copied, paste it into %s", g["label"], g["field"]), ""
		},
	},
	{
		name:    "a word read off the page, typed into a field",
		example: "Find the 4th word in the paragraph, type that into the textbox and press Submit.",
		means:   "extract the 4th word in the paragraph as copied, paste it into the textbox and press Submit.",
		re:      regexp.MustCompile(`(?is)^\s*find\s+the\s+(?P<word>(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|last)\s+word\s+in\s+the\s+(?:paragraph|text\s*area|text))\s*,\s*(?:type|enter|write)\s+(?:that|it)\s+into\s+(?P<field>the\s+[a-z ]+?)(?P<tail>(?:,|\s+and|\s+then).*)?$`),
		write: func(g map[string]string) (string, string) {
			return fmt.Sprintf("extract the %s as copied, paste it into %s", g["word"], g["field"]), ""
		},
	},
}

// styleWords writes giving words a style in a text editor: select them (or all of its
// text), then click the editor's button for the style. An unquoted word is all that stands
// between "the text" and "the style", its punctuation too ("Neque," is what was written).
func styleWords(g map[string]string) (string, string) {
	editor := "the " + g["editor"]
	if g["editor"] == "" {
		editor = "the text editor"
	}
	style := map[string]string{"italics": "italic", "underlined": "underline"}[strings.ToLower(g["style"])]
	if style == "" {
		style = strings.ToLower(g["style"])
	}
	sel := "highlight the text in " + editor
	if g["all"] == "" {
		sel = fmt.Sprintf("select the text %s in %s", quoteName(g["words"]), editor)
	}
	return fmt.Sprintf("%s, click the %s button", sel, style), ""
}

// widgetKinds are the kinds a goal may name a control by ("a "text" widget"), and how the
// planner says them.
var widgetKinds = map[string]string{
	"button": "button", "checkbox": "checkbox", "check box": "checkbox", "radio": "radio button",
	"radio button": "radio button", "text": "text input", "text input": "text input", "input": "text input",
	"textbox": "text input", "textarea": "text area", "text area": "text area", "link": "link",
	"dropdown": "dropdown", "select": "dropdown",
}

// onSomeItems writes "click "Like" on 3 posts by @x" as a click on each of the first three
// of that author's "Like" controls: any three are what was asked, and the first three are
// three of them.
func onSomeItems(g map[string]string) (string, string) {
	switch strings.ToLower(g["n"]) {
	case "all", "every", "each":
		// As many as the page shows: every one of them, checked on the page.
		return fmt.Sprintf("click every %s icon for %s", strconv.Quote(g["label"]), quoteName(g["who"])), ""
	}
	n := countOf(g["n"])
	if n < 1 || n > 10 {
		return "", fmt.Sprintf("%q is not a count of items the planner takes one by one (1 to 10)", g["n"])
	}
	clicks := make([]string, n)
	for i := range clicks {
		clicks[i] = fmt.Sprintf("click the %s %s icon for %s", Ordinal(i+1), strconv.Quote(g["label"]), quoteName(g["who"]))
	}
	return strings.Join(clicks, ", then "), ""
}

// eachSlider writes "set the sliders to [5,11,10]" as a drag of each: the 1st of 3 to 5,
// and so on, so that a page with another number of sliders is refused.
func eachSlider(g map[string]string) (string, string) {
	vs := strings.Split(g["values"], ",")
	steps := make([]string, len(vs))
	for i, v := range vs {
		steps[i] = fmt.Sprintf("drag the %s of %d slider to %s", Ordinal(i+1), len(vs), strings.TrimSpace(v))
	}
	return strings.Join(steps, ", "), ""
}

// quoteName quotes a name the goal left unquoted, once.
func quoteName(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`) && len(s) > 1 {
		return s
	}
	return strconv.Quote(s)
}

// singular is the item noun for one item: "emails" is "email".
func singular(noun string) string {
	noun = strings.ToLower(noun)
	if strings.HasSuffix(noun, "s") && noun != "s" {
		return strings.TrimSuffix(noun, "s")
	}
	return noun
}

// reAuthorUnquoted is an item named by its author or sender, the name left unquoted: "on
// the post by @lacus", "in the email from Helena". The name is quoted, so that the target
// is read as inside that item.
var reAuthorUnquoted = regexp.MustCompile(`(?i)\b((?:on|in|inside|within)\s+the\s+(?:` + itemNouns + `)\s+(?:by|from))\s+(@[\pL\pN._-]*[\pL\pN]|[\p{Lu}][\pL'-]+)`)

// rewriteIdioms writes the idiom a goal starts with as its plain sentences, keeping the
// rest of the goal; a goal that starts with none is returned as it is. reason is set when
// a goal starts with an idiom that cannot be written exactly.
func rewriteIdioms(goal string) (string, *ParseError) {
	goal = reAuthorUnquoted.ReplaceAllString(goal, `$1 "$2"`)
	for _, id := range idioms {
		m := id.re.FindStringSubmatch(goal)
		if m == nil {
			continue
		}
		g := map[string]string{}
		for i, name := range id.re.SubexpNames() {
			if name != "" {
				g[name] = m[i]
			}
		}
		s, reason := id.write(g)
		if reason != "" {
			return goal, &ParseError{Index: 1, Sentence: strings.TrimSpace(strings.TrimSuffix(goal, g["tail"])), Reason: reason}
		}
		return s + g["tail"], nil
	}
	return goal, nil
}
