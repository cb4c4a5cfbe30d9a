package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// HledgerVersion is the release of Debian's hledger-web and hledger deploy/setup.sh
// installs (HLEDGER_VERSION there).
const HledgerVersion = "1.25"

// Hledger is a private hledger-web — Debian's hledger-web 1.25, the web interface of
// hledger, a plain-text double-entry accounting tool: a sidebar lists the journal's
// accounts with their balances (a click on a name opens its register, "only" the register
// without its subaccounts), the General Journal page lists the transactions, most recent
// first, a search box filters them, and "Add a transaction" opens a form (Date,
// Description, and rows of Account 1 … Account 4 and Amount 1 … Amount 4, more rows
// appearing as the last amount is typed, account names completed as they are typed) whose
// "add" button appends the transaction to the journal file; an amount left blank is the
// one that balances it. Each instance runs on a free loopback port over a journal of its
// own, household.journal in a temporary folder (HledgerSeedJournal: a household's accounts
// and four months of transactions, with names alike: two bank accounts, two credit cards,
// three incomes, groceries and dining), with the capabilities view and add only (no
// "manage": the journal cannot be edited or replaced as a whole through the app).
// hledger-web has no user accounts and no sign-in: what a visitor may do is set by that
// option alone (--allow in later releases), so the goals have no sign-in and the worker
// is granted no secret. The judges read the journal file as hledger reads it (hledger
// print -O json), never through the app.
type Hledger struct {
	URL     string // the General Journal page, where a person starts: http://127.0.0.1:PORT/journal
	Base    string // http://127.0.0.1:PORT, the base URL its links are made with
	Dir     string // the instance's folder, its HOME too
	Journal string // the journal file it serves and appends to
	Port    int
	proc    *process
	seed    HledgerState
}

const (
	hledgerWebBin = "/usr/bin/hledger-web"
	hledgerBin    = "/usr/bin/hledger"
)

// HledgerInstalled says whether Debian's hledger-web and hledger are here (deploy/setup.sh
// heldout installs them).
func HledgerInstalled() bool { return exists(hledgerWebBin) && exists(hledgerBin) }

// StartHledger writes the seed journal into a fresh folder, runs hledger-web on it until
// the test ends, and waits until its journal page answers. The seed the judges compare
// with is what hledger then reads in the file. It skips the test when hledger-web is
// missing.
func StartHledger(t testing.TB) *Hledger {
	t.Helper()
	if !HledgerInstalled() {
		t.Skip("hledger-web is not installed: run `deploy/setup.sh heldout` (it installs Debian's hledger-web " + HledgerVersion + " and hledger)")
	}
	dir := t.TempDir()
	port := FreePort(t)
	w := &Hledger{Base: "http://" + Addr(port), Dir: dir, Journal: filepath.Join(dir, "household.journal"), Port: port}
	w.URL = w.Base + "/journal"
	write(t, w.Journal, HledgerSeedJournal)
	// --serve keeps it running without opening a browser; the capabilities are the
	// default's, view and add, said outright: no manage (editing or uploading the whole
	// file).
	cmd := exec.Command(hledgerWebBin, "--serve", "--host", "127.0.0.1", "--port", strconv.Itoa(port),
		"--base-url", w.Base, "--capabilities", "view,add", "-f", w.Journal)
	cmd.Dir = dir
	// Only what it needs: a UTF-8 locale (hledger refuses to read non-ASCII text without
	// one) and a home of its own; LEDGER_FILE and the like must not change what it serves.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "TZ=UTC"}
	w.proc = start(t, "hledger-web", cmd)
	waitHTTP(t, "hledger-web", w.URL, 60*time.Second, w.proc)
	w.seed = w.State(t)
	if len(w.seed) != hledgerSeedTransactions {
		t.Fatalf("hledger: the seed journal reads as %d transactions, not %d", len(w.seed), hledgerSeedTransactions)
	}
	return w
}

// Log is what hledger-web printed so far (it logs every request).
func (w *Hledger) Log() string { return w.proc.out.String() }

// hledgerSeedTransactions is how many transactions HledgerSeedJournal holds.
const hledgerSeedTransactions = 46

// HledgerVisaBalance is the Visa card's balance in the seed, as its register shows it
// (November's charges, the statement the card's goal pays).
const HledgerVisaBalance = "$-412.37"

