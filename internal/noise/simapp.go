package noise

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"slices"
	"strings"
	"sync"

	"github.com/webagent-dev/webagent/activities/page"
	"github.com/webagent-dev/webagent/demoapp"
)

// simApp is the demo app's projects page as a state machine: the projects (the server's
// state), the tab, the row menu, the dialogs, the toast. Its observations mirror the
// element lists the browser reads off the real page: the same roles, names, rows and
// containers (a row's menu covers the next row's menu button, a dialog covers the page).
type simApp struct {
	mu       sync.Mutex
	projects []demoapp.Project
	url      string
	archived bool   // the Archived tab is selected
	menuFor  string // the project whose row menu is open
	dialog   string // "", "new" or "rename"
	renameOf string
	form     struct {
		name, priority string
		private        bool
	}
	newName string
	toast   string
	errText string
	// effects counts each accepted state-changing request by endpoint and body.
	effects map[string]int
	order   []string
}

func newSimApp(url string, seed []demoapp.Project) *simApp {
	return &simApp{projects: slices.Clone(seed), url: url, effects: map[string]int{}}
}

func (a *simApp) State() demoapp.State {
	a.mu.Lock()
	defer a.mu.Unlock()
	return demoapp.State{Projects: slices.Clone(a.projects)}
}

// Effects are the accepted state-changing requests, each with how often it came.
func (a *simApp) Effects() map[string]int {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := map[string]int{}
	for k, v := range a.effects {
		out[k] = v
	}
	return out
}

const (
	rowY   = 262
	rowGap = 45
)

func (a *simApp) shown() []demoapp.Project {
	var out []demoapp.Project
	for _, p := range a.projects {
		if p.Archived == a.archived {
			out = append(out, p)
		}
	}
	return out
}

func rowText(p demoapp.Project) string {
	vis := "Team"
	if p.Private {
		vis = "Private"
	}
	return fmt.Sprintf("%s %s %s", p.Name, p.Priority, vis)
}

// screen is the page as the computer-use tool sees it now.
func (a *simApp) screen() Screen {
	a.mu.Lock()
	defer a.mu.Unlock()
	return Screen{Obs: a.observe(), W: screenW, H: screenH}
}

