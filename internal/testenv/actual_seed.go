package testenv

import (
	"testing"
	"time"
)

// The seed every instance's budget file starts from: a household's accounts, its category
// groups and categories, the payees it pays (several alike: Fresh Market and Fresh Mart,
// Corner Cafe and Corner Bakery, City Power and City Parking), a month of transactions in
// its checking account and on its card (two at Corner Cafe, one at Corner Bakery of the
// same amount as one of them), this month's budgeted amounts and one rule.
var (
	// ActualSeedAccounts are the accounts: name, starting balance, off budget.
	ActualSeedAccounts = []struct {
		Name    string
		Balance float64
		Off     bool
	}{
		{"Everyday Checking", 2450, false},
		{"Emergency Savings", 5000, false},
		{"Holiday Savings", 800, false},
		{"Visa Card", -320, false},
		{"Car Loan", -8500, true},
	}
	// ActualSeedGroups are the expense category groups and their categories, in order.
	ActualSeedGroups = []struct {
		Name       string
		Categories []string
	}{
		{"Usual Expenses", []string{"Groceries", "Dining Out", "Fuel", "Phone"}},
		{"Bills", []string{"Rent", "Electricity", "Internet"}},
		{"Savings Goals", []string{"Vacation", "Emergency Fund"}},
	}
	// ActualSeedPayees are the payees the transactions name (the accounts' starting
	// balances add "Starting Balance").
	ActualSeedPayees = []string{"Acme Corp", "Harbor Apartments", "Fresh Market", "Fresh Mart", "Corner Cafe", "Corner Bakery",
		"City Power", "City Parking", "Metro Fuel", "Fiber Net"}
	// ActualSeedTransactions are the transactions, each dated DaysAgo days before the
	// instance started.
	ActualSeedTransactions = []ActualSeedTransaction{
		{25, "Everyday Checking", "Acme Corp", "Income", 3200, "Monthly salary"},
		{24, "Everyday Checking", "Harbor Apartments", "Rent", -1200, ""},
		{20, "Everyday Checking", "Fresh Market", "Groceries", -82.35, ""},
		{18, "Everyday Checking", "Corner Cafe", "Dining Out", -12.40, ""},
		{15, "Everyday Checking", "City Power", "Electricity", -94.10, ""},
		{12, "Everyday Checking", "Fresh Mart", "Groceries", -23.90, ""},
		{10, "Everyday Checking", "Corner Cafe", "Dining Out", -18.75, "Lunch with Sam"},
		{9, "Everyday Checking", "Corner Bakery", "Dining Out", -18.75, ""},
		{7, "Visa Card", "Metro Fuel", "Fuel", -55, ""},
		{5, "Everyday Checking", "Fiber Net", "Internet", -60, ""},
		{3, "Visa Card", "City Parking", "", -8, ""},
		{2, "Everyday Checking", "Metro Fuel", "Fuel", -48.20, ""},
	}
	// ActualSeedBudget is what this month budgets for each category.
	ActualSeedBudget = map[string]float64{"Groceries": 400, "Dining Out": 150, "Fuel": 120, "Phone": 45, "Rent": 1200,
		"Electricity": 100, "Internet": 60, "Vacation": 200, "Emergency Fund": 100}
)

// ActualSeedTransaction is a transaction of the seed: how many days before the instance
// started, its account, payee, category ("" for none), amount (negative for a payment)
// and notes.
type ActualSeedTransaction struct {
	DaysAgo                  int
	Account, Payee, Category string
	Amount                   float64
	Notes                    string
}

// ActualSeedRule is the seed's rule: its payee's transactions get its category.
var ActualSeedRule = [2]string{"Metro Fuel", "Fuel"}

// seedOps are the seed as the API client's changes, in order.
func (a *Actual) seedOps() []ActualOp {
	var ops []ActualOp
	for _, acc := range ActualSeedAccounts {
		ops = append(ops, ActualOp{Op: "account", Name: acc.Name, Balance: acc.Balance, Off: acc.Off})
	}
	for _, g := range ActualSeedGroups {
		ops = append(ops, ActualOp{Op: "group", Name: g.Name})
		for _, c := range g.Categories {
			ops = append(ops, ActualOp{Op: "category", Name: c, Group: g.Name})
		}
	}
	for _, p := range ActualSeedPayees {
		ops = append(ops, ActualOp{Op: "payee", Name: p})
	}
	now := time.Now().UTC()
	for _, tr := range ActualSeedTransactions {
		ops = append(ops, ActualOp{Op: "transaction", Account: tr.Account, Payee: tr.Payee, Category: tr.Category,
			Amount: tr.Amount, Notes: tr.Notes, Date: now.AddDate(0, 0, -tr.DaysAgo).Format("2006-01-02")})
	}
	for c, amount := range ActualSeedBudget {
		ops = append(ops, ActualOp{Op: "budget", Category: c, Amount: amount, Month: a.Month})
	}
	return append(ops, ActualOp{Op: "rule", Payee: ActualSeedRule[0], Category: ActualSeedRule[1]})
}

// seedBudget makes the budget file through the API client, signed in with the password,
// and keeps its id on the server.
func (a *Actual) seedBudget(t testing.TB) {
	t.Helper()
	var out struct {
		SyncID string `json:"syncId"`
	}
	a.run(t, actualRequest{Password: a.Password, Create: ActualBudgetName, Ops: a.seedOps()}, &out)
	if out.SyncID == "" {
		t.Fatalf("actual: the budget file %q was not uploaded:\n%s", ActualBudgetName, a.Log())
	}
	a.SyncID = out.SyncID
}
