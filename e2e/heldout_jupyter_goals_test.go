//go:build heldout

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// jupyterGoal is an everyday goal on Jupyter Notebook's pages, written three ways as a
// person writes it from what the pages show ({signin} is the phrasing's way of signing in);
// done reads the instance's folder and sessions and says "" when the goal's effect is there
// and nothing else the pages change did, else what it found; do makes the effect through
// the server's REST API as the pages do along the goal's path, and miss a near miss the
// judge must not take for it (another file, a neighbouring name or value).
type jupyterGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, j *testenv.Jupyter) string
	do, miss  func(t testing.TB, b *testenv.JupyterBrowser)
}

const (
	jupyterNewFolder = "reports"
	jupyterRenamed   = "forecast.ipynb"
	jupyterNewCell   = "total = rent + food + travel"
	jupyterNewLine   = "Renew the domain name"
)

var jupyterGoals = []jupyterGoal{
	{
		name: "create a folder",
		phrasings: [3]string{
			`{signin}, click "New", click "Folder", check the box next to "Untitled Folder", click "Rename", type "reports" into "Enter a new directory name", click "Rename"`,
			`{signin}, then New > Folder, tick Untitled Folder, hit Rename, name it reports and press Rename`,
			`{signin} I need a new folder called "reports" next to the notebooks. Open the New menu and choose Folder; it shows up in the list as "Untitled Folder". Tick the checkbox in front of it, click the Rename button, replace the name in the box labelled "Enter a new directory name:" with reports and click Rename.`,
		},
		done: func(t testing.TB, j *testenv.Jupyter) string {
			return jupyterExactly(t, j, func(s testenv.JupyterState) { s.Entries[jupyterNewFolder] = testenv.JupyterEntry{Kind: "folder"} })
		},
		do:   func(t testing.TB, b *testenv.JupyterBrowser) { b.Rename(t, b.NewFolder(t, ""), jupyterNewFolder) },
		miss: func(t testing.TB, b *testenv.JupyterBrowser) { b.Rename(t, b.NewFolder(t, ""), "report") },
	},
	{
		name: "rename a notebook",
		phrasings: [3]string{
			`{signin}, check the box next to "Untitled.ipynb", click "Rename", type "forecast.ipynb" into "Enter a new notebook name", click "Rename"`,
			`{signin}; select Untitled.ipynb in the file list, press Rename and rename it to forecast.ipynb`,
			`{signin} In the Files tab, tick the checkbox in front of the notebook "Untitled.ipynb" and click the Rename button that appears above the list. Change the name to forecast.ipynb and then click Rename to confirm.`,
		},
		done: func(t testing.TB, j *testenv.Jupyter) string {
			return jupyterExactly(t, j, func(s testenv.JupyterState) {
				s.Entries[jupyterRenamed] = s.Entries["Untitled.ipynb"]
				delete(s.Entries, "Untitled.ipynb")
			})
		},
		do:   func(t testing.TB, b *testenv.JupyterBrowser) { b.Rename(t, "Untitled.ipynb", jupyterRenamed) },
		miss: func(t testing.TB, b *testenv.JupyterBrowser) { b.Rename(t, "Untitled1.ipynb", jupyterRenamed) },
	},
	{
		name: "delete a text file",
		phrasings: [3]string{
			`{signin}, check the box next to "old-notes.txt", click "Delete selected", click "Delete"`,
			`{signin}, then tick old-notes.txt, hit the red trash can button and confirm with Delete`,
			`{signin} The file old-notes.txt is out of date, so please get rid of it. Select it with the checkbox in the Files list, click the red Delete button with the trash can icon, and confirm by clicking "Delete" in the dialog that asks if you are sure.`,
		},
		done: func(t testing.TB, j *testenv.Jupyter) string {
			return jupyterExactly(t, j, func(s testenv.JupyterState) { delete(s.Entries, "old-notes.txt") })
		},
		do:   func(t testing.TB, b *testenv.JupyterBrowser) { b.Delete(t, "old-notes.txt") },
		miss: func(t testing.TB, b *testenv.JupyterBrowser) { b.Delete(t, "shopping.txt") },
	},
	{
		name: "add a cell to a notebook",
		phrasings: [3]string{
			`{signin}, click "budget.ipynb", click "Insert", click "Insert Cell Below", type "total = rent + food + travel" into the new cell, click "File", click "Save and Checkpoint"`,
			`{signin}, open budget.ipynb, add a new code cell containing total = rent + food + travel and save the notebook`,
			`{signin} Open the notebook called budget.ipynb. I'd like one more code cell in it with the line "total = rent + food + travel" (you don't need to run it). When it's in, save the notebook with File > Save and Checkpoint.`,
		},
		done: func(t testing.TB, j *testenv.Jupyter) string {
			return jupyterCellAdded(t, j, "budget.ipynb", jupyterNewCell)
		},
		do:   func(t testing.TB, b *testenv.JupyterBrowser) { jupyterAddCell(t, b, jupyterNewCell) },
		miss: func(t testing.TB, b *testenv.JupyterBrowser) { jupyterAddCell(t, b, "total = rent + food") },
	},
	{
		name: "make a cell Markdown",
		phrasings: [3]string{
			`{signin}, click "report.ipynb", click the cell that starts with "## Findings", select "Markdown" in the cell type box of the toolbar, click "File", click "Save and Checkpoint"`,
			`{signin}, open report.ipynb, turn the "## Findings" cell into Markdown and save`,
			`{signin} Open report.ipynb. The cell that begins with "## Findings" is meant to be text, not code: click on it, change the dropdown in the toolbar from Code to Markdown, then save the notebook (File, then Save and Checkpoint).`,
		},
		done: func(t testing.TB, j *testenv.Jupyter) string {
			return jupyterExactly(t, j, func(s testenv.JupyterState) { s.Entries["report.ipynb"].Cells[2].Type = "markdown" })
		},
		do:   func(t testing.TB, b *testenv.JupyterBrowser) { jupyterRetype(t, b, 2) },
		miss: func(t testing.TB, b *testenv.JupyterBrowser) { jupyterRetype(t, b, 1) },
	},
	{
		name: "add a line to a text file",
		phrasings: [3]string{
			`{signin}, click "todo.txt", click at the end of the last line, press Enter, type "Renew the domain name", click "File", click "Save"`,
			`{signin}, open todo.txt, add Renew the domain name as a new last line, then File > Save`,
			`{signin} Please open the text file "todo.txt" from the list of files. Below its last line ("Send the Q3 report to Maria") add a new line that says Renew the domain name, and then save the file with Save in the File menu.`,
		},
		done: func(t testing.TB, j *testenv.Jupyter) string {
			return jupyterLineAdded(t, j, "todo.txt", jupyterNewLine)
		},
		do:   func(t testing.TB, b *testenv.JupyterBrowser) { jupyterAddLine(t, b, "todo.txt") },
		miss: func(t testing.TB, b *testenv.JupyterBrowser) { jupyterAddLine(t, b, "shopping.txt") },
	},
	{
		name: "shut down a running notebook",
		phrasings: [3]string{
			`{signin}, click "Running", click "Shutdown" next to "scratch.ipynb"`,
			`{signin}, go to the Running tab and shut down scratch.ipynb`,
			`{signin} Then switch to the Running tab. Under Notebooks you will see scratch.ipynb; press its Shutdown button so that its kernel stops. Leave analysis.ipynb running.`,
		},
		done: func(t testing.TB, j *testenv.Jupyter) string { return jupyterStopped(t, j, "scratch.ipynb") },
		do:   func(t testing.TB, b *testenv.JupyterBrowser) { b.Shutdown(t, "scratch.ipynb") },
		miss: func(t testing.TB, b *testenv.JupyterBrowser) { b.Shutdown(t, "analysis.ipynb") },
	},
}

