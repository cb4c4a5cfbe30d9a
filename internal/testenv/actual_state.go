package testenv

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// ActualState is what the judges compare of an Actual budget, as the API client reads it
// back from the server: table → a row's key → column → value as text (rowsDiffer's rows).
//
//	account      name → offbudget, closed (0 or 1)
//	payee        name → nothing (the payees people pay; an account's transfer payee is left out)
//	group        a category group's name → income, hidden
//	category     name → group, hidden (a second of the same name as "NAME (again)")
//	budget       "YYYY-MM category" → amount (each month's budgeted amounts but zero, "180.00")
//	transaction  the seed's id, or "new: ACCOUNT / PAYEE / AMOUNT" for one the seed lacks →
//	             account, date (YYYYMMDD), payee, category, amount ("-64.20"), notes
//	rule         its conditions ("payee is City Power") → op (and, or), stage, actions
//	             ("set category Electricity")
//	schedule     name → completed, active
//	pref         a synced preference's id → value (the budget's formats and settings)
type ActualState tableRows

// actualTables are the tables of an ActualState.
var actualTables = []string{"account", "payee", "group", "category", "budget", "transaction", "rule", "schedule", "pref"}

// actualRows is the API client's answer: each kind's rows as read from the budget.
type actualRows map[string][]map[string]any

// State downloads the budget file from the server with the API client, signed in with the
// session token, and reads it now.
func (a *Actual) State(t testing.TB) ActualState {
	t.Helper()
	var rows actualRows
	a.run(t, actualRequest{Token: a.token(t), SyncID: a.SyncID, State: true}, &rows)
	s := ActualState{}
	for _, table := range actualTables {
		s[table] = map[string]map[string]string{}
	}
	put := func(table, key string, row map[string]string) {
		if _, twice := s[table][key]; twice {
			key += " (again)"
		}
		s[table][key] = row
	}
	for _, r := range rows["accounts"] {
		put("account", actualText(r["name"]), map[string]string{"offbudget": actualText(r["offbudget"]), "closed": actualText(r["closed"])})
	}
	for _, r := range rows["payees"] {
		put("payee", actualText(r["name"]), map[string]string{})
	}
	for _, r := range rows["groups"] {
		put("group", actualText(r["name"]), map[string]string{"income": actualText(r["is_income"]), "hidden": actualText(r["hidden"])})
	}
	for _, r := range rows["categories"] {
		put("category", actualText(r["name"]), map[string]string{"group": actualText(r["grp"]), "hidden": actualText(r["hidden"])})
	}
	for _, r := range rows["budgets"] {
		month := actualText(r["month"])
		if len(month) == 6 {
			month = month[:4] + "-" + month[4:]
		}
		put("budget", month+" "+actualText(r["category"]), map[string]string{"amount": actualAmount(r["amount"])})
	}
	a.putTransactions(rows["transactions"], put)
	for _, r := range rows["rules"] {
		put("rule", actualText(r["conditions"]), map[string]string{"op": actualText(r["op"]), "stage": actualText(r["stage"]), "actions": actualText(r["actions"])})
	}
	for _, r := range rows["schedules"] {
		put("schedule", actualText(r["name"]), map[string]string{"completed": actualText(r["completed"]), "active": actualText(r["active"])})
	}
	for _, r := range rows["prefs"] {
		put("pref", actualText(r["id"]), map[string]string{"value": actualText(r["value"])})
	}
	return s
}

// putTransactions keys each transaction by its id when the seed has it, and by what it
// is when it is new (its id is made where it was entered).
func (a *Actual) putTransactions(rows []map[string]any, put func(table, key string, row map[string]string)) {
	for _, r := range rows {
		row := map[string]string{"account": actualText(r["account"]), "date": actualText(r["date"]), "payee": actualText(r["payee"]),
			"category": actualText(r["category"]), "amount": actualAmount(r["amount"]), "notes": actualText(r["notes"])}
		key := actualText(r["id"])
		if a.seed != nil && a.seed["transaction"][key] == nil {
			key = ActualNewTransaction(row["account"], row["payee"], row["amount"])
		}
		put("transaction", key, row)
	}
}

// ActualNewTransaction is how a transaction the seed lacks is keyed: "new: ACCOUNT /
// PAYEE / AMOUNT".
func ActualNewTransaction(account, payee, amount string) string {
	return "new: " + account + " / " + payee + " / " + amount
}

// actualText is a value the API client answered, as text (a whole number without a fraction).
func actualText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case float64:
		if v == float64(int64(v)) {
			return fmt.Sprint(int64(v))
		}
		return fmt.Sprint(v)
	default:
		return fmt.Sprint(v)
	}
}

// actualAmount is an amount Actual keeps in cents, as units with two decimals ("-64.20").
func actualAmount(v any) string {
	cents, _ := v.(float64)
	return fmt.Sprintf("%.2f", cents/100)
}

// Seed is the state of the fresh instance, once seeded (a copy).
func (a *Actual) Seed() ActualState { return ActualState(cloneRows(tableRows(a.seed))) }

// Differs says how the budget differs from the seed with changes made, "" when it does not
// (rowsDiffer says how changes read). learned are payee and category pairs: the rule
// "payee is PAYEE" → "set category CATEGORY" that Actual learns by itself once a payee's
// transactions mostly have one category may be there too, or not.
func (a *Actual) Differs(t testing.TB, changes ActualState, learned ...[2]string) string {
	t.Helper()
	now := a.State(t)
	all := ActualState(cloneRows(tableRows(changes)))
	if all["rule"] == nil {
		all["rule"] = map[string]map[string]string{}
	}
	for _, l := range learned {
		key := "payee is " + l[0]
		if got := now["rule"][key]; got != nil && got["actions"] == "set category "+l[1] {
			all["rule"][key] = map[string]string{"op": "and", "stage": "", "actions": "set category " + l[1]}
		}
	}
	return rowsDiffer(actualTables, tableRows(a.Seed()), tableRows(now), tableRows(all))
}

// Transactions are the seed's transactions of payee in account, by their keys (their ids).
func (s ActualState) Transactions(account, payee string) []string {
	var keys []string
	for _, k := range slices.Sorted(maps.Keys(s["transaction"])) {
		if r := s["transaction"][k]; r["account"] == account && r["payee"] == payee {
			keys = append(keys, k)
		}
	}
	return keys
}

// String lists the state, table by table, for a test's log.
func (s ActualState) String() string {
	var b strings.Builder
	for _, table := range actualTables {
		fmt.Fprintf(&b, "%s:", table)
		for _, k := range slices.Sorted(maps.Keys(s[table])) {
			fmt.Fprintf(&b, " %q%v", k, s[table][k])
		}
		b.WriteString("\n")
	}
	return b.String()
}
