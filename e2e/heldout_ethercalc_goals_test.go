//go:build heldout

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// ethercalcGoal is one everyday goal on EtherCalc: the sheet it starts on (its page), its
// phrasings (the same steps written three ways; EtherCalc has no sign-in, see
// testenv.Ethercalc), its judge, which reads every sheet back through EtherCalc's REST API
// ("" when exactly the goal's effect is there and nothing else changed), its effect made
// through the app's own requests without a browser, and a near miss of it.
type ethercalcGoal struct {
	name      string
	sheet     string
	phrasings [3]string
	done      func(t *testing.T, w *testenv.Ethercalc) string
	do        func(t *testing.T, b *testenv.EthercalcBrowser)
	miss      func(t *testing.T, b *testenv.EthercalcBrowser)
}

// The seed's sheets the goals start on.
const (
	ethercalcBudget = "household-budget"
	ethercalcSales  = "sales-q3"
	ethercalcGuests = "party-guests"
)

var ethercalcGoals = []ethercalcGoal{
	{
		name:  "set a cell's value",
		sheet: ethercalcBudget,
		phrasings: [3]string{
			`click the cell "C5", type "55", press "Enter"`,
			`Set what we spent on Internet this month to 55: click cell C5 (Internet's Spent), type 55 and press Enter.`,
			`Our internet bill went up, we actually paid 55 this month. Could you put 55 into the Spent column for Internet? That's cell C5 in this budget sheet; type it in and hit Enter so it sticks.`,
		},
		done: func(t *testing.T, w *testenv.Ethercalc) string {
			return ethercalcWith(t, w, ethercalcBudget, map[string]string{"C5": "55"})
		},
		do:   func(t *testing.T, b *testenv.EthercalcBrowser) { b.Execute(t, ethercalcBudget, "set C5 value n 55") },
		miss: func(t *testing.T, b *testenv.EthercalcBrowser) { b.Execute(t, ethercalcBudget, "set B5 value n 55") },
	},
	{
		name:  "fix a typo in a label",
		sheet: ethercalcBudget,
		phrasings: [3]string{
			`click the cell "A4", type "Electricity", press "Enter"`,
			`Fix the typo in the category Eletricity: click cell A4, type Electricity over it and press Enter.`,
			`Someone misspelled a category in our budget, it says "Eletricity" in cell A4. Please click that cell, type Electricity (with the c after the first i) and press Enter.`,
		},
		done: func(t *testing.T, w *testenv.Ethercalc) string {
			return ethercalcWith(t, w, ethercalcBudget, map[string]string{"A4": "Electricity"})
		},
		do: func(t *testing.T, b *testenv.EthercalcBrowser) {
			b.Execute(t, ethercalcBudget, "set A4 text t Electricity")
		},
		miss: func(t *testing.T, b *testenv.EthercalcBrowser) {
			b.Execute(t, ethercalcBudget, "set A4 text t Electricty")
		},
	},
	{
		name:  "change a formula",
		sheet: ethercalcBudget,
		phrasings: [3]string{
			`click the cell "C7", type "=SUM(C2:C6)", press "Enter"`,
			`The Spent total leaves out Phone: click cell C7 and replace its formula with =SUM(C2:C6), then press Enter.`,
			`The total of the Spent column looks too low, I think the formula in C7 stops one row early and skips the phone bill. Can you click C7, type =SUM(C2:C6) as its new formula and press Enter?`,
		},
		done: func(t *testing.T, w *testenv.Ethercalc) string {
			return ethercalcWith(t, w, ethercalcBudget, map[string]string{"C7": "=SUM(C2:C6)"})
		},
		do: func(t *testing.T, b *testenv.EthercalcBrowser) {
			b.Execute(t, ethercalcBudget, "set C7 formula SUM(C2:C6)")
		},
		miss: func(t *testing.T, b *testenv.EthercalcBrowser) {
			b.Execute(t, ethercalcBudget, "set C7 formula SUM(C3:C6)")
		},
	},
	{
		name:  "clear a cell",
		sheet: ethercalcBudget,
		phrasings: [3]string{
			`click the cell "D6" in the "Note" column, press "Delete"`,
			`Clear the TBD note next to Phone: click cell D6 and press Delete (or the Delete Cell Contents button).`,
			`The phone plan is sorted now, so the note "TBD" in the Note column for Phone can go. Please select cell D6 and press the Delete key to empty it.`,
		},
		done: func(t *testing.T, w *testenv.Ethercalc) string {
			return ethercalcWith(t, w, ethercalcBudget, map[string]string{"D6": ""})
		},
		do:   func(t *testing.T, b *testenv.EthercalcBrowser) { b.Execute(t, ethercalcBudget, "set D6 empty") },
		miss: func(t *testing.T, b *testenv.EthercalcBrowser) { b.Execute(t, ethercalcBudget, "set D3 empty") },
	},
	{
		name:  "make a cell bold",
		sheet: ethercalcBudget,
		phrasings: [3]string{
			`click the cell "A7", click "Format", click the box under "Bold & Italics", click "Bold", click "Save to: A7"`,
			`Make the Total label bold: click cell A7, open the Format tab, pick Bold under Bold & Italics and press Save.`,
			`I'd like the word Total at the bottom of the budget (cell A7) to stand out in bold like the headers. Select A7, go to the Format tab, choose Bold in the Bold & Italics setting and click the Save button at the top of the cell settings.`,
		},
		done: func(t *testing.T, w *testenv.Ethercalc) string { return ethercalcBolded(t, w, ethercalcBudget, "A7") },
		do: func(t *testing.T, b *testenv.EthercalcBrowser) {
			b.Execute(t, ethercalcBudget, "set A7 font normal bold * *")
		},
		miss: func(t *testing.T, b *testenv.EthercalcBrowser) {
			b.Execute(t, ethercalcBudget, "set A6 font normal bold * *")
		},
	},
	{
		name:  "insert a row",
		sheet: ethercalcGuests,
		phrasings: [3]string{
			`click the cell "A4", click "Insert Row Before", click the cell "A4", type "Bianca", press "Enter"`,
			`Add Bianca to the guest list between Ben and Chloe: click A4 (Chloe), hit the Insert Row Before button, then type Bianca into the new empty A4 and press Enter.`,
			`Bianca just said she's coming too! Keep the list alphabetical: select cell A4 where Chloe is, click the toolbar button "Insert Row Before" to get an empty row above her, then click A4 again, type Bianca and press Enter.`,
		},
		done: func(t *testing.T, w *testenv.Ethercalc) string {
			return ethercalcInserted(t, w, ethercalcGuests, 4, "Bianca")
		},
		do: func(t *testing.T, b *testenv.EthercalcBrowser) {
			b.Execute(t, ethercalcGuests, "insertrow A4")
			b.Execute(t, ethercalcGuests, "set A4 text t Bianca")
		},
		miss: func(t *testing.T, b *testenv.EthercalcBrowser) {
			b.Execute(t, ethercalcGuests, "insertrow A5")
			b.Execute(t, ethercalcGuests, "set A5 text t Bianca")
		},
	},
	{
		name:  "delete a row",
		sheet: ethercalcGuests,
		phrasings: [3]string{
			`click the cell "A3" in the "Name" column, click "Delete Row"`,
			`Ben can't make it to the party, so take his row out of the guest list: click A3 (Ben) and hit the Delete Row button in the toolbar.`,
			`Sad news, Ben cancelled. Could you remove his whole row from the guest list? Select cell A3 where his name is and then click the toolbar button called "Delete Row", so the totals only count the people still coming.`,
		},
		done: func(t *testing.T, w *testenv.Ethercalc) string {
			want := w.Seed()
			want[ethercalcGuests] = want[ethercalcGuests].DeleteRow(3)
			return w.Differs(t, want)
		},
		do:   func(t *testing.T, b *testenv.EthercalcBrowser) { b.Execute(t, ethercalcGuests, "deleterow A3") },
		miss: func(t *testing.T, b *testenv.EthercalcBrowser) { b.Execute(t, ethercalcGuests, "deleterow A2") },
	},
	{
		name:  "sort a range",
		sheet: ethercalcSales,
		phrasings: [3]string{
			`click the cell "A2", hold "Shift" and click the cell "C7", click "Sort", click "OK", select "Column C" in "Major Sort", click "Down", click "Sort A2:C7"`,
			`Sort the reps by sales, highest first: select A2 to C7 (click A2, shift-click C7), open the Sort tab, press OK to set the cells to sort, choose Column C as the major sort, tick Down and click Sort A2:C7.`,
			`For the Q3 review I want the best sellers on top. Could you select the cells from A2 down to C7 (the six reps, not the header or the total), then in the Sort tab click OK next to the range, pick Column C under Major Sort, choose Down and press the "Sort A2:C7" button?`,
		},
		done: func(t *testing.T, w *testenv.Ethercalc) string { return ethercalcSortedBySales(t, w, true) },
		do:   func(t *testing.T, b *testenv.EthercalcBrowser) { b.Execute(t, ethercalcSales, "sort A2:C7 C down") },
		miss: func(t *testing.T, b *testenv.EthercalcBrowser) { b.Execute(t, ethercalcSales, "sort A2:C7 C up") },
	},
}

