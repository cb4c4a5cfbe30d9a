package testenv

import (
	"fmt"
	"strconv"
	"strings"
)

// ethercalcBoundary separates the parts of a SocialCalc save (a MIME multipart text).
const ethercalcBoundary = "--SocialCalcSpreadsheetControlSave"

// ethercalcStyles are the fields of a cell's line that name its style: SocialCalc's short
// name, the name a judge reads it by, and the table of the sheet part its number is an
// index of ("" when the field is the value itself).
var ethercalcStyles = map[string][2]string{
	"l": {"layout", "layout"}, "f": {"font", "font"}, "c": {"color", "color"}, "bg": {"bgcolor", "color"},
	"cf": {"cellformat", "cellformat"}, "ntvf": {"nontextvalueformat", "valueformat"},
	"tvf": {"textvalueformat", "valueformat"}, "colspan": {"colspan", ""}, "rowspan": {"rowspan", ""},
	"cssc": {"cssc", ""}, "csss": {"csss", ""}, "ro": {"readonly", ""}, "comment": {"comment", ""},
}

// ParseEthercalcSave reads the sheet part of a SocialCalc save into its cells (those with
// a content or a style), each style resolved through the sheet's tables.
func ParseEthercalcSave(save string) (EthercalcSheet, error) {
	part, err := ethercalcSheetPart(save)
	if err != nil {
		return nil, err
	}
	tables := map[string]map[string]string{}
	var cells [][]string
	for _, line := range strings.Split(part, "\n") {
		f := strings.Split(strings.TrimRight(line, "\r"), ":")
		switch {
		case len(f) >= 2 && f[0] == "cell":
			cells = append(cells, f)
		case len(f) >= 3 && (f[0] == "font" || f[0] == "color" || f[0] == "border" || f[0] == "layout" ||
			f[0] == "cellformat" || f[0] == "valueformat"):
			if tables[f[0]] == nil {
				tables[f[0]] = map[string]string{}
			}
			tables[f[0]][f[1]] = ethercalcDecode(strings.Join(f[2:], ":"))
		}
	}
	sheet := EthercalcSheet{}
	for _, f := range cells {
		cell, err := ethercalcCell(f[2:], tables)
		if err != nil {
			return nil, fmt.Errorf("the cell %s: %w", f[1], err)
		}
		if cell.Content != "" || len(cell.Style) > 0 {
			sheet[f[1]] = cell
		}
	}
	return sheet, nil
}

// ethercalcSheetPart is the text of the save's sheet part: the part the header part names
// "part:sheet" (the header lists the parts in their order).
func ethercalcSheetPart(save string) (string, error) {
	parts := strings.Split(save, ethercalcBoundary)
	if len(parts) < 3 {
		return "", fmt.Errorf("not a SocialCalc save: %.80q", save)
	}
	n := 0
	for _, line := range strings.Split(parts[1], "\n") {
		if name, ok := strings.CutPrefix(strings.TrimSpace(line), "part:"); ok {
			n++
			if name == "sheet" && n+1 < len(parts) {
				return parts[n+1], nil
			}
		}
	}
	return "", fmt.Errorf("the save has no sheet part")
}

// ethercalcCell reads the fields of a cell's line after its coordinate.
func ethercalcCell(f []string, tables map[string]map[string]string) (EthercalcCell, error) {
	cell := EthercalcCell{Style: map[string]string{}}
	next := func() string {
		if len(f) == 0 {
			return ""
		}
		v := f[0]
		f = f[1:]
		return v
	}
	for len(f) > 0 {
		switch t := next(); t {
		case "v", "t":
			cell.Content = ethercalcDecode(next())
		case "vt":
			next()
			cell.Content = ethercalcDecode(next())
		case "vtf":
			next()
			next()
			cell.Content = ethercalcFormula(ethercalcDecode(next()))
		case "vtc":
			next()
			cell.Content = ethercalcDecode(next())
			next()
		case "b":
			var sides []string
			for range 4 {
				sides = append(sides, tables["border"][next()])
			}
			if strings.Join(sides, "") != "" {
				cell.Style["border"] = strings.Join(sides, " | ")
			}
		case "e", "mod":
			next()
		default:
			s, ok := ethercalcStyles[t]
			if !ok {
				return cell, fmt.Errorf("an unknown field %q", t)
			}
			v := ethercalcDecode(next())
			if s[1] != "" {
				v = tables[s[1]][v]
			}
			if v != "" {
				cell.Style[s[0]] = v
			}
		}
	}
	if len(cell.Style) == 0 {
		cell.Style = nil
	}
	return cell, nil
}