// observe is the page's element list, as the browser reads it.
func (a *simApp) observe() page.Observation {
	yes, no := true, false
	var els []page.Element
	add := func(e page.Element) {
		e.Index = len(els)
		els = append(els, e)
	}
	switch a.dialog {
	case "new":
		row := "New project Project name Priority Low Medium High …"
		c := "dialog New project"
		add(page.Element{Tag: "input", Type: "text", Role: "textbox", Name: "Project name", Label: "Project name", Placeholder: "e.g. Website relaunch", Value: a.form.name, Container: c, Row: row, Box: page.Box{X: 454, Y: 199, W: 372, H: 37}})
		add(page.Element{Tag: "select", Role: "combobox", Name: "Priority", Label: "Priority", Value: a.form.priority, Options: slices.Clone(demoapp.Priorities), Container: c, Row: row, Box: page.Box{X: 454, Y: 269, W: 372, H: 36}})
		chk := a.form.private
		add(page.Element{Tag: "input", Type: "checkbox", Role: "checkbox", Name: "Private", Label: "Private", Checked: &chk, Container: c, Row: row, Box: page.Box{X: 454, Y: 315, W: 16, H: 16}})
		add(page.Element{Tag: "button", Role: "button", Name: "Cancel", Text: "Cancel", Container: c, Row: row, Box: page.Box{X: 650, Y: 355, W: 81, H: 37}})
		add(page.Element{Tag: "button", Role: "button", Name: "Create", Text: "Create", Container: c, Row: row, Box: page.Box{X: 746, Y: 355, W: 80, H: 37}})
	case "rename":
		row := "Rename project New name Cancel Save"
		c := "dialog Rename project"
		add(page.Element{Tag: "input", Type: "text", Role: "textbox", Name: "New name", Label: "New name", Value: a.newName, Container: c, Row: row, Box: page.Box{X: 454, Y: 199, W: 372, H: 37}})
		add(page.Element{Tag: "button", Role: "button", Name: "Cancel", Text: "Cancel", Container: c, Row: row, Box: page.Box{X: 670, Y: 254, W: 81, H: 37}})
		add(page.Element{Tag: "button", Role: "button", Name: "Save", Text: "Save", Container: c, Row: row, Box: page.Box{X: 766, Y: 254, W: 70, H: 37}})
		add(page.Element{Tag: "div", Role: "clickable", Hints: "backdrop backdrop", Box: page.Box{X: 0, Y: 0, W: 1280, H: 800}})
	default:
		add(page.Element{Tag: "a", Role: "link", Name: "Projects", Text: "Projects", Container: "nav", Box: page.Box{X: 120, Y: 20, W: 60, H: 20}})
		add(page.Element{Tag: "button", Role: "button", Name: "Import", Text: "Import", Box: page.Box{X: 880, Y: 92, W: 80, H: 37}})
		add(page.Element{Tag: "button", Role: "button", Name: "New project", Text: "New project", Box: page.Box{X: 976, Y: 92, W: 120, H: 37}})
		add(page.Element{Tag: "button", Role: "tab", Name: "Active", Text: "Active", Selected: map[bool]*bool{true: &yes, false: &no}[!a.archived], Box: page.Box{X: 175, Y: 167, W: 90, H: 37}})
		add(page.Element{Tag: "button", Role: "tab", Name: "Archived", Text: "Archived", Selected: map[bool]*bool{true: &yes, false: &no}[a.archived], Box: page.Box{X: 269, Y: 167, W: 94, H: 37}})
		menuRow := -1
		for i, p := range a.shown() {
			if p.Archived {
				continue // an archived row has no menu button
			}
			if menuRow >= 0 && i == menuRow+1 {
				continue // covered by the open menu
			}
			if p.Name == a.menuFor {
				menuRow = i
			}
			add(page.Element{Tag: "button", Role: "button", Name: demoapp.DefaultActionsLabel, Text: "⋯", Hints: "kebab", Row: rowText(p) + " ⋯", Box: page.Box{X: 972, Y: rowY + i*rowGap, W: 34, H: 29}})
		}
		if menuRow >= 0 {
			y := rowY + menuRow*rowGap + 39
			add(page.Element{Tag: "li", Role: "menuitem", Name: "Rename", Text: "Rename", Value: "0", Container: "menu", Box: page.Box{X: 867, Y: y, W: 138, H: 35}})
			add(page.Element{Tag: "li", Role: "menuitem", Name: "Archive", Text: "Archive", Value: "0", Container: "menu", Box: page.Box{X: 867, Y: y + 35, W: 138, H: 35}})
		}
	}
	obs := page.Observation{URL: a.url, Title: "Projects · Tracker", Elements: els, Total: len(els)}
	b, _ := json.Marshal(els)
	sum := sha256.Sum256(append(b, a.text()...))
	obs.Fingerprint = hex.EncodeToString(sum[:8])
	return obs
}

// text is the page's visible text.
func (a *simApp) text() string {
	var b strings.Builder
	b.WriteString("◆ Tracker Projects\nProjects Import New project\nActive Archived\nName Priority Visibility\n")
	shown := a.shown()
	for _, p := range shown {
		b.WriteString(rowText(p) + "\n")
	}
	if len(shown) == 0 {
		b.WriteString("No projects here yet.\n")
	}
	if a.menuFor != "" {
		b.WriteString("Rename Archive\n")
	}
	switch a.dialog {
	case "new":
		b.WriteString("New project Project name Priority Private Cancel Create\n")
		if a.errText != "" {
			b.WriteString(a.errText + "\n")
		}
	case "rename":
		b.WriteString("Rename project New name Cancel Save\n")
	}
	if a.toast != "" {
		b.WriteString(a.toast + "\n")
	}
	return b.String()
}