// jupyterExactly says whether the folder holds the seed changed by change and nothing else,
// and the seed's notebooks still run.
func jupyterExactly(t testing.TB, j *testenv.Jupyter, change func(testenv.JupyterState)) string {
	want := j.Seed()
	change(want)
	return j.Differs(t, want)
}

// jupyterCellAdded says whether the notebook path holds its seed's cells and one more code
// cell whose source is source (white space around it aside) anywhere among them, and
// nothing else changed.
func jupyterCellAdded(t testing.TB, j *testenv.Jupyter, path, source string) string {
	got, seed := j.State(t), j.Seed()
	cells, want := got.Entries[path].Cells, seed.Entries[path].Cells
	if len(cells) != len(want)+1 {
		return fmt.Sprintf("%s has %d cells, not %d: %q", path, len(cells), len(want)+1, cells)
	}
	at := slices.IndexFunc(cells, func(c testenv.JupyterCell) bool {
		return c.Type == "code" && strings.TrimSpace(c.Source) == source
	})
	if at < 0 {
		return fmt.Sprintf("%s has no code cell %q: %q", path, source, cells)
	}
	if rest := slices.Delete(slices.Clone(cells), at, at+1); !slices.Equal(rest, want) {
		return fmt.Sprintf("%s's other cells are %q, not %q", path, rest, want)
	}
	got.Entries[path] = seed.Entries[path]
	return jupyterJoin(got.Diff(seed), got.Stopped(seed.Running))
}