// ethercalcWith judges a goal that sets cells of sheet to contents ("" empties one): every
// sheet must be the seed but for those cells, each keeping its style.
func ethercalcWith(t *testing.T, w *testenv.Ethercalc, sheet string, cells map[string]string) string {
	want := w.Seed()
	for c, content := range cells {
		cell := want[sheet][c]
		cell.Content = content
		want[sheet][c] = cell
	}
	return w.Differs(t, want)
}

// ethercalcBolded judges a goal that makes the cell coord of sheet bold: its font must be
// bold and not italic (of any size and family), its content and every other cell the seed's.
func ethercalcBolded(t *testing.T, w *testenv.Ethercalc, sheet, coord string) string {
	s := w.State(t)
	got := s[sheet][coord]
	if !got.Bold() || strings.HasPrefix(got.Style["font"], "italic") {
		return fmt.Sprintf("the cell %s of %s is not bold: it holds %s", coord, sheet, got)
	}
	want := w.Seed()
	cell := want[sheet][coord]
	cell.Style = map[string]string{"font": got.Style["font"]}
	want[sheet][coord] = cell
	return s.Diff(want)
}

// ethercalcInserted judges a goal that inserts a row before row at of sheet and types name
// into its first cell: the rows from at down must have moved one down (the formulas
// following them), and nothing else changed.
func ethercalcInserted(t *testing.T, w *testenv.Ethercalc, sheet string, at int, name string) string {
	want := w.Seed()
	want[sheet] = want[sheet].ShiftRows(at)
	want[sheet][fmt.Sprintf("A%d", at)] = testenv.EthercalcCell{Content: name}
	return w.Differs(t, want)
}

// ethercalcSortedBySales judges the sort of the sales rows (A2:C7) by their sales, down
// (highest first) or up: each row whole, the header, the total and the other sheets as
// seeded.
func ethercalcSortedBySales(t *testing.T, w *testenv.Ethercalc, down bool) string {
	want := w.Seed()
	sheet := want[ethercalcSales]
	rows := make([][3]testenv.EthercalcCell, 0, 6)
	for r := 2; r <= 7; r++ {
		rows = append(rows, [3]testenv.EthercalcCell{sheet[fmt.Sprint("A", r)], sheet[fmt.Sprint("B", r)], sheet[fmt.Sprint("C", r)]})
	}
	slices.SortStableFunc(rows, func(a, b [3]testenv.EthercalcCell) int {
		if down {
			return ethercalcNumber(b[2].Content) - ethercalcNumber(a[2].Content)
		}
		return ethercalcNumber(a[2].Content) - ethercalcNumber(b[2].Content)
	})
	for i, row := range rows {
		for c, col := range []string{"A", "B", "C"} {
			sheet[fmt.Sprint(col, i+2)] = row[c]
		}
	}
	return w.Differs(t, want)
}

// ethercalcNumber is a whole number a cell holds (0 when it holds none).
func ethercalcNumber(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}
