//go:build heldout

package e2e

import (
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// actualGoal is one everyday goal on Actual Budget's pages: its phrasings (each with
// {signin}, filled in by actualText), its judge (done: what the budget lacks, "" when it
// holds exactly the goal's effect and nothing else changed), the goal's effect made
// without the agent (do) and a near miss of it (miss).
type actualGoal struct {
	name      string
	phrasings [3]string
	done      func(t *testing.T, a *testenv.Actual) string
	do, miss  func(t *testing.T, b *testenv.ActualBrowser)
}

// actualRows is a table of changes: a row's key → its columns.
type actualRows = map[string]map[string]string

// actualGoals are the goals: an account with a starting balance, a transaction, a payee
// renamed, a category added to a group, a month's budgeted amount, a transaction found by
// a search and deleted, and a rule.
var actualGoals = []actualGoal{
	{
		name: "add an account with a starting balance",
		phrasings: [3]string{
			`{signin}, click "Add account", click "Create a local account", type "Travel Fund" into "Name", type "250" into "Balance", click "Create"`,
			`{signin}. Then hit Add account at the bottom of the menu on the left, choose Create a local account, call it "Travel Fund" with a Balance of 250 and press Create.`,
			`{signin}, then in the sidebar click "Add account", pick "Create a local account", enter Travel Fund in the Name field and 250 in the field labelled Balance, and click Create`,
		},
		done: func(t *testing.T, a *testenv.Actual) string {
			return a.Differs(t, testenv.ActualState{
				"account": actualRows{"Travel Fund": {"offbudget": "0", "closed": "0"}},
				"transaction": actualRows{testenv.ActualNewTransaction("Travel Fund", "Starting Balance", "250.00"): {
					"account": "Travel Fund", "payee": "Starting Balance", "category": "Starting Balances", "amount": "250.00", "notes": "", "date": "*"}},
			})
		},
		do: func(t *testing.T, b *testenv.ActualBrowser) {
			b.Do(t, testenv.ActualOp{Op: "account", Name: "Travel Fund", Balance: 250})
		},
		miss: func(t *testing.T, b *testenv.ActualBrowser) {
			b.Do(t, testenv.ActualOp{Op: "account", Name: "Travel Fund", Balance: 25})
		},
	},
	{
		name: "add a transaction",
		phrasings: [3]string{
			`{signin}, click "Everyday Checking", click "Add New", type "Fresh Market" into "Payee", type "Groceries" into "Category", type "64.20" into "Payment", click "Add"`,
			`{signin}, open the Everyday Checking account from the list on the left and press Add New; in the new row put Fresh Market as the payee, Groceries as the category and 64.20 under Payment, then hit "Add".`,
			`{signin}. In the Everyday Checking account click Add New, then fill in the new transaction: payee "Fresh Market", category "Groceries", payment 64.20. Click Add to save it.`,
		},
		done: func(t *testing.T, a *testenv.Actual) string {
			return a.Differs(t, testenv.ActualState{
				"transaction": actualRows{testenv.ActualNewTransaction("Everyday Checking", "Fresh Market", "-64.20"): {
					"account": "Everyday Checking", "payee": "Fresh Market", "category": "Groceries", "amount": "-64.20", "notes": "", "date": "*"}},
			}, [2]string{"Fresh Market", "Groceries"})
		},
		do: func(t *testing.T, b *testenv.ActualBrowser) {
			b.Do(t, testenv.ActualOp{Op: "transaction", Account: "Everyday Checking", Payee: "Fresh Market", Category: "Groceries", Amount: -64.20})
		},
		miss: func(t *testing.T, b *testenv.ActualBrowser) {
			b.Do(t, testenv.ActualOp{Op: "transaction", Account: "Everyday Checking", Payee: "Fresh Mart", Category: "Groceries", Amount: -64.20})
		},
	},
	{
		name: "rename a payee",
		phrasings: [3]string{
			`{signin}, click "More", click "Payees", click "Corner Cafe", type "Corner Coffee House", press Enter`,
			`{signin}, then under More in the menu on the left go to Payees, click on the name Corner Cafe and change it to "Corner Coffee House" (press Enter to save).`,
			`{signin}. Open More > Payees, find the payee "Corner Cafe" in the list and rename it to Corner Coffee House by clicking its name, typing the new one and hitting Enter.`,
		},
		done: func(t *testing.T, a *testenv.Actual) string {
			return a.Differs(t, actualRenamed(a.Seed(), "Corner Cafe", "Corner Coffee House"))
		},
		do: func(t *testing.T, b *testenv.ActualBrowser) {
			b.Do(t, testenv.ActualOp{Op: "renamePayee", From: "Corner Cafe", To: "Corner Coffee House"})
		},
		miss: func(t *testing.T, b *testenv.ActualBrowser) {
			b.Do(t, testenv.ActualOp{Op: "renamePayee", From: "Corner Bakery", To: "Corner Coffee House"})
		},
	},
	{
		name: "add a category to a group",
		phrasings: [3]string{
			`{signin}, click "Budget", click "Add category" in the row of "Bills", type "Water" into "New category name", press Enter`,
			`{signin}, go to Budget, hover the Bills group and click its Add category (+) button, type Water as the new category name and hit Enter.`,
			`{signin}. On the Budget page add a category named "Water" to the Bills group: press the Add category button in the Bills row, enter Water and press Enter.`,
		},
		done: func(t *testing.T, a *testenv.Actual) string {
			return a.Differs(t, testenv.ActualState{"category": actualRows{"Water": {"group": "Bills", "hidden": "0"}}})
		},
		do: func(t *testing.T, b *testenv.ActualBrowser) {
			b.Do(t, testenv.ActualOp{Op: "category", Name: "Water", Group: "Bills"})
		},
		miss: func(t *testing.T, b *testenv.ActualBrowser) {
			b.Do(t, testenv.ActualOp{Op: "category", Name: "Water", Group: "Usual Expenses"})
		},
	},
	{
		name: "budget a category for the month",
		phrasings: [3]string{
			`{signin}, click "Budget", click the "Budgeted" amount in the row of "Dining Out", type "180", press Enter`,
			`{signin}, on the Budget page set this month's Budgeted amount for Dining Out to 180 (click the amount in the Dining Out row, type 180 and hit Enter).`,
			`{signin}. Go to Budget and change what is budgeted for "Dining Out" this month from 150.00 to 180: click its Budgeted cell, enter 180, press Enter.`,
		},
		done: func(t *testing.T, a *testenv.Actual) string {
			return a.Differs(t, testenv.ActualState{"budget": actualRows{a.Month + " Dining Out": {"amount": "180.00"}}})
		},
		do: func(t *testing.T, b *testenv.ActualBrowser) {
			b.Do(t, testenv.ActualOp{Op: "budget", Category: "Dining Out", Amount: 180, Month: b.Actual().Month})
		},
		miss: func(t *testing.T, b *testenv.ActualBrowser) {
			b.Do(t, testenv.ActualOp{Op: "budget", Category: "Groceries", Amount: 180, Month: b.Actual().Month})
		},
	},
	{
		name: "find a transaction and delete it",
		phrasings: [3]string{
			`{signin}, click "Everyday Checking", type "Corner" into "Search", click the checkbox in the row of "Lunch with Sam", click "1 transaction", click "Delete", click "Delete"`,
			`{signin}, open Everyday Checking, search for Corner, tick the Corner Cafe transaction of 18.75 (the one with the note Lunch with Sam), then use the "1 transaction" menu to Delete it and confirm with Delete.`,
			`{signin}. In the Everyday Checking account type Corner in the Search box, select the Corner Cafe payment of 18.75, click the 1 transaction button, choose Delete and press Delete again in the Confirm Delete dialog.`,
		},
		done: func(t *testing.T, a *testenv.Actual) string {
			return a.Differs(t, testenv.ActualState{"transaction": actualRows{actualSeedTransaction(t, a, "Corner Cafe", "-18.75"): nil}})
		},
		do: func(t *testing.T, b *testenv.ActualBrowser) {
			b.Do(t, testenv.ActualOp{Op: "deleteTransaction", Account: "Everyday Checking", Payee: "Corner Cafe", Amount: -18.75})
		},
		miss: func(t *testing.T, b *testenv.ActualBrowser) {
			b.Do(t, testenv.ActualOp{Op: "deleteTransaction", Account: "Everyday Checking", Payee: "Corner Cafe", Amount: -12.40})
		},
	},
	{
		name: "create a rule",
		phrasings: [3]string{
			`{signin}, click "More", click "Rules", click "Create new rule", type "City Power" into the value of the condition "payee is" and choose "City Power", type "Electricity" into the value of the action "set category" and choose "Electricity", click "Save"`,
			`{signin}. Under More in the left menu open Rules and press Create new rule; make the condition payee is City Power and the action set category to Electricity (pick each from the list that drops down), then click Save.`,
			`{signin}, then go to More > Rules, click "Create new rule", set the rule's condition to payee is "City Power" and its action to set category "Electricity", and hit Save.`,
		},
		done: func(t *testing.T, a *testenv.Actual) string {
			return a.Differs(t, testenv.ActualState{"rule": actualRows{"payee is City Power": {"op": "and", "stage": "", "actions": "set category Electricity"}}})
		},
		do: func(t *testing.T, b *testenv.ActualBrowser) {
			b.Do(t, testenv.ActualOp{Op: "rule", Payee: "City Power", Category: "Electricity"})
		},
		miss: func(t *testing.T, b *testenv.ActualBrowser) {
			b.Do(t, testenv.ActualOp{Op: "rule", Payee: "City Parking", Category: "Electricity"})
		},
	},
}

// actualRenamed are the changes of renaming the payee from to to: the payee itself and
// each of the seed's transactions that names it.
func actualRenamed(seed testenv.ActualState, from, to string) testenv.ActualState {
	changes := testenv.ActualState{"payee": actualRows{from: nil, to: {}}, "transaction": actualRows{}}
	for key, row := range seed["transaction"] {
		if row["payee"] == from {
			changes["transaction"][key] = map[string]string{"payee": to}
		}
	}
	return changes
}

// actualSeedTransaction is the key (the id) of the seed's one transaction of payee for
// amount in Everyday Checking.
func actualSeedTransaction(t *testing.T, a *testenv.Actual, payee, amount string) string {
	seed := a.Seed()
	var keys []string
	for _, k := range seed.Transactions("Everyday Checking", payee) {
		if seed["transaction"][k]["amount"] == amount {
			keys = append(keys, k)
		}
	}
	if len(keys) != 1 {
		t.Fatalf("the seed has %d transactions of %s for %s in Everyday Checking, not one", len(keys), payee, amount)
	}
	return keys[0]
}