// jupyterLineAdded says whether the text file path holds its seed's lines and line after
// them (white space at the lines' ends and empty lines aside: the editor shows the empty
// line after the file's last newline, where Enter makes one more), and nothing else changed.
func jupyterLineAdded(t testing.TB, j *testenv.Jupyter, path, line string) string {
	got, seed := j.State(t), j.Seed()
	want := append(jupyterTextLines(seed.Entries[path].Text), line)
	if have := jupyterTextLines(got.Entries[path].Text); got.Entries[path].Kind != "file" || !slices.Equal(have, want) {
		return fmt.Sprintf("%s is %s, not the lines %q", path, got.Entries[path], want)
	}
	got.Entries[path] = seed.Entries[path]
	return jupyterJoin(got.Diff(seed), got.Stopped(seed.Running))
}

// jupyterTextLines is a text's lines with white space at their ends dropped, and its empty
// lines.
func jupyterTextLines(text string) []string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimRight(l, " \t\r"); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// jupyterStopped says whether path no longer runs while the seed's other running notebooks
// do, and the folder is as seeded.
func jupyterStopped(t testing.TB, j *testenv.Jupyter, path string) string {
	got, seed := j.State(t), j.Seed()
	if got.Down != "" {
		return "the server's sessions could not be read: " + got.Down
	}
	if slices.Contains(got.Running, path) {
		return path + " is still running"
	}
	others := slices.DeleteFunc(slices.Clone(seed.Running), func(p string) bool { return p == path })
	return jupyterJoin(got.Diff(seed), got.Stopped(others))
}

// jupyterJoin joins the reasons that are not "".
func jupyterJoin(whys ...string) string {
	return strings.Join(slices.DeleteFunc(whys, func(s string) bool { return s == "" }), "; ")
}

// jupyterAddCell opens budget.ipynb, adds a code cell of source below its last and saves.
func jupyterAddCell(t testing.TB, b *testenv.JupyterBrowser, source string) {
	t.Helper()
	b.EditNotebook(t, "budget.ipynb", func(cells []any) []any {
		return append(cells, testenv.JupyterNewCell("code", source, "added-cell"))
	})
}

// jupyterRetype opens report.ipynb, makes its cell at index Markdown and saves.
func jupyterRetype(t testing.TB, b *testenv.JupyterBrowser, index int) {
	t.Helper()
	b.EditNotebook(t, "report.ipynb", func(cells []any) []any {
		testenv.JupyterRetype(cells[index], "markdown")
		return cells
	})
}

// jupyterAddLine opens a text file in the text editor, adds the goal's line at its end and
// saves it.
func jupyterAddLine(t testing.TB, b *testenv.JupyterBrowser, path string) {
	t.Helper()
	b.EditText(t, path, func(text string) string { return text + jupyterNewLine + "\n" })
}
