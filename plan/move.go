package plan

import (
	"fmt"
	"strconv"
	"strings"
)

// A Move is where a DRAG takes its element when it names no element to drop it on: a
// direction ("drag the card right"), or a place among the items of its own list ("drag
// Olwen up by one position", "drag "Milk" to the 3rd position").
type Move struct {
	// Dir is "up", "down", "left" or "right".
	Dir string
	// Places is how many places up or down its list (with Dir); 0 is a plain direction.
	Places int
	// To is the 1-based place in its list to move it to; -1 is the last; 0 is none.
	To int
	// Size is a resize by the element's grip instead: "taller", "shorter", "wider" or
	// "narrower" (a text area a person makes bigger by its corner).
	Size string
	// Sort is a sort of the whole list instead, by the number each item shows:
	// "increasing" (the lowest at the top) or "decreasing".
	Sort string
}

// String is the DRAG's value for the move, which ParseMove reads back.
func (m Move) String() string {
	switch {
	case m.Sort != "":
		return "in " + m.Sort + " order"
	case m.Size != "":
		return m.Size
	case m.To < 0:
		return "to the last position"
	case m.To > 0:
		return fmt.Sprintf("to position %d", m.To)
	case m.Places == 1:
		return m.Dir + " by 1 position"
	case m.Places > 1:
		return fmt.Sprintf("%s by %d positions", m.Dir, m.Places)
	}
	return m.Dir
}

var (
	// moveValue is a DRAG's value as ParseMove reads it back, in the words String writes.
	moveValue = alt(seq(grab("dir", word("up", "down", "left", "right")), opt(word("by"), grab("n", number), word("positions", "position"))),
		seq(word("to position"), grab("to", number)), seq(word("to the"), grab("last", word("last")), word("position")),
		grab("size", word("taller", "shorter", "wider", "narrower")), seq(word("in"), grab("sort", word("increasing", "decreasing")), word("order")))
	// dragBy is "drag X right", "drag X up by one position", "drag X to the 3rd
	// position": moves, not drops.
	dragBy = seq(word("drag"), grab("t", some), alt(
		seq(grab("dir", word("up", "down", "left", "right", "upward", "upwards", "downward", "downwards", "leftward", "leftwards", "rightward", "rightwards")),
			opt(word("by"), grab("n", alt(word("one", "two", "three", "four", "five"), number)), word("positions", "position", "places", "place", "spots", "spot", "rows", "row"))),
		seq(word("to"), the, grab("to", alt(word("first", "second", "third", "fourth", "fifth", "last"), one(isNumberedOrdinal))), word("position", "place", "spot", "row")),
		seq(word("to the"), grab("edge", word("top", "bottom")), opt(word("of"), word("the", "its"), word("list")))), end)
)

// ParseMove reads a DRAG's value as a move; ok is false when it names a place to drop on.
func ParseMove(v string) (Move, bool) {
	v = strings.TrimSpace(v)
	m := read(moveValue, v)
	if m == nil || v != strings.ToLower(v) || strings.Join(strings.Fields(v), " ") != v || !isDigits(m.get("n")+m.get("to")+"0") {
		return Move{}, false
	}
	switch {
	case m.has("sort"):
		return Move{Sort: m.get("sort")}, true
	case m.has("size"):
		return Move{Size: m.get("size")}, true
	case m.has("last"):
		return Move{To: -1}, true
	case m.has("to"):
		n, _ := strconv.Atoi(m.get("to"))
		return Move{To: n}, n > 0
	}
	n, _ := strconv.Atoi(m.get("n"))
	dir := m.get("dir")
	if (m.has("n") && n < 1) || (n > 0 && (dir == "left" || dir == "right")) {
		return Move{}, false
	}
	return Move{Dir: dir, Places: n}, true
}

// readDragBy reads a drag that moves its element in a direction or along its list.
func readDragBy(c string, quotes []string) (Step, string, bool) {
	m := read(dragBy, c)
	if m == nil {
		return Step{}, "", false
	}
	var mv Move
	switch {
	case m.has("edge"):
		mv.To = map[string]int{"top": 1, "bottom": -1}[m.low("edge")]
	case m.has("to"):
		n := ReadOrdinal(m.get("to")) // "last" is -1: the last place
		if n == 0 {
			return found(Step{}, fmt.Sprintf("%q is not a place the planner can count to: say the 1st, 2nd, ... position", m.get("to")))
		}
		mv.To = n
	default:
		mv.Dir = strings.TrimSuffix(strings.TrimSuffix(m.low("dir"), "s"), "ward")
		if m.has("n") {
			mv.Places = countOf(m.get("n"))
			if mv.Dir == "left" || mv.Dir == "right" {
				return found(Step{}, "a list's places go up or down: say drag X up by one position")
			}
		}
	}
	return found(exact(Step{Action: Drag, TargetDescription: cleanOperand(m.get("t"), quotes), Value: mv.String()}, m.get("t"), quotes, ""))
}

// resize is making an element bigger or smaller by its grip: "resize the textarea so
// that the height is larger than its initial size", "make "Notes" taller".
var resize = alt(
	seq(word("resize"), grab("t", some), word("so"), opt(word("that")), word("the", "its"), grab("dim", word("height", "width")), word("is"),
		grab("more", word("larger", "bigger", "greater", "more", "smaller", "less", "lower")), word("than"), word("its", "the"),
		word("initial", "original", "current", "starting"), word("size", "height", "width", "one"), end),
	seq(word("resize", "make"), grab("t", some), opt(word("to be")), grab("size", word("taller", "shorter", "wider", "narrower")), end))

// readResize reads a resize as a DRAG of the element's grip, its value the way it grows.
func readResize(c string, quotes []string) (Step, string, bool) {
	m := read(resize, c)
	if m == nil {
		return Step{}, "", false
	}
	target, size := m.get("t"), m.low("size")
	if m.has("dim") {
		larger := strings.Contains("larger bigger greater more", m.low("more"))
		size = map[string][2]string{"height": {"shorter", "taller"}, "width": {"narrower", "wider"}}[m.low("dim")][map[bool]int{false: 0, true: 1}[larger]]
	}
	return found(exact(Step{Action: Drag, TargetDescription: cleanOperand(target, quotes), Value: Move{Size: size}.String()}, target, quotes, ""))
}
