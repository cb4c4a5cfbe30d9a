package testenv

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// HledgerTxn is one transaction as the judges compare it: its date (YYYY-MM-DD), its
// description exactly as hledger reads it (a payee and a note, "PG&E | electricity
// October", are one description), and its postings, each an account and its amount in
// dollars with two decimals ("$63.48", "$-63.48"), the amount hledger infers for a
// posting left blank included.
type HledgerTxn struct {
	Date, Description string
	Postings          []HledgerPosting
}

// HledgerPosting is one posting of a transaction: an account's full name and its amount.
type HledgerPosting struct{ Account, Amount string }

// String is the transaction in one line, its postings sorted (the order a person typed
// the rows in does not matter): `2026-11-25 "Safeway": assets:bank:checking $-63.48,
// expenses:food:groceries $63.48`.
func (x HledgerTxn) String() string {
	ps := make([]string, len(x.Postings))
	for i, p := range x.Postings {
		ps[i] = p.Account + " " + p.Amount
	}
	slices.Sort(ps)
	return fmt.Sprintf("%s %q: %s", x.Date, x.Description, strings.Join(ps, ", "))
}

// HledgerState is what the judges compare of a journal: each of its transactions in one
// line (HledgerTxn.String), sorted; two alike transactions are two lines.
type HledgerState []string

// With is s and the transactions txns.
func (s HledgerState) With(txns ...HledgerTxn) HledgerState {
	out := slices.Clone(s)
	for _, x := range txns {
		out = append(out, x.String())
	}
	slices.Sort(out)
	return out
}

// Diff says how s differs from want ("" when it does not): each transaction missing and
// each extra one.
func (s HledgerState) Diff(want HledgerState) string {
	count := map[string]int{}
	for _, x := range s {
		count[x]++
	}
	for _, x := range want {
		count[x]--
	}
	var missing, extra []string
	for _, x := range slices.Sorted(maps.Keys(count)) {
		for n := count[x]; n < 0; n++ {
			missing = append(missing, "the journal lacks the transaction "+x)
		}
		for n := count[x]; n > 0; n-- {
			extra = append(extra, "the journal holds an extra transaction "+x)
		}
	}
	return strings.Join(append(missing, extra...), "; ")
}

// hledgerJSON is what hledger print -O json says of a transaction (the fields the judges
// read).
type hledgerJSON struct {
	Date        string `json:"tdate"`
	Description string `json:"tdescription"`
	Comment     string `json:"tcomment"`
	Postings    []struct {
		Account string `json:"paccount"`
		Comment string `json:"pcomment"`
		Amounts []struct {
			Commodity string `json:"acommodity"`
			Quantity  struct {
				Mantissa json.Number `json:"decimalMantissa"`
				Places   int         `json:"decimalPlaces"`
			} `json:"aquantity"`
		} `json:"pamount"`
	} `json:"tpostings"`
}

// State reads the journal file now with hledger, as hledger reads it (the default
// commodity given to an amount typed without one, a blank amount inferred), without the
// app. A file hledger cannot read fails the test.
func (w *Hledger) State(t testing.TB) HledgerState {
	t.Helper()
	txns, err := HledgerRead(w.Journal)
	if err != nil {
		t.Fatalf("hledger: %v", err)
	}
	s := HledgerState{}
	return s.With(txns...)
}

// HledgerRead reads the transactions of the journal file with hledger print -O json.
func HledgerRead(journal string) ([]HledgerTxn, error) {
	cmd := exec.Command(hledgerBin, "-f", journal, "print", "-O", "json")
	cmd.Env = []string{"LANG=C.UTF-8", "LC_ALL=C.UTF-8", "TZ=UTC"}
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		return nil, fmt.Errorf("hledger print %s: %v %s", journal, err, msg)
	}
	var raw []hledgerJSON
	if err := json.Unmarshal(out, &raw); err != nil {
		return nil, fmt.Errorf("hledger print %s: %v", journal, err)
	}
	txns := make([]HledgerTxn, 0, len(raw))
	for _, r := range raw {
		x := HledgerTxn{Date: r.Date, Description: r.Description}
		if c := strings.TrimSpace(r.Comment); c != "" {
			x.Description += " ; " + c
		}
		for _, p := range r.Postings {
			var amounts []string
			for _, a := range p.Amounts {
				amounts = append(amounts, a.Commodity+hledgerDecimal(string(a.Quantity.Mantissa), a.Quantity.Places))
			}
			if len(amounts) == 0 {
				amounts = []string{"0"}
			}
			account := p.Account
			if c := strings.TrimSpace(p.Comment); c != "" {
				account += " ; " + c
			}
			x.Postings = append(x.Postings, HledgerPosting{Account: account, Amount: strings.Join(amounts, " + ")})
		}
		txns = append(txns, x)
	}
	return txns, nil
}

// hledgerDecimal is mantissa/10^places with at least two decimals ("6348", 2 → "63.48";
// "-500", 0 → "-500.00", "63480", 3 → "63.48"); more when the amount has them ("63.485").
func hledgerDecimal(mantissa string, places int) string {
	r, ok := new(big.Rat).SetString(mantissa)
	if !ok {
		return mantissa + "e-" + fmt.Sprint(places)
	}
	r.Quo(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(places)), nil)))
	out := r.FloatString(max(2, places))
	for strings.HasSuffix(out, "0") && len(out)-strings.Index(out, ".") > 3 {
		out = strings.TrimSuffix(out, "0")
	}
	return out
}

// Seed is the state the instance started with (a copy).
func (w *Hledger) Seed() HledgerState { return slices.Clone(w.seed) }

// Differs says how the journal now differs from want ("" when it does not).
func (w *Hledger) Differs(t testing.TB, want HledgerState) string {
	t.Helper()
	return w.State(t).Diff(want)
}
