package plan

import (
	"fmt"
	"regexp"
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
	reMoveValue = regexp.MustCompile(`^(?:(up|down|left|right)(?: by (\d+) positions?)?|to position (\d+)|to the (last) position|(taller|shorter|wider|narrower)|in (increasing|decreasing) order)$`)
	// reDragBy is "drag X right", "drag X up by one position", "drag X to the 3rd
	// position": moves, not drops.
	reDragBy = regexp.MustCompile(`(?i)^drag\s+(.+?)\s+(?:(up|down|left|right)(?:wards?)?(?:\s+by\s+(one|two|three|four|five|\d+)\s+(?:positions?|places?|spots?|rows?))?|to\s+(?:the\s+)?(first|second|third|fourth|fifth|last|\d+(?:st|nd|rd|th))\s+(?:position|place|spot|row)|to\s+the\s+(top|bottom)(?:\s+of\s+(?:the|its)\s+list)?)$`)
)

// ParseMove reads a DRAG's value as a move; ok is false when it names a place to drop on.
func ParseMove(v string) (Move, bool) {
	m := reMoveValue.FindStringSubmatch(strings.TrimSpace(v))
	if m == nil {
		return Move{}, false
	}
	if m[6] != "" {
		return Move{Sort: m[6]}, true
	}
	if m[5] != "" {
		return Move{Size: m[5]}, true
	}
	if m[4] != "" {
		return Move{To: -1}, true
	}
	if m[3] != "" {
		n, _ := strconv.Atoi(m[3])
		return Move{To: n}, n > 0
	}
	n, _ := strconv.Atoi(m[2])
	if (m[2] != "" && n < 1) || (n > 0 && (m[1] == "left" || m[1] == "right")) {
		return Move{}, false
	}
	return Move{Dir: m[1], Places: n}, true
}

// readDragBy reads a drag that moves its element in a direction or along its list.
func readDragBy(c string, quotes []string) (Step, string, bool) {
	m := reDragBy.FindStringSubmatch(c)
	if m == nil {
		return Step{}, "", false
	}
	var mv Move
	switch {
	case m[5] != "":
		mv.To = map[string]int{"top": 1, "bottom": -1}[strings.ToLower(m[5])]
	case m[4] != "":
		n := ReadOrdinal(m[4]) // "last" is -1: the last place
		if n == 0 {
			return found(Step{}, fmt.Sprintf("%q is not a place the planner can count to: say the 1st, 2nd, ... position", m[4]))
		}
		mv.To = n
	default:
		mv.Dir = strings.ToLower(m[2])
		if m[3] != "" {
			mv.Places = countOf(m[3])
			if mv.Dir == "left" || mv.Dir == "right" {
				return found(Step{}, "a list's places go up or down: say drag X up by one position")
			}
		}
	}
	return found(exact(Step{Action: Drag, TargetDescription: cleanOperand(m[1], quotes), Value: mv.String()}, m[1], quotes, ""))
}

// reResize is making an element bigger or smaller by its grip: "resize the textarea so
// that the height is larger than its initial size", "make "Notes" taller".
var reResize = regexp.MustCompile(`(?i)^(?:resize\s+(.+?)\s+so\s+(?:that\s+)?(?:the|its)\s+(height|width)\s+is\s+(larger|bigger|greater|more|smaller|less|lower)\s+than\s+(?:its|the)\s+(?:initial|original|current|starting)\s+(?:size|height|width|one)|(?:resize|make)\s+(.+?)\s+(?:to\s+be\s+)?(taller|shorter|wider|narrower))$`)

// readResize reads a resize as a DRAG of the element's grip, its value the way it grows.
func readResize(c string, quotes []string) (Step, string, bool) {
	m := reResize.FindStringSubmatch(c)
	if m == nil {
		return Step{}, "", false
	}
	target, size := m[4], strings.ToLower(m[5])
	if m[1] != "" {
		larger := strings.Contains("larger bigger greater more", strings.ToLower(m[3]))
		target, size = m[1], map[string][2]string{"height": {"shorter", "taller"}, "width": {"narrower", "wider"}}[strings.ToLower(m[2])][map[bool]int{false: 0, true: 1}[larger]]
	}
	return found(exact(Step{Action: Drag, TargetDescription: cleanOperand(target, quotes), Value: Move{Size: size}.String()}, target, quotes, ""))
}
