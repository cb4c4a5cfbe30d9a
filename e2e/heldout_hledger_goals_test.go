//go:build heldout

package e2e

import (
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// hledgerGoal is an everyday goal on hledger-web, written three ways as a person writes
// it from what the pages show (hledger-web has no sign-in: see testenv.Hledger); want is
// the one transaction the goal adds to the journal, and done says "" when the journal, as
// hledger reads it, is the seed's transactions and that one, else what differs; do makes
// the effect through the "Add a transaction" form's own request, and miss a near miss the
// judge must not take for it (the neighbouring account, the other card, another date,
// amount or description).
type hledgerGoal struct {
	name      string
	phrasings [3]string
	want      testenv.HledgerTxn
	miss      testenv.HledgerTxn
	register  string // the account whose register the goal opens first, "" for none
}

// done is the goal's judge.
func (g hledgerGoal) done(t testing.TB, w *testenv.Hledger) string {
	return w.Differs(t, w.Seed().With(g.want))
}

// do adds the goal's transaction, and doMiss its near miss, as the add form does, after
// opening the register the goal opens first, if any.
func (g hledgerGoal) do(t testing.TB, b *testenv.HledgerBrowser) {
	if g.register != "" {
		b.Register(t, g.register)
	}
	b.Add(t, g.want)
}

func (g hledgerGoal) doMiss(t testing.TB, b *testenv.HledgerBrowser) {
	if g.register != "" {
		b.Register(t, g.register)
	}
	b.Add(t, g.miss)
}

// hledgerTxn is a transaction of date and description with postings given as account,
// amount, account, amount…
func hledgerTxn(date, description string, postings ...string) testenv.HledgerTxn {
	x := testenv.HledgerTxn{Date: date, Description: description}
	for i := 0; i+1 < len(postings); i += 2 {
		x.Postings = append(x.Postings, testenv.HledgerPosting{Account: postings[i], Amount: postings[i+1]})
	}
	return x
}

const (
	hledgerChecking   = "assets:bank:checking"
	hledgerSavings    = "assets:bank:savings"
	hledgerCash       = "assets:cash"
	hledgerVisa       = "liabilities:creditcard:visa"
	hledgerMastercard = "liabilities:creditcard:mastercard"
	hledgerGroceries  = "expenses:food:groceries"
	hledgerDining     = "expenses:food:dining"
	hledgerHousehold  = "expenses:household"
	hledgerPower      = "expenses:utilities:electricity"
	hledgerFreelance  = "income:freelance"
	hledgerSalary     = "income:salary"
)

var hledgerGoals = []hledgerGoal{
	{
		name: "an expense paid from checking",
		phrasings: [3]string{
			`click "Add a transaction", type "2026-11-25" into "Date", type "Safeway" into "Description", type "expenses:food:groceries" into "Account 1", type "63.48" into "Amount 1", type "assets:bank:checking" into "Account 2", click "add", check that "Transaction added." appears`,
			`Open Add a transaction and record a Safeway purchase on 2026-11-25: 63.48 to expenses:food:groceries, paid from assets:bank:checking (leave the second amount empty), then press add.`,
			`Hey, I just got back from Safeway and paid $63.48 for groceries with my debit card. Could you log it? Click "Add a transaction", use the date 2026-11-25 and the description Safeway, put 63.48 on expenses:food:groceries and take it from assets:bank:checking (the checking account, not savings), then hit add.`,
		},
		want: hledgerTxn("2026-11-25", "Safeway", hledgerGroceries, "$63.48", hledgerChecking, "$-63.48"),
		miss: hledgerTxn("2026-11-25", "Safeway", hledgerGroceries, "$63.48", hledgerSavings, "$-63.48"),
	},
	{
		name: "a transfer to savings",
		phrasings: [3]string{
			`click "Add a transaction", type "2026-11-26" into "Date", type "Transfer to savings" into "Description", type "assets:bank:savings" into "Account 1", type "500" into "Amount 1", type "assets:bank:checking" into "Account 2", click "add"`,
			`Add a transaction dated 2026-11-26 described as Transfer to savings that moves 500 from assets:bank:checking into assets:bank:savings (savings gets +500 in the first row, checking takes the rest), and click add.`,
			`This month's savings transfer went through today: $500 from checking to savings. Please add it in hledger with "Add a transaction": date 2026-11-26, description "Transfer to savings", first row assets:bank:savings with 500, second row assets:bank:checking with the amount left empty, then click add.`,
		},
		want: hledgerTxn("2026-11-26", "Transfer to savings", hledgerSavings, "$500.00", hledgerChecking, "$-500.00"),
		miss: hledgerTxn("2026-11-26", "Transfer to savings", hledgerChecking, "$500.00", hledgerSavings, "$-500.00"),
	},
	{
		name: "a purchase split over three accounts",
		phrasings: [3]string{
			`click "Add a transaction", type "2026-11-22" into "Date", type "Costco" into "Description", type "expenses:food:groceries" into "Account 1", type "84.20" into "Amount 1", type "expenses:household" into "Account 2", type "25.80" into "Amount 2", type "liabilities:creditcard:visa" into "Account 3", click "add"`,
			`Record the Costco receipt of 2026-11-22 with Add a transaction: 84.20 on expenses:food:groceries, 25.80 on expenses:household, both paid with liabilities:creditcard:visa in the third row (no amount there), then add.`,
			`I did a big Costco run on 2026-11-22 and put the whole $110 on the Visa card, but I'd like it split: $84.20 of it was food and $25.80 household stuff. In "Add a transaction" enter the description Costco, then expenses:food:groceries 84.20, expenses:household 25.80, and liabilities:creditcard:visa as the third account with its amount left blank, and click add.`,
		},
		want: hledgerTxn("2026-11-22", "Costco", hledgerGroceries, "$84.20", hledgerHousehold, "$25.80", hledgerVisa, "$-110.00"),
		miss: hledgerTxn("2026-11-22", "Costco", hledgerGroceries, "$84.20", hledgerHousehold, "$25.80", hledgerMastercard, "$-110.00"),
	},
	{
		name: "a dinner on a past date",
		phrasings: [3]string{
			`click "Add a transaction", type "2026-10-17" into "Date", type "Trattoria Roma" into "Description", type "expenses:food:dining" into "Account 1", type "46.50" into "Amount 1", type "liabilities:creditcard:mastercard" into "Account 2", click "add"`,
			`I forgot to enter a dinner from back in October: add a transaction on 2026-10-17, Trattoria Roma, 46.50 to expenses:food:dining, paid with liabilities:creditcard:mastercard, and press add.`,
			`Oops, I never logged our dinner at Trattoria Roma on October 17th (2026-10-17, not this month). It was $46.50 on the Mastercard. Please click "Add a transaction", set the date to 2026-10-17, description Trattoria Roma, put 46.50 on expenses:food:dining and use liabilities:creditcard:mastercard as the second account, then click add.`,
		},
		want: hledgerTxn("2026-10-17", "Trattoria Roma", hledgerDining, "$46.50", hledgerMastercard, "$-46.50"),
		miss: hledgerTxn("2026-11-17", "Trattoria Roma", hledgerDining, "$46.50", hledgerMastercard, "$-46.50"),
	},
	{
		name: "a freelance income",
		phrasings: [3]string{
			`click "Add a transaction", type "2026-11-20" into "Date", type "Baker & Sons | website update" into "Description", type "assets:bank:checking" into "Account 1", type "850" into "Amount 1", type "income:freelance" into "Account 2", click "add"`,
			`Baker & Sons paid my invoice: add a transaction on 2026-11-20 with the description "Baker & Sons | website update", 850 into assets:bank:checking, coming from income:freelance, then click add.`,
			`Good news, Baker & Sons finally paid me $850 for the website update, it landed in checking on 2026-11-20. Can you add it? Click "Add a transaction", description exactly "Baker & Sons | website update", account 1 assets:bank:checking with 850, account 2 income:freelance (it's freelance work, not my salary) with no amount, and hit add.`,
		},
		want: hledgerTxn("2026-11-20", "Baker & Sons | website update", hledgerChecking, "$850.00", hledgerFreelance, "$-850.00"),
		miss: hledgerTxn("2026-11-20", "Baker & Sons | website update", hledgerChecking, "$850.00", hledgerSalary, "$-850.00"),
	},
	{
		name: "a bill with an exact description",
		phrasings: [3]string{
			`click "Add a transaction", type "2026-11-12" into "Date", type "PG&E | electricity October" into "Description", type "expenses:utilities:electricity" into "Account 1", type "92.15" into "Amount 1", type "assets:bank:checking" into "Account 2", click "add"`,
			`Add the October power bill: a transaction dated 2026-11-12 whose description is exactly PG&E | electricity October, 92.15 on expenses:utilities:electricity, paid from assets:bank:checking; then add.`,
			`The PG&E bill for October came out of checking on 2026-11-12, $92.15. Please enter it like the other months' bills, with the description "PG&E | electricity October" word for word: Add a transaction, expenses:utilities:electricity 92.15 and assets:bank:checking with the amount left empty, then click add.`,
		},
		want: hledgerTxn("2026-11-12", "PG&E | electricity October", hledgerPower, "$92.15", hledgerChecking, "$-92.15"),
		miss: hledgerTxn("2026-11-12", "PG&E", hledgerPower, "$92.15", hledgerChecking, "$-92.15"),
	},
	{
		name: "pay the Visa card from its register",
		phrasings: [3]string{
			`click "visa", check that "liabilities:creditcard:visa" appears, click "Journal", click "Add a transaction", type "2026-11-24" into "Date", type "Visa payment" into "Description", type "liabilities:creditcard:visa" into "Account 1", type "412.37" into "Amount 1", type "assets:bank:checking" into "Account 2", click "add"`,
			`Open the Visa card's register (visa, under liabilities:creditcard in the sidebar) to see that it owes 412.37, then go back to the Journal and pay it off: add a transaction on 2026-11-24, Visa payment, 412.37 to liabilities:creditcard:visa from assets:bank:checking, then add.`,
			`Time to pay the credit card. Click "visa" in the account list on the left to see its register (its running total should end at $-412.37), then go back with "Journal" at the top of that list, click "Add a transaction" there and enter date 2026-11-24, description "Visa payment", liabilities:creditcard:visa with 412.37 and assets:bank:checking with nothing, and press add. Only the Visa, the Mastercard stays as it is.`,
		},
		want:     hledgerTxn("2026-11-24", "Visa payment", hledgerVisa, "$412.37", hledgerChecking, "$-412.37"),
		miss:     hledgerTxn("2026-11-24", "Visa payment", hledgerMastercard, "$412.37", hledgerChecking, "$-412.37"),
		register: hledgerVisa,
	},
	{
		name: "a cash withdrawal",
		phrasings: [3]string{
			`click "Add a transaction", type "2026-11-23" into "Date", type "ATM withdrawal" into "Description", type "assets:cash" into "Account 1", type "200" into "Amount 1", type "assets:bank:checking" into "Account 2", click "add", check that "Transaction added." appears`,
			`Log an ATM withdrawal of 200 on 2026-11-23: Add a transaction, description ATM withdrawal, assets:cash 200, assets:bank:checking for the other side, and click add.`,
			`I took out two hundred dollars at the ATM on 2026-11-23. Please add a transaction for it: description "ATM withdrawal", put 200 on assets:cash and use assets:bank:checking as the second account without an amount, then click the add button.`,
		},
		want: hledgerTxn("2026-11-23", "ATM withdrawal", hledgerCash, "$200.00", hledgerChecking, "$-200.00"),
		miss: hledgerTxn("2026-11-23", "ATM withdrawal", hledgerCash, "$20.00", hledgerChecking, "$-20.00"),
	},
}