// HledgerSeedJournal is every instance's journal: the Miller household's accounts,
// declared, with $ as the default commodity (an amount typed without one is in dollars),
// and its transactions from August to November 2026 (salary, rent, groceries, dining,
// utilities, two credit cards paid from checking, transfers to savings).
const HledgerSeedJournal = `; The Miller household's accounts, kept with hledger.

D $1,000.00
commodity $1,000.00

account assets:bank:checking
account assets:bank:savings
account assets:cash
account liabilities:creditcard:visa
account liabilities:creditcard:mastercard
account income:salary
account income:freelance
account income:interest
account expenses:rent
account expenses:food:groceries
account expenses:food:dining
account expenses:utilities:electricity
account expenses:utilities:internet
account expenses:utilities:water
account expenses:transport:fuel
account expenses:household
account expenses:health
account equity:opening balances

2026-08-01 Opening balances
    assets:bank:checking                $3,180.00
    assets:bank:savings                $12,500.00
    assets:cash                            $85.00
    equity:opening balances

2026-08-01 Oakwood Properties | rent August
    expenses:rent                       $1,650.00
    assets:bank:checking

2026-08-04 Safeway
    expenses:food:groceries                $96.12
    assets:bank:checking

2026-08-09 Chipotle
    expenses:food:dining                   $27.40
    liabilities:creditcard:visa

2026-08-12 PG&E | electricity July
    expenses:utilities:electricity         $84.30
    assets:bank:checking

2026-08-15 Shell
    expenses:transport:fuel                $52.75
    liabilities:creditcard:visa

2026-08-18 Comcast | internet August
    expenses:utilities:internet            $69.99
    assets:bank:checking

2026-08-22 Whole Foods
    expenses:food:groceries               $143.57
    liabilities:creditcard:mastercard

2026-08-28 Acme Corp | salary August
    assets:bank:checking                $4,200.00
    income:salary

2026-08-31 Interest
    assets:bank:savings                    $10.42
    income:interest

2026-09-01 Oakwood Properties | rent September
    expenses:rent                       $1,650.00
    assets:bank:checking

2026-09-01 Visa payment
    liabilities:creditcard:visa            $80.15
    assets:bank:checking

2026-09-06 Safeway
    expenses:food:groceries               $104.38
    assets:bank:checking

2026-09-10 Walgreens
    expenses:health                        $18.99
    liabilities:creditcard:mastercard

2026-09-12 PG&E | electricity August
    expenses:utilities:electricity         $97.64
    assets:bank:checking

2026-09-14 Blue Bottle Coffee
    expenses:food:dining                   $12.50
    assets:cash

2026-09-18 Comcast | internet September
    expenses:utilities:internet            $69.99
    assets:bank:checking

2026-09-20 City of Oakland | water Q3
    expenses:utilities:water              $121.80
    assets:bank:checking

2026-09-24 Northside Design | logo work
    assets:bank:checking                  $600.00
    income:freelance

2026-09-27 Olive Garden
    expenses:food:dining                   $58.20
    liabilities:creditcard:visa

2026-09-28 Acme Corp | salary September
    assets:bank:checking                $4,200.00
    income:salary

2026-09-30 Interest
    assets:bank:savings                    $10.51
    income:interest

2026-10-01 Oakwood Properties | rent October
    expenses:rent                       $1,650.00
    assets:bank:checking

2026-10-01 Visa payment
    liabilities:creditcard:visa            $58.20
    assets:bank:checking

2026-10-03 Mastercard payment
    liabilities:creditcard:mastercard     $162.56
    assets:bank:checking

2026-10-05 Transfer to savings
    assets:bank:savings                   $400.00
    assets:bank:checking

2026-10-08 Safeway
    expenses:food:groceries                $88.90
    assets:bank:checking

2026-10-11 Shell
    expenses:transport:fuel                $49.10
    liabilities:creditcard:visa

2026-10-12 PG&E | electricity September
    expenses:utilities:electricity         $88.02
    assets:bank:checking

2026-10-16 ATM withdrawal
    assets:cash                           $100.00
    assets:bank:checking

2026-10-18 Comcast | internet October
    expenses:utilities:internet            $69.99
    assets:bank:checking

2026-10-23 Whole Foods
    expenses:food:groceries               $131.06
    liabilities:creditcard:mastercard

2026-10-25 Chipotle
    expenses:food:dining                   $31.15
    liabilities:creditcard:visa

2026-10-28 Acme Corp | salary October
    assets:bank:checking                $4,200.00
    income:salary

2026-10-31 Interest
    assets:bank:savings                    $10.74
    income:interest

2026-11-01 Oakwood Properties | rent November
    expenses:rent                       $1,650.00
    assets:bank:checking

2026-11-01 Visa payment
    liabilities:creditcard:visa            $80.25
    assets:bank:checking

2026-11-02 Chipotle
    expenses:food:dining                   $23.85
    liabilities:creditcard:visa

2026-11-05 Shell
    expenses:transport:fuel                $48.60
    liabilities:creditcard:visa

2026-11-07 Safeway
    expenses:food:groceries               $112.44
    liabilities:creditcard:visa

2026-11-09 Transfer to savings
    assets:bank:savings                   $400.00
    assets:bank:checking

2026-11-14 CVS Pharmacy
    expenses:health                        $31.20
    liabilities:creditcard:visa

2026-11-16 Olive Garden
    expenses:food:dining                   $67.90
    liabilities:creditcard:visa

2026-11-18 Comcast | internet November
    expenses:utilities:internet            $69.99
    assets:bank:checking

2026-11-19 Home Depot
    expenses:household                    $128.38
    liabilities:creditcard:visa

2026-11-21 Whole Foods
    expenses:food:groceries                $76.43
    liabilities:creditcard:mastercard
`
