package driver_test

import "testing"

// TestMechanicsOfTheFifteenthPool: from the fifteenth pool (read after its blind run): a
// two-panel file manager whose menu a script draws and listens to as a whole (items of
// class menu-item in a list of class menu, with no role and no handler of their own: the
// observation listed none of them, so "click Rename" found nothing), a side of the page
// said as a panel ("in the right panel", "the left-hand panel": read as part of the
// name), and a bar of buttons along the bottom said as "the button bar" (read as a button
// named "in bar"). The same file is in both panels: a click on it says which panel.
func TestMechanicsOfTheFifteenthPool(t *testing.T) {
	runUnseen(t, newPool(t), []unseenCase{
		{"a file renamed from a script's menu", "unseen-files.html", "files", []string{
			`click "draft-q3.txt" in the left panel, click "F9", click "Rename", type "report-q3.txt" into "Rename", click "OK"`,
			`Click draft-q3.txt in the left panel, hit F9, pick Rename, type report-q3.txt into the Rename box and press OK.`,
			`select "draft-q3.txt" in the left-hand panel, press the F9 button, choose "Rename" and enter report-q3.txt in the field labelled Rename, then click OK`,
		}, `{"renamed":"draft-q3.txt to report-q3.txt"}`},
		{"a folder opened in the right panel", "unseen-files.html", "files", []string{
			`double-click "invoices-2025" in the right panel`,
			`double-click invoices-2025 in the right panel`,
			`Double-click invoices-2025 in the right-hand panel.`,
		}, `{"opened":"right:invoices-2025"}`},
		{"a file deleted with the button bar's button", "unseen-files.html", "files", []string{
			`click "report-q1.txt" in the right panel, click "F8" in the button bar, click "OK" in the confirmation`,
			`click report-q1.txt in the left panel, then hit F8 in the button bar and confirm with OK`,
			`Select report-q1.txt in the left panel, click F8 in the row of buttons and press OK in the confirmation box.`,
		}, `{"deleted":"report-q1.txt"}`},
	})
}