// ethercalcFormula is a formula as the judges compare it: after "=", in upper case and
// without spaces, as a person may type it either way ("=sum(c2: c6)" is "=SUM(C2:C6)").
func ethercalcFormula(f string) string {
	return "=" + strings.ToUpper(strings.ReplaceAll(f, " ", ""))
}

// ethercalcDecode undoes SocialCalc's escapes in a save (\c for a colon, \n for a line
// break, \b for a backslash).
func ethercalcDecode(s string) string {
	return strings.NewReplacer(`\c`, ":", `\n`, "\n", `\b`, `\`).Replace(s)
}

// ethercalcEncode escapes a text for a save.
func ethercalcEncode(s string) string {
	return strings.NewReplacer(`\`, `\b`, ":", `\c`, "\n", `\n`).Replace(s)
}

// EthercalcSave is a SocialCalc save of a sheet's rows, written as EthercalcSeedSheet
// says: numbers, formulas (with 0 as their value until the server computes them) and
// texts, a text starting with "*" bold.
func EthercalcSave(rows [][]string) string {
	var b strings.Builder
	b.WriteString("socialcalc:version:1.0\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=SocialCalcSpreadsheetControlSave\n")
	b.WriteString(ethercalcBoundary + "\nContent-type: text/plain; charset=UTF-8\n\n# SocialCalc Spreadsheet Control Save\nversion:1.0\npart:sheet\n")
	b.WriteString(ethercalcBoundary + "\nContent-type: text/plain; charset=UTF-8\n\nversion:1.5\n")
	cols := 0
	for r, row := range rows {
		cols = max(cols, len(row))
		for c, v := range row {
			if v == "" {
				continue
			}
			coord := ethercalcColumn(c) + strconv.Itoa(r+1)
			_, isNumber := strconv.ParseFloat(v, 64)
			switch {
			case strings.HasPrefix(v, "="):
				fmt.Fprintf(&b, "cell:%s:vtf:n:0:%s\n", coord, ethercalcEncode(v[1:]))
			case isNumber == nil:
				fmt.Fprintf(&b, "cell:%s:v:%s\n", coord, v)
			case strings.HasPrefix(v, "*"):
				fmt.Fprintf(&b, "cell:%s:t:%s:f:1\n", coord, ethercalcEncode(v[1:]))
			default:
				fmt.Fprintf(&b, "cell:%s:t:%s\n", coord, ethercalcEncode(v))
			}
		}
	}
	fmt.Fprintf(&b, "sheet:c:%d:r:%d\nfont:1:normal bold * *\n%s--\n", cols, len(rows), ethercalcBoundary)
	return b.String()
}

// ethercalcSeedSheet is the sheet EthercalcSave's rows make, as the judges read it.
func ethercalcSeedSheet(rows [][]string) EthercalcSheet {
	s := EthercalcSheet{}
	for r, row := range rows {
		for c, v := range row {
			if v == "" {
				continue
			}
			cell := EthercalcCell{Content: v}
			if strings.HasPrefix(v, "*") {
				cell = EthercalcCell{Content: v[1:], Style: map[string]string{"font": "normal bold * *"}}
			}
			s[ethercalcColumn(c)+strconv.Itoa(r+1)] = cell
		}
	}
	return s
}

// ethercalcColumn is the letter of the column at index c (0 is A).
func ethercalcColumn(c int) string { return string(rune('A' + c)) }
