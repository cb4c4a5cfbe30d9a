package driver

import (
	"strings"
	"sync"

	"github.com/webagent-dev/webagent/activities/page"
)

// fresh is what the last step that acted brought onto the page, on the address it left
// the page at: the controls of the section it opened, of the form it showed, and the
// controls it enabled. A tie between
// two controls alike ("Virtual host", the page's filter, and "Virtual host" in the form
// "Add a new queue" just opened) is the one the person went on to work in: the resolver
// reads Element.Fresh (page.noChoice). A step that goes to another page leaves nothing
// fresh, since everything on it is new.
type fresh struct {
	mu    sync.Mutex
	url   string
	boxes map[string][]page.Box
	// was is the page before the last step that acted, on the address it stayed at: what
	// a later look shows beyond it (a menu the step opened, drawn only after the look
	// that followed the step) is that step's too.
	was map[string][]page.Box
}

// freshKey is what makes two elements of two observations alike, wherever they are drawn.
func freshKey(e page.Element) string {
	return strings.Join([]string{e.Tag, e.Role, e.Type, strings.ToLower(strings.TrimSpace(e.Name)), e.Container}, "\x00")
}

// boxesOf is where each kind of element is drawn in obs.
func boxesOf(obs page.Observation) map[string][]page.Box {
	m := map[string][]page.Box{}
	for _, e := range obs.Elements {
		m[freshKey(e)] = append(m[freshKey(e)], e.Box)
	}
	return m
}

// added is, per kind of element, the ones of now that are more than was, found by being
// where none of was were. Where the page moved those of was too (a section opened above
// them), which are new cannot be told, and none of that kind is taken.
func added(was map[string][]page.Box, now page.Observation) map[string][]page.Box {
	got := map[string][]page.Box{}
	for k, boxes := range boxesOf(now) {
		more := len(boxes) - len(was[k])
		if more <= 0 {
			continue
		}
		var moved []page.Box
		for _, b := range boxes {
			if !boxIn(b, was[k]) {
				moved = append(moved, b)
			}
		}
		if len(moved) == more {
			got[k] = moved
		}
	}
	return got
}

// record keeps what the step's action brought (see added), and the page before it. A
// step that showed nothing new keeps the last record.
func (f *fresh) record(before, after page.Observation) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if before.URL != after.URL {
		f.url, f.boxes, f.was = "", nil, nil
		return
	}
	was := boxesOf(before)
	got := added(was, after)
	// A control the step made usable (a list's "Go", enabled once an action is chosen) is
	// the one the person goes on to press, as much as one the step showed.
	disabled := map[string][]page.Box{}
	for _, e := range before.Elements {
		if e.Disabled {
			disabled[freshKey(e)] = append(disabled[freshKey(e)], e.Box)
		}
	}
	for _, e := range after.Elements {
		if k := freshKey(e); !e.Disabled && boxIn(e.Box, disabled[k]) && !boxIn(e.Box, got[k]) {
			got[k] = append(got[k], e.Box)
		}
	}
	f.was = was
	if len(got) > 0 || f.url != after.URL {
		f.url, f.boxes = after.URL, got
	}
}

// mark sets Element.Fresh on what the last record kept, and on what the page shows now
// beyond what it showed before the last step that acted, on the same address.
func (f *fresh) mark(obs *page.Observation) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.url == "" || obs.URL != f.url {
		return
	}
	late := added(f.was, *obs)
	for i, e := range obs.Elements {
		k := freshKey(e)
		if boxIn(e.Box, f.boxes[k]) || boxIn(e.Box, late[k]) {
			obs.Elements[i].Fresh = true
		}
	}
}

// boxIn reports whether b is one of boxes, to a pixel or two.
func boxIn(b page.Box, boxes []page.Box) bool {
	for _, o := range boxes {
		if abs(b.X-o.X) <= 2 && abs(b.Y-o.Y) <= 2 && abs(b.W-o.W) <= 2 && abs(b.H-o.H) <= 2 {
			return true
		}
	}
	return false
}

// near is where the last step acted: the section and the box of its element, on the page
// it stayed on. A tie between controls of two forms alike ("Write regexp" under "Set
// permission" and under "Set topic permission") is the one in the form being filled in.
type near struct {
	mu                      sync.Mutex
	url, section, container string
}

// record keeps where the step's element was, when the step acted on one and the page
// stayed; else it forgets.
func (n *near) record(out *Outcome) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.url = ""
	if out.Target == nil || out.After.URL != out.Before.URL || (out.Target.Section == "" && out.Target.Container == "") {
		return
	}
	n.url, n.section, n.container = out.After.URL, out.Target.Section, out.Target.Container
}

// mark sets Element.Near on what sits where the last step acted.
func (n *near) mark(obs *page.Observation) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.url == "" || obs.URL != n.url {
		return
	}
	for i, e := range obs.Elements {
		obs.Elements[i].Near = e.Section == n.section && e.Container == n.container
	}
}
