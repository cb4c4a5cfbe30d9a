//go:build heldout

package e2e

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// cloudcmdGoal is one everyday goal on Cloud Commander: its phrasings (the same steps
// written three ways; Cloud Commander has no sign-in page, see testenv.Cloudcmd), its
// judge, which reads the files and folders under the instance's root ("" when exactly the
// goal's effect is there and nothing else changed), its effect made through the app's own
// requests without a browser, and a near miss of it.
type cloudcmdGoal struct {
	name      string
	phrasings [3]string
	done      func(t *testing.T, w *testenv.Cloudcmd) string
	do        func(t *testing.T, b *testenv.CloudcmdBrowser)
	miss      func(t *testing.T, b *testenv.CloudcmdBrowser)
}

// cloudcmdTodoLine is the line the edit goal adds to notes/todo.txt.
const cloudcmdTodoLine = "Renew the car insurance"

var cloudcmdGoals = []cloudcmdGoal{
	{
		name: "create a folder",
		phrasings: [3]string{
			`click "F7", type "invoices-2026" into "New directory", click "OK"`,
			`In Cloud Commander make a new folder called invoices-2026 in the top folder: hit the F7 button (New Directory) at the bottom, put invoices-2026 in the "New directory" box and press OK.`,
			`Please add a folder named "invoices-2026" next to the other invoice folders. Click F7 in the row of buttons under the panels, type invoices-2026 into the field labelled New directory, then click OK.`,
		},
		done: func(t *testing.T, w *testenv.Cloudcmd) string {
			want := w.Seed()
			want["invoices-2026/"] = ""
			return w.Differs(t, want)
		},
		do:   func(t *testing.T, b *testenv.CloudcmdBrowser) { b.MakeDir(t, "/invoices-2026") },
		miss: func(t *testing.T, b *testenv.CloudcmdBrowser) { b.MakeDir(t, "/invoices-2025/invoices-2026") },
	},
	{
		name: "create a file in a folder",
		phrasings: [3]string{
			`double-click "notes", click "F9", click "New", click "File", type "shopping-list.txt" into "New file", click "OK"`,
			`Open the notes folder by double-clicking notes in the left panel, then hit F9 (Menu), choose New and then File, enter shopping-list.txt in the New file box and press OK.`,
			`I need an empty file shopping-list.txt inside notes. Double-click "notes", press the F9 button at the bottom to open the menu, go to New > File, type shopping-list.txt into the field labelled "New file" and click OK.`,
		},
		done: func(t *testing.T, w *testenv.Cloudcmd) string {
			// Whatever it holds: the goal names the file, not its content.
			return cloudcmdWithAny(t, w, "notes/shopping-list.txt")
		},
		do:   func(t *testing.T, b *testenv.CloudcmdBrowser) { b.WriteFile(t, "/notes/shopping-list.txt", "") },
		miss: func(t *testing.T, b *testenv.CloudcmdBrowser) { b.WriteFile(t, "/shopping-list.txt", "") },
	},
	{
		name: "rename a file",
		phrasings: [3]string{
			`click "draft-q3.txt", click "F9", click "Rename", type "report-q3.txt" into "Rename", click "OK"`,
			`Rename draft-q3.txt to report-q3.txt: click draft-q3.txt in the left panel, hit F9 for the menu, pick Rename, replace the name in the Rename box with report-q3.txt and press OK.`,
			`The Q3 draft is final now. Select "draft-q3.txt", click the F9 button and then "Rename" in the menu; type report-q3.txt into the field under Rename and click OK.`,
		},
		done: func(t *testing.T, w *testenv.Cloudcmd) string {
			want := w.Seed()
			want["report-q3.txt"] = want["draft-q3.txt"]
			delete(want, "draft-q3.txt")
			return w.Differs(t, want)
		},
		do:   func(t *testing.T, b *testenv.CloudcmdBrowser) { b.Rename(t, "/draft-q3.txt", "/report-q3.txt") },
		miss: func(t *testing.T, b *testenv.CloudcmdBrowser) { b.Rename(t, "/draft-q4.txt", "/report-q3.txt") },
	},
	{
		name: "delete a file in a folder",
		phrasings: [3]string{
			`double-click "invoices-2024", click "2024-04-acme.txt", click "F8", click "OK"`,
			`Open invoices-2024 (double-click it), click the file 2024-04-acme.txt, hit F8 (Delete) at the bottom and confirm with OK.`,
			`Please delete the April 2024 ACME invoice: double-click the folder "invoices-2024", select 2024-04-acme.txt, then click F8 in the button bar and press OK when it asks whether you really want to delete it.`,
		},
		done: func(t *testing.T, w *testenv.Cloudcmd) string {
			want := w.Seed()
			delete(want, "invoices-2024/2024-04-acme.txt")
			return w.Differs(t, want)
		},
		do:   func(t *testing.T, b *testenv.CloudcmdBrowser) { b.Delete(t, "/invoices-2024/2024-04-acme.txt") },
		miss: func(t *testing.T, b *testenv.CloudcmdBrowser) { b.Delete(t, "/invoices-2024/2024-04-globex.txt") },
	},
	{
		name: "move a file into a folder",
		phrasings: [3]string{
			`double-click "archive" in the right panel, click "report-q1.txt" in the left panel, click "F6", click "OK"`,
			`Move report-q1.txt into archive. In the right panel double-click archive to open it, then in the left panel click report-q1.txt, hit F6 (Move) and press OK in the dialog.`,
			`report-q1.txt belongs in the archive folder now. Open "archive" in the right-hand panel with a double-click, select report-q1.txt in the left-hand panel, click the F6 button, then click OK in the Rename/Move dialog.`,
		},
		done: func(t *testing.T, w *testenv.Cloudcmd) string {
			want := w.Seed()
			want["archive/report-q1.txt"] = want["report-q1.txt"]
			delete(want, "report-q1.txt")
			return w.Differs(t, want)
		},
		do:   func(t *testing.T, b *testenv.CloudcmdBrowser) { b.Move(t, "/", "/archive/", "report-q1.txt") },
		miss: func(t *testing.T, b *testenv.CloudcmdBrowser) { b.Copy(t, "/", "/archive/", "report-q1.txt") },
	},
	{
		name: "copy a file into a folder",
		phrasings: [3]string{
			`double-click "invoices-2025" in the right panel, click "budget-2025.csv" in the left panel, click "F5", click "OK"`,
			`Put a copy of budget-2025.csv into invoices-2025, keeping the original where it is: double-click invoices-2025 in the right panel, click budget-2025.csv in the left one, hit F5 (Copy) and press OK.`,
			`In the right-hand panel open the "invoices-2025" folder by double-clicking it. Then click budget-2025.csv in the left-hand panel, press the F5 button at the bottom and click OK in the Copy dialog.`,
		},
		done: func(t *testing.T, w *testenv.Cloudcmd) string {
			want := w.Seed()
			want["invoices-2025/budget-2025.csv"] = want["budget-2025.csv"]
			return w.Differs(t, want)
		},
		do:   func(t *testing.T, b *testenv.CloudcmdBrowser) { b.Copy(t, "/", "/invoices-2025/", "budget-2025.csv") },
		miss: func(t *testing.T, b *testenv.CloudcmdBrowser) { b.Move(t, "/", "/invoices-2025/", "budget-2025.csv") },
	},
	{
		name: "edit a text file",
		phrasings: [3]string{
			`double-click "notes", click "todo.txt", click "F4", press "Control+End", type "Renew the car insurance", press "Control+S"`,
			`Add Renew the car insurance as a new last line of the to-do list in notes: double-click notes, click todo.txt, hit F4 to open it in the editor, press Ctrl+End to jump to the empty line at the end, type "Renew the car insurance" and save with Ctrl+S.`,
			`Open the notes folder (double-click "notes"), select todo.txt and click F4 (Edit). In the editor press Ctrl+End, type Renew the car insurance on the empty last line, then press Ctrl+S to save the file.`,
		},
		done: func(t *testing.T, w *testenv.Cloudcmd) string {
			return cloudcmdAddedLine(t, w, "notes/todo.txt", cloudcmdTodoLine)
		},
		do: func(t *testing.T, b *testenv.CloudcmdBrowser) {
			b.WriteFile(t, "/notes/todo.txt", b.ReadFile(t, "/notes/todo.txt")+cloudcmdTodoLine)
		},
		miss: func(t *testing.T, b *testenv.CloudcmdBrowser) {
			b.WriteFile(t, "/notes/todo-old.txt", b.ReadFile(t, "/notes/todo-old.txt")+cloudcmdTodoLine)
		},
	},
}

