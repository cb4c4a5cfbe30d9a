package testenv

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Etherpad's changesets and attributed texts, as far as the pages' edits need them: a
// changeset "Z:<old length><sign><difference><ops>$<inserted characters>", each op
// "*<attribute>…|<lines><opcode><characters>" with its numbers in base 36 and its lengths
// in UTF-16 code units; an op over a newline covers whole lines and ends with one.

// epLen is s's length as JavaScript counts it.
func epLen(s string) int { return len(utf16.Encode([]rune(s))) }

// epNum is n in base 36.
func epNum(n int) string { return strconv.FormatInt(int64(n), 36) }

// epOps writes the op ('=' keep, '-' delete, '+' insert) over s with attribs ("*0*1") in
// canonical form: the part up to s's last newline as one op of lines, the rest as another.
func epOps(b *strings.Builder, op byte, attribs, s string) {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		head := s[:i+1]
		fmt.Fprintf(b, "%s|%s%c%s", attribs, epNum(strings.Count(head, "\n")), op, epNum(epLen(head)))
		s = s[i+1:]
	}
	if s != "" {
		fmt.Fprintf(b, "%s%c%s", attribs, op, epNum(epLen(s)))
	}
}

// epPack is a changeset from a text of oldLen to one of newLen by ops, inserting bank.
func epPack(oldLen, newLen int, ops, bank string) string {
	sign, diff := ">", newLen-oldLen
	if diff < 0 {
		sign, diff = "<", -diff
	}
	return "Z:" + epNum(oldLen) + sign + epNum(diff) + ops + "$" + bank
}

// epSplice is the changeset that turns the text old into new (both ending with the pad's
// final newline, which it keeps), the inserted characters carrying attribs: what typing,
// deleting or replacing a run of text sends.
func epSplice(old, new, attribs string) string {
	o, n := []rune(old), []rune(new)
	p := 0
	for p < len(o)-1 && p < len(n)-1 && o[p] == n[p] {
		p++
	}
	s := 0
	for s < len(o)-p && s < len(n)-p && o[len(o)-1-s] == n[len(n)-1-s] {
		s++
	}
	ins := string(n[p : len(n)-s])
	var b strings.Builder
	epOps(&b, '=', "", string(o[:p]))
	epOps(&b, '-', "", string(o[p:len(o)-s]))
	epOps(&b, '+', attribs, ins)
	return epPack(epLen(old), epLen(new), b.String(), ins)
}

// epApplyAll is the changeset that puts attribs on every character of text but its
// newlines, which it keeps as they are: what "Clear Authorship Colors" sends for the whole
// pad (with the empty author), line by line.
func epApplyAll(text, attribs string) string {
	var b strings.Builder
	kept := 0 // newlines kept as they are, not yet written
	for _, line := range strings.SplitAfter(strings.TrimSuffix(text, "\n"), "\n") {
		if content := strings.TrimSuffix(line, "\n"); content != "" {
			if kept > 0 {
				fmt.Fprintf(&b, "|%s=%s", epNum(kept), epNum(kept))
				kept = 0
			}
			fmt.Fprintf(&b, "%s=%s", attribs, epNum(epLen(content)))
		}
		if strings.HasSuffix(line, "\n") {
			kept++
		}
	}
	return epPack(epLen(text), epLen(text), b.String(), "")
}

// epLineMarker is the changeset that inserts a line marker with attribs at the start of
// the line'th line (from 0) of text: how a line becomes a list item.
func epLineMarker(text string, line int, attribs string) string {
	at := 0
	for i := 0; i < line; i++ {
		at += strings.IndexByte(text[at:], '\n') + 1
	}
	var b strings.Builder
	epOps(&b, '=', "", text[:at])
	epOps(&b, '+', attribs, "*")
	return epPack(epLen(text), epLen(text)+1, b.String(), "*")
}

// epOpRE is one op of an attribution.
var epOpRE = regexp.MustCompile(`((?:\*[0-9a-z]+)*)(?:\|[0-9a-z]+)?([-+=])([0-9a-z]+)`)

// epCharAttribs is each UTF-16 unit's attribute numbers under an attributed text's
// attribution ("*0*1+5|1+3…"), as lists of pool numbers.
func epCharAttribs(attribs string, units int) [][]string {
	out := make([][]string, 0, units)
	for _, m := range epOpRE.FindAllStringSubmatch(attribs, -1) {
		n, err := strconv.ParseInt(m[3], 36, 64)
		if err != nil || m[2] != "+" {
			continue
		}
		nums := strings.Split(strings.TrimPrefix(m[1], "*"), "*")
		if m[1] == "" {
			nums = nil
		}
		for i := int64(0); i < n; i++ {
			out = append(out, nums)
		}
	}
	for len(out) < units {
		out = append(out, nil)
	}
	return out
}