// effect applies an accepted state-changing request.
func (a *simApp) effect(endpoint string, body any) {
	b, _ := json.Marshal(body)
	k := endpoint + " " + string(b)
	a.effects[k]++
	a.order = append(a.order, k)
}

func (a *simApp) find(name string) int {
	return slices.IndexFunc(a.projects, func(p demoapp.Project) bool { return p.Name == name })
}

// click clicks e, an element of the page as it is.
func (a *simApp) click(e page.Element) {
	wasMenu := a.menuFor
	if e.Container != "menu" {
		a.menuFor = "" // a click elsewhere closes the menu
	}
	switch {
	case e.Role == "link":
		a.archived, a.dialog, a.toast = false, "", ""
	case e.Name == "Import":
		a.toast = "Nothing to import"
	case e.Name == "New project":
		a.dialog, a.errText = "new", ""
		a.form.name, a.form.priority, a.form.private = "", "Medium", false
	case e.Role == "tab":
		a.archived = e.Name == "Archived"
	case e.Name == demoapp.DefaultActionsLabel:
		name := strings.TrimSuffix(e.Row, " ⋯")
		for _, p := range a.projects {
			if rowText(p) == name && wasMenu != p.Name {
				a.menuFor = p.Name
			}
		}
	case e.Role == "menuitem" && e.Name == "Archive":
		name := a.menuFor
		a.menuFor = ""
		if i := a.find(name); i >= 0 {
			a.projects[i].Archived = true
			a.effect("POST /api/projects/archive", map[string]string{"name": name})
		}
		a.toast = "Project archived"
	case e.Role == "menuitem" && e.Name == "Rename":
		a.renameOf, a.newName, a.dialog = a.menuFor, a.menuFor, "rename"
		a.menuFor = ""
	case e.Name == "Cancel" || e.Role == "clickable":
		a.dialog = ""
	case e.Name == "Create":
		name := strings.TrimSpace(a.form.name)
		if name == "" {
			a.errText = "the project name is empty"
			return
		}
		p := demoapp.Project{Name: name, Priority: a.form.priority, Private: a.form.private}
		a.projects = append(a.projects, p)
		a.effect("POST /api/projects", map[string]any{"name": a.form.name, "priority": p.Priority, "private": p.Private})
		a.dialog, a.archived, a.toast = "", false, "Project created"
	case e.Name == "Save":
		newName := strings.TrimSpace(a.newName)
		if i := a.find(a.renameOf); i >= 0 && newName != "" {
			a.projects[i].Name = newName
			a.effect("POST /api/projects/rename", map[string]string{"name": a.renameOf, "newName": a.newName})
		}
		a.dialog, a.toast = "", "Project renamed"
	case e.Name == "Private":
		a.form.private = !a.form.private
	}
}

// typeInto types value into e; false when e takes no text.
func (a *simApp) typeInto(e page.Element, value string) bool {
	switch {
	case e.Name == "Project name" && a.dialog == "new":
		a.form.name = value
	case e.Name == "New name" && a.dialog == "rename":
		a.newName = value
	default:
		return false
	}
	return true
}

// selectIn selects option in e; false when e is no select or has no such option.
func (a *simApp) selectIn(e page.Element, option string) bool {
	if e.Name != "Priority" || a.dialog != "new" || !slices.Contains(demoapp.Priorities, option) {
		return false
	}
	a.form.priority = option
	return true
}

// press presses a key: Escape closes the dialogs and the menu.
func (a *simApp) press(key string) {
	if key == "Escape" {
		a.dialog, a.menuFor = "", ""
	}
}

// screenW and screenH are the simulated browser's viewport, the size of its screenshots.
const screenW, screenH = 1280, 800

// blank is the screenshot every observation stores: a blank page of the browser's size.
var blank = func() []byte {
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewGray(image.Rect(0, 0, screenW, screenH)))
	return b.Bytes()
}()
