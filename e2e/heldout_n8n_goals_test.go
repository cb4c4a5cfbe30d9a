//go:build heldout

package e2e

import (
	"maps"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// n8nGoal is an everyday goal on n8n's pages, written three ways as a person writes it
// from what the pages show ({signin} is the phrasing's way of signing in); done reads
// n8n's database and says "" when the goal's effect is there and nothing else the pages
// change did, else what it found; do makes the effect through the requests the pages send
// along the goal's path, and miss a near miss the judge must not take for it (another
// workflow, a neighbouring name or value).
type n8nGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, n *testenv.N8N) string
	do, miss  func(t testing.TB, b *testenv.N8NBrowser)
}

const (
	n8nNewWorkflow = "Lead Intake"
	n8nRenamed     = "Invoice Sync (Europe)"
	n8nNewLastName = "Brooks-Ortiz"
	n8nCredential  = "CRM API Key"
	n8nDuplicate   = "Nightly Backup (QA)"
)

var n8nGoals = []n8nGoal{
	{
		name: "create a workflow",
		phrasings: [3]string{
			`{signin}, click "Create workflow", click "My workflow", type "Lead Intake", press Enter`,
			`{signin}, then create a new workflow (Create workflow button on the Overview page) and rename it from My workflow to Lead Intake by clicking its name at the top`,
			`{signin} On the Overview page hit "Create workflow". In the editor that opens, click the name My workflow at the top left, replace it with Lead Intake and press Enter so that the workflow is saved under that name.`,
		},
		done: func(t testing.TB, n *testenv.N8N) string {
			return n8nExactly(t, n, func(s testenv.N8NState) {
				s["workflows"][n8nNewWorkflow] = map[string]string{"id": "*", "archived": "0", "active": "0", "folder": "", "tags": "", "nodes": "*"}
			})
		},
		do:   func(t testing.TB, b *testenv.N8NBrowser) { b.CreateWorkflow(t, n8nNewWorkflow) },
		miss: func(t testing.TB, b *testenv.N8NBrowser) { b.CreateWorkflow(t, "Lead Intake Form") },
	},
	{
		name: "rename a workflow",
		phrasings: [3]string{
			`{signin}, click "Invoice Sync (EU)" in the workflow list, click the name "Invoice Sync (EU)" at the top of the editor, type "Invoice Sync (Europe)", press Enter`,
			`{signin}, open the workflow Invoice Sync (EU) and rename it to "Invoice Sync (Europe)" (click its name at the top, type the new one, Enter)`,
			`{signin} In the workflow list, open Invoice Sync (EU). Click on its name at the top of the editor, change it to Invoice Sync (Europe) and press Enter. Leave Invoice Sync (US) alone.`,
		},
		done: func(t testing.TB, n *testenv.N8N) string {
			return n8nExactly(t, n, func(s testenv.N8NState) {
				s["workflows"][n8nRenamed] = maps.Clone(s["workflows"]["Invoice Sync (EU)"])
				s["workflows"]["Invoice Sync (EU)"] = nil
			})
		},
		do:   func(t testing.TB, b *testenv.N8NBrowser) { b.RenameWorkflow(t, "Invoice Sync (EU)", n8nRenamed) },
		miss: func(t testing.TB, b *testenv.N8NBrowser) { b.RenameWorkflow(t, "Invoice Sync (US)", n8nRenamed) },
	},
	{
		name: "add a tag to a workflow",
		phrasings: [3]string{
			`{signin}, click "Weekly Sales Report", click the "..." menu at the top right, click "Edit description and tags", click "Tags", select "finance", click "Save"`,
			`{signin}, then open Weekly Sales Report, and from its menu (the three dots at the top right) choose Edit description and tags; add the existing tag finance under Tags and hit Save`,
			`{signin} Open the workflow "Weekly Sales Report" from the list. In the editor, open the menu with the three dots in the top right corner and pick "Edit description and tags". In the Tags field choose finance (keep reports), then press Save.`,
		},
		done: func(t testing.TB, n *testenv.N8N) string {
			return n8nExactly(t, n, func(s testenv.N8NState) {
				s["workflows"]["Weekly Sales Report"] = map[string]string{"tags": "finance, reports"}
			})
		},
		do:   func(t testing.TB, b *testenv.N8NBrowser) { b.AddTag(t, "Weekly Sales Report", "finance") },
		miss: func(t testing.TB, b *testenv.N8NBrowser) { b.AddTag(t, "Weekly Marketing Report", "finance") },
	},
	{
		name: "archive a workflow",
		phrasings: [3]string{
			`{signin}, click the "..." menu in the row of "Newsletter Draft 2023", click "Archive"`,
			`{signin}, then in the workflow list archive Newsletter Draft 2023 (its three-dot menu, then Archive)`,
			`{signin} In the list of workflows find Newsletter Draft 2023, open the menu with the three dots on its row and click Archive. Newsletter Draft 2024 must stay as it is.`,
		},
		done: func(t testing.TB, n *testenv.N8N) string {
			return n8nExactly(t, n, func(s testenv.N8NState) {
				s["workflows"]["Newsletter Draft 2023"] = map[string]string{"archived": "1"}
			})
		},
		do:   func(t testing.TB, b *testenv.N8NBrowser) { b.ArchiveWorkflow(t, "Newsletter Draft 2023") },
		miss: func(t testing.TB, b *testenv.N8NBrowser) { b.ArchiveWorkflow(t, "Newsletter Draft 2024") },
	},
	{
		name: "change my last name",
		phrasings: [3]string{
			`{signin}, click "Settings", click "Personal", type "Brooks-Ortiz" into "Last Name", click "Save"`,
			`{signin}; go to Settings > Personal and change the Last Name to Brooks-Ortiz, keep First Name as Maya, then Save`,
			`{signin} Open Settings at the bottom of the menu on the left and choose Personal. In Basic Information, replace the last name Brooks in the field labelled Last Name with "Brooks-Ortiz" and click the Save button.`,
		},
		done: func(t testing.TB, n *testenv.N8N) string {
			return n8nExactly(t, n, func(s testenv.N8NState) {
				s["users"][testenv.N8NEmail] = map[string]string{"firstName": testenv.N8NFirstName, "lastName": n8nNewLastName}
			})
		},
		do:   func(t testing.TB, b *testenv.N8NBrowser) { b.UpdateMe(t, testenv.N8NFirstName, n8nNewLastName) },
		miss: func(t testing.TB, b *testenv.N8NBrowser) { b.UpdateMe(t, testenv.N8NFirstName, "Ortiz") },
	},
	{
		name: "create a Header Auth credential",
		phrasings: [3]string{
			`{signin}, click the arrow next to "Create workflow", click "Create credential", type "Header Auth" into "Search for app...", click "Header Auth", click "Continue", click "Header Auth account", type "CRM API Key", press Enter, type "X-API-Key" into "Name", type "crm-4821-token" into "Value", click "Save"`,
			`{signin}, then add a new Header Auth credential named CRM API Key (Create credential, pick Header Auth, Continue), with Name X-API-Key and Value crm-4821-token, and save it`,
			`{signin} We need a credential for the CRM. From the Overview page create a new credential (the menu beside Create workflow has "Create credential"), search for Header Auth, select it and press Continue. Rename it from "Header Auth account" to CRM API Key by clicking its name at the top, fill the Name field with X-API-Key and the Value field with crm-4821-token, and hit Save.`,
		},
		done: func(t testing.TB, n *testenv.N8N) string {
			return n8nExactly(t, n, func(s testenv.N8NState) {
				s["credentials"][n8nCredential] = map[string]string{"type": "httpHeaderAuth", "global": "*"}
			})
		},
		do:   func(t testing.TB, b *testenv.N8NBrowser) { n8nHeaderAuth(t, b, n8nCredential) },
		miss: func(t testing.TB, b *testenv.N8NBrowser) { n8nHeaderAuth(t, b, "CRM API Token") },
	},
	{
		name: "search the workflows and duplicate one",
		phrasings: [3]string{
			`{signin}, type "Backup" into "Search", click the "..." menu in the row of "Nightly Backup (Staging)", click "Duplicate", type "Nightly Backup (QA)" into "Enter workflow name", click "Duplicate"`,
			`{signin}, search the workflows for Backup and duplicate Nightly Backup (Staging) (its three-dot menu → Duplicate) under the name Nightly Backup (QA)`,
			`{signin} Type Backup in the search box above the workflow list. Of the workflows it finds, open the three-dot menu of Nightly Backup (Staging), not the Production one, and choose Duplicate. In the Duplicate Workflow dialog replace the suggested name with "Nightly Backup (QA)", keep the tags, and press Duplicate.`,
		},
		done: func(t testing.TB, n *testenv.N8N) string {
			return n8nExactly(t, n, func(s testenv.N8NState) {
				s["workflows"][n8nDuplicate] = map[string]string{"id": "*", "archived": "0", "active": "0", "folder": "",
					"tags": "*", "nodes": s["workflows"]["Nightly Backup (Staging)"]["nodes"]}
			})
		},
		do: func(t testing.TB, b *testenv.N8NBrowser) {
			b.DuplicateWorkflow(t, "Nightly Backup (Staging)", n8nDuplicate)
		},
		miss: func(t testing.TB, b *testenv.N8NBrowser) {
			b.DuplicateWorkflow(t, "Nightly Backup (Production)", n8nDuplicate)
		},
	},
}

// n8nExactly says whether the database holds the seed changed by change and nothing else
// (a row set to nil is one gone; a new row's columns not named are not checked).
func n8nExactly(t testing.TB, n *testenv.N8N, change func(testenv.N8NState)) string {
	changes := testenv.N8NState{}
	for table := range n.Seed() {
		changes[table] = map[string]map[string]string{}
	}
	seed := n.Seed()
	change(seed)
	for table, rows := range seed {
		for key, row := range rows {
			changes[table][key] = row
		}
	}
	return n.Differs(t, changes)
}

// n8nHeaderAuth saves a Header Auth credential named name with the goal's header name and
// value, as the credential dialog does.
func n8nHeaderAuth(t testing.TB, b *testenv.N8NBrowser, name string) {
	b.CreateCredential(t, name, "httpHeaderAuth", map[string]any{"name": "X-API-Key", "value": "crm-4821-token"})
}
