package plan

import "strings"

// The grammar the planner reads sentences with: small rules over tokens (see tokenize)
// that the readers put together, each sentence shape a sequence of them. A rule matches
// from a token and hands where it stopped to what comes after it, trying each way it can
// match until what follows accepts one; so an operand captured "as few tokens as will do"
// ends at the first word that lets the rest of the sentence be read, as a person reads it.

// A rule matches tokens from i and calls k with the index after them; it returns whether
// k accepted one of the ways it matched.
type rule func(m *match, i int, k func(int) bool) bool

// A match is a sentence being read and the operands captured so far.
type match struct {
	ts   []tok
	src  string
	caps map[string][2]int
	// anywhere is a search through a sentence (findWord), where a word need not follow
	// white space; in a sentence's shape every word and operand but the first does.
	anywhere bool
	// origin is where a search tries the rule (search): its first word may follow
	// anything, as after a pattern's word boundary.
	origin int
}

// spaced reports whether the token at i may start a word or an operand: the first of the
// sentence, or one after white space.
func (m *match) spaced(i int) bool {
	return i == 0 || i == m.origin || m.anywhere || (i < len(m.ts) && m.ts[i].space)
}

// search finds the leftmost place in ts where r matches: the match, and its first token
// and the token after it; nil when r matches nowhere.
func search(ts []tok, src string, r rule) (*match, int, int) {
	for i := range ts {
		if m, end := matchAt(ts, src, r, i); m != nil {
			return m, i, end
		}
	}
	return nil, -1, -1
}

// matchAt matches r at token i of ts, as a search does: the match and the token after it,
// or nil.
func matchAt(ts []tok, src string, r rule, i int) (*match, int) {
	m := &match{ts: ts, src: src, caps: map[string][2]int{}, origin: i}
	end := -1
	if r(m, i, func(j int) bool { end = j; return true }) {
		return m, end
	}
	return nil, -1
}

// optLazy matches nothing if what follows lets it, and its rules otherwise.
func optLazy(rs ...rule) rule {
	r := seq(rs...)
	return func(m *match, i int, k func(int) bool) bool { return k(i) || r(m, i, k) }
}

// read reads all of s with r; nil when r does not read it whole.
func read(r rule, s string) *match {
	m := &match{ts: tokenize(s), src: s, caps: map[string][2]int{}}
	if r(m, 0, func(i int) bool { return i == len(m.ts) }) {
		return m
	}
	return nil
}

// readStart reads the start of s with r, whatever follows.
func readStart(r rule, s string) *match { return read(seq(r, anyTokens), s) }

// get is the text of a captured operand as written, or "".
func (m *match) get(name string) string {
	c, ok := m.caps[name]
	if !ok || c[0] >= c[1] {
		return ""
	}
	return m.src[m.ts[c[0]].start:m.ts[c[1]-1].end]
}

// has reports whether the operand was captured.
func (m *match) has(name string) bool { return m.get(name) != "" }

// low is a captured operand in lower case, its words single-spaced.
func (m *match) low(name string) string {
	return strings.Join(strings.Fields(strings.ToLower(m.get(name))), " ")
}

// word matches any of the phrases, each one or more words ("make sure", "double-click").
func word(phrases ...string) rule {
	seqs := make([][]string, len(phrases))
	for i, p := range phrases {
		for _, t := range tokenize(p) {
			seqs[i] = append(seqs[i], t.low)
		}
	}
	return func(m *match, i int, k func(int) bool) bool {
		if !m.spaced(i) {
			return false
		}
		for _, words := range seqs {
			if j, ok := m.phraseAt(i, words); ok && k(j) {
				return true
			}
		}
		return false
	}
}

func (m *match) phraseAt(i int, words []string) (int, bool) {
	if len(words) == 0 || i+len(words) > len(m.ts) {
		return 0, false
	}
	for n, w := range words {
		if m.ts[i+n].low != w {
			return 0, false
		}
	}
	return i + len(words), true
}

// seq matches its rules one after the other.
func seq(rs ...rule) rule {
	if len(rs) == 1 {
		return rs[0]
	}
	return func(m *match, i int, k func(int) bool) bool {
		return rs[0](m, i, func(j int) bool { return seq(rs[1:]...)(m, j, k) })
	}
}

// alt matches any one of its rules, the first that lets the rest be read.
func alt(rs ...rule) rule {
	return func(m *match, i int, k func(int) bool) bool {
		for _, r := range rs {
			if r(m, i, k) {
				return true
			}
		}
		return false
	}
}

// opt matches its rules if it can, and nothing otherwise.
func opt(rs ...rule) rule {
	r := seq(rs...)
	return func(m *match, i int, k func(int) bool) bool { return r(m, i, k) || k(i) }
}