// cloudcmdWithAny judges a goal that makes the file path with any content: the root must
// be the seed and that file.
func cloudcmdWithAny(t *testing.T, w *testenv.Cloudcmd, path string) string {
	s := w.State(t)
	want := w.Seed()
	content, ok := s[path]
	if !ok {
		content = ""
	}
	want[path] = content
	if why := s.Diff(want); why != "" {
		return why
	}
	if !ok {
		return fmt.Sprintf("the file %q is missing", path)
	}
	return ""
}

// cloudcmdAddedLine judges a goal that adds line to the text file path: its lines (blank
// ones left out) must be the seed's, in their order, and line once, and nothing else under
// the root may have changed.
func cloudcmdAddedLine(t *testing.T, w *testenv.Cloudcmd, path, line string) string {
	s := w.State(t)
	want := w.Seed()
	seedLines := testenv.CloudcmdLines(want[path])
	got, ok := s[path]
	if !ok {
		return fmt.Sprintf("the file %q is missing", path)
	}
	lines := testenv.CloudcmdLines(got)
	i := slices.Index(lines, line)
	if i < 0 || slices.Contains(lines[i+1:], line) || !slices.Equal(slices.Delete(slices.Clone(lines), i, i+1), seedLines) {
		return fmt.Sprintf("the file %q holds the lines %q, not %q and the line %q", path, lines, seedLines, line)
	}
	want[path] = got
	return s.Diff(want)
}

// cloudcmdNames are the seed's paths, sorted: what a fresh instance's root must hold.
func cloudcmdNames() []string { return slices.Sorted(maps.Keys(testenv.CloudcmdSeed)) }

// cloudcmdLeaf is the last name of a seed path ("notes/todo.txt" → "todo.txt").
func cloudcmdLeaf(path string) string {
	path = strings.TrimSuffix(path, "/")
	return path[strings.LastIndex(path, "/")+1:]
}
