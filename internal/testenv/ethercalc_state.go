package testenv

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// EthercalcCell is one cell as the judges compare it: its content as a person typed it (a
// number as SocialCalc keeps it, a text, or a formula starting with "=", in upper case and
// without spaces, whose computed value is left out) and its style: each format the cell has, by SocialCalc's name for it,
// with the value it names ("font" = "normal bold * *", "cellformat" = "center").
type EthercalcCell struct {
	Content string
	Style   map[string]string
}

// EthercalcSheet is a sheet's cells that hold something or have a style, by coordinate
// ("B3").
type EthercalcSheet map[string]EthercalcCell

// EthercalcState is every sheet, by name.
type EthercalcState map[string]EthercalcSheet

// State reads every sheet Redis holds, each through EtherCalc's REST API (its save of the
// sheet, with every edit it has applied). The empty "NAME_formdata" sheet EtherCalc makes
// beside a sheet when a browser opens it is its own bookkeeping, no sheet of the goal's:
// it is left out while it holds nothing.
func (w *Ethercalc) State(t testing.TB) EthercalcState {
	t.Helper()
	b := w.Browser()
	s := EthercalcState{}
	for _, name := range w.Sheets(t) {
		sheet, err := ParseEthercalcSave(b.Save(t, name))
		if err != nil {
			t.Fatalf("ethercalc: the sheet %s: %v", name, err)
		}
		if strings.HasSuffix(name, "_formdata") && len(sheet) == 0 {
			continue
		}
		s[name] = sheet
	}
	return s
}

// Seed is the state the instance started with (a deep copy: a judge may change it into the
// state it wants).
func (w *Ethercalc) Seed() EthercalcState {
	out := EthercalcState{}
	for name, sheet := range w.seed {
		out[name] = sheet.Clone()
	}
	return out
}

// Differs says how the sheets now differ from want ("" when they do not).
func (w *Ethercalc) Differs(t testing.TB, want EthercalcState) string {
	t.Helper()
	return w.State(t).Diff(want)
}

// Diff says how s differs from want: each sheet missing or extra, and each cell of a sheet
// with another content or style.
func (s EthercalcState) Diff(want EthercalcState) string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if _, ok := s[name]; !ok {
			out = append(out, fmt.Sprintf("the sheet %q is missing", name))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s)) {
		wv, ok := want[name]
		if !ok {
			out = append(out, fmt.Sprintf("an extra sheet %q", name))
			continue
		}
		if why := s[name].Diff(wv); why != "" {
			out = append(out, fmt.Sprintf("in the sheet %q: %s", name, why))
		}
	}
	return strings.Join(out, "; ")
}

// Diff says how the sheet differs from want, cell by cell.
func (s EthercalcSheet) Diff(want EthercalcSheet) string {
	coords := map[string]bool{}
	for c := range s {
		coords[c] = true
	}
	for c := range want {
		coords[c] = true
	}
	var out []string
	for _, c := range slices.SortedFunc(maps.Keys(coords), ethercalcCoordLess) {
		got, wv := s[c].String(), want[c].String()
		if got != wv {
			out = append(out, fmt.Sprintf("%s holds %s, not %s", c, got, wv))
		}
	}
	return strings.Join(out, "; ")
}

// Clone is a deep copy of the sheet.
func (s EthercalcSheet) Clone() EthercalcSheet {
	out := EthercalcSheet{}
	for c, cell := range s {
		out[c] = EthercalcCell{Content: cell.Content, Style: maps.Clone(cell.Style)}
	}
	return out
}

// String is the cell as a reason says it: its content quoted and its style in brackets,
// "nothing" for an empty cell.
func (c EthercalcCell) String() string {
	if c.Content == "" && len(c.Style) == 0 {
		return "nothing"
	}
	out := strconv.Quote(c.Content)
	if len(c.Style) > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(c.Style)) {
			parts = append(parts, k+"="+c.Style[k])
		}
		out += " [" + strings.Join(parts, ", ") + "]"
	}
	return out
}

// Bold says whether the cell's font is bold (SocialCalc's font is "style weight size
// family", a star for the sheet's default).
func (c EthercalcCell) Bold() bool {
	f := strings.Fields(c.Style["font"])
	return len(f) >= 2 && f[1] == "bold"
}

// ShiftRows is the sheet after a row is inserted before row at, as SocialCalc's insertrow
// does it: every cell from that row down moves one row down, and every reference in a
// formula to such a row follows it.
func (s EthercalcSheet) ShiftRows(at int) EthercalcSheet {
	out := EthercalcSheet{}
	for c, cell := range s {
		col, row := ethercalcCoord(c)
		if row >= at {
			row++
		}
		cell = EthercalcCell{Content: cell.Content, Style: maps.Clone(cell.Style)}
		if strings.HasPrefix(cell.Content, "=") {
			cell.Content = ethercalcRef.ReplaceAllStringFunc(cell.Content, func(ref string) string {
				rc, rr := ethercalcCoord(ref)
				if rr >= at {
					rr++
				}
				return rc + strconv.Itoa(rr)
			})
		}
		out[col+strconv.Itoa(row)] = cell
	}
	return out
}

// DeleteRow is the sheet after its row at is deleted, as SocialCalc's deleterow does it
// for a row inside every range a formula names: that row's cells go, every cell below it
// moves one row up, and every reference in a formula to a row below it follows it.
func (s EthercalcSheet) DeleteRow(at int) EthercalcSheet {
	out := EthercalcSheet{}
	for c, cell := range s {
		col, row := ethercalcCoord(c)
		if row == at {
			continue
		}
		if row > at {
			row--
		}
		cell = EthercalcCell{Content: cell.Content, Style: maps.Clone(cell.Style)}
		if strings.HasPrefix(cell.Content, "=") {
			cell.Content = ethercalcRef.ReplaceAllStringFunc(cell.Content, func(ref string) string {
				rc, rr := ethercalcCoord(ref)
				if rr > at {
					rr--
				}
				return rc + strconv.Itoa(rr)
			})
		}
		out[col+strconv.Itoa(row)] = cell
	}
	return out
}

var (
	ethercalcRef      = regexp.MustCompile(`\b[A-Z]{1,2}[0-9]+\b`)
	ethercalcCoordPat = regexp.MustCompile(`^([A-Z]+)([0-9]+)$`)
)

// ethercalcCoord splits "B12" into "B" and 12.
func ethercalcCoord(c string) (string, int) {
	m := ethercalcCoordPat.FindStringSubmatch(c)
	if m == nil {
		return c, 0
	}
	n, _ := strconv.Atoi(m[2])
	return m[1], n
}

// ethercalcCoordLess orders coordinates by row, then column.
func ethercalcCoordLess(a, b string) int {
	ac, ar := ethercalcCoord(a)
	bc, br := ethercalcCoord(b)
	if ar != br {
		return ar - br
	}
	if len(ac) != len(bc) {
		return len(ac) - len(bc)
	}
	return strings.Compare(ac, bc)
}

// sortedStrings sorts ss in place and returns it.
func sortedStrings(ss []string) []string {
	slices.Sort(ss)
	return ss
}