// some matches one or more tokens, as few as will do; all, as many as will do.
var (
	some rule = func(m *match, i int, k func(int) bool) bool {
		for j := i + 1; j <= len(m.ts); j++ {
			if k(j) {
				return true
			}
		}
		return false
	}
	all rule = func(m *match, i int, k func(int) bool) bool {
		for j := len(m.ts); j > i; j-- {
			if k(j) {
				return true
			}
		}
		return false
	}
	// anyTokens matches whatever is left, or nothing.
	anyTokens rule = func(m *match, i int, k func(int) bool) bool {
		for j := len(m.ts); j >= i; j-- {
			if k(j) {
				return true
			}
		}
		return false
	}
	// end matches the end of the sentence.
	end rule = func(m *match, i int, k func(int) bool) bool { return i == len(m.ts) && k(i) }
)

// one matches a single token that ok accepts.
func one(ok func(tok) bool) rule {
	return func(m *match, i int, k func(int) bool) bool {
		return i < len(m.ts) && ok(m.ts[i]) && k(i+1)
	}
}

// addressRun is a name written as an address, one word of several tokens with no space
// between them: "omar@example.org", "/wiki-old", "stats.example.org" (see addressLike).
func addressRun(m *match, i int, k func(int) bool) bool {
	if i >= len(m.ts) || m.ts[i].kind == tQuote {
		return false
	}
	j := i + 1
	for j < len(m.ts) && !m.ts[j].space && m.ts[j].kind != tQuote {
		j++
	}
	text := ""
	for _, t := range m.ts[i:j] {
		text += t.text
	}
	return addressLike(text) && k(j)
}

// hyphenRun is a name of several parts joined by hyphens, underscores or colons, with no
// space: "Lab-Inkjet", "Office-Laser-2", "web_01", "billing:invoice-sync".
func hyphenRun(m *match, i int, k func(int) bool) bool {
	if i >= len(m.ts) || (m.ts[i].kind != tWord && m.ts[i].kind != tNumber) {
		return false
	}
	j, joined := i+1, false
	for j+1 < len(m.ts) && !m.ts[j].space && (m.ts[j].text == "-" || m.ts[j].text == "_" || m.ts[j].text == ":") && !m.ts[j+1].space && (m.ts[j+1].kind == tWord || m.ts[j+1].kind == tNumber) {
		j, joined = j+2, true
	}
	return joined && k(j)
}

// quoteTok is a quoted string; number is a number.
var (
	quoteTok = one(func(t tok) bool { return t.kind == tQuote })
	number   = one(func(t tok) bool { return t.kind == tNumber })
)

// grab captures what r matches as the operand name, from the start of a word.
func grab(name string, r rule) rule {
	inner := grabJoined(name, r)
	return func(m *match, i int, k func(int) bool) bool {
		return m.spaced(i) && inner(m, i, k)
	}
}

// grabJoined is grab for a part written joined to what comes before it: "left" in
// "top-left".
func grabJoined(name string, r rule) rule {
	return func(m *match, i int, k func(int) bool) bool {
		return r(m, i, func(j int) bool {
			old, had := m.caps[name]
			m.caps[name] = [2]int{i, j}
			if k(j) {
				return true
			}
			if had {
				m.caps[name] = old
			} else {
				delete(m.caps, name)
			}
			return false
		})
	}
}

// where matches what r matches when ok accepts its text as written.
func where(r rule, ok func(string) bool) rule {
	return func(m *match, i int, k func(int) bool) bool {
		return r(m, i, func(j int) bool {
			return j > i && ok(m.src[m.ts[i].start:m.ts[j-1].end]) && k(j)
		})
	}
}

// glued matches r only when no white space comes before its first token.
func glued(r rule) rule {
	return func(m *match, i int, k func(int) bool) bool {
		return i < len(m.ts) && !m.ts[i].space && r(m, i, k)
	}
}

// findWord reports the first token of s, from the start, at which one of the phrases
// begins, and the token after it; -1 when none does.
func findWord(ts []tok, words rule) (int, int) {
	m := &match{ts: ts, caps: map[string][2]int{}, anywhere: true}
	for i := range ts {
		end := -1
		if words(m, i, func(j int) bool { end = j; return true }) {
			return i, end
		}
	}
	return -1, -1
}

// hasWord reports whether any of the phrases occurs in s as whole words.
func hasWord(s string, words rule) bool {
	i, _ := findWord(tokenize(s), words)
	return i >= 0
}

// many matches r as many times as it can, none too.
func many(r rule) rule {
	var self rule
	self = func(m *match, i int, k func(int) bool) bool {
		return r(m, i, func(j int) bool { return j > i && self(m, j, k) }) || k(i)
	}
	return self
}
