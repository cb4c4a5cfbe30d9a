package testenv

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
)

// N8NSeedWorkflow is a workflow of the seed: its name, its tags' names, and the name of
// its one step after its manual trigger (a No Operation node standing for the work).
type N8NSeedWorkflow struct {
	Name string
	Tags []string
	Step string
}

// N8NSeedCredential is a credential of the seed: its name, its type (n8n's name for it)
// and its fields.
type N8NSeedCredential struct {
	Name, Type string
	Data       map[string]any
}

// N8NTrigger is the name of each seeded workflow's first node, its manual trigger.
const N8NTrigger = "Manual Trigger"

// The seed every instance starts from, besides the owner: a small company's automations,
// in pairs alike enough for a near miss (two invoice syncs, two weekly reports, two
// nightly backups, two newsletter drafts), their tags, and two credentials.
var (
	N8NSeedTags      = []string{"finance", "reports", "marketing", "ops"}
	N8NSeedWorkflows = []N8NSeedWorkflow{
		{"Invoice Sync (EU)", []string{"finance"}, "Fetch EU invoices"},
		{"Invoice Sync (US)", []string{"finance"}, "Fetch US invoices"},
		{"Weekly Sales Report", []string{"reports"}, "Build sales summary"},
		{"Weekly Marketing Report", []string{"reports", "marketing"}, "Build campaign summary"},
		{"Nightly Backup (Staging)", []string{"ops"}, "Copy staging database"},
		{"Nightly Backup (Production)", []string{"ops"}, "Copy production database"},
		{"Newsletter Draft 2023", []string{"marketing"}, "Collect articles"},
		{"Newsletter Draft 2024", []string{"marketing"}, "Collect articles"},
	}
	N8NSeedCredentials = []N8NSeedCredential{
		{"Billing API Key", "httpHeaderAuth", map[string]any{"name": "X-Billing-Key", "value": "billing-7731-seed"}},
		{"Intranet Login", "httpBasicAuth", map[string]any{"user": "automation", "password": "Intranet-Seed-55"}},
	}
)

// seedAPI sets the owner up through n8n's setup API (as its setup page does), signs in as
// the owner and writes the seed through the REST API, as the editor's pages would, then
// keeps the database's state as the seed the judges compare with.
func (n *N8N) seedAPI(t testing.TB) {
	t.Helper()
	b := n.Browser()
	b.Call(t, http.MethodPost, "/owner/setup", map[string]any{
		"email": n.Email, "firstName": N8NFirstName, "lastName": N8NLastName, "password": n.Password,
	})
	b.SignIn(t)
	tags := map[string]string{}
	for _, name := range N8NSeedTags {
		var tag struct{ ID string }
		if err := json.Unmarshal(b.Call(t, http.MethodPost, "/tags", map[string]any{"name": name}), &tag); err != nil {
			t.Fatalf("n8n: the tag %s: %v", name, err)
		}
		tags[name] = tag.ID
	}
	for i, w := range N8NSeedWorkflows {
		ids := []string{}
		for _, tag := range w.Tags {
			ids = append(ids, tags[tag])
		}
		b.Call(t, http.MethodPost, "/workflows", n8nSeedWorkflow(i, w, ids))
	}
	for _, c := range N8NSeedCredentials {
		b.CreateCredential(t, c.Name, c.Type, c.Data)
	}
	n.seed = n.State(t)
	if got := len(n.seed["workflows"]); got != len(N8NSeedWorkflows) {
		t.Fatalf("n8n: the seed holds %d workflows, not %d", got, len(N8NSeedWorkflows))
	}
}

// n8nSeedWorkflow is the seed's i-th workflow as the editor saves it: its manual trigger
// connected to its step, and its tags' ids.
func n8nSeedWorkflow(i int, w N8NSeedWorkflow, tags []string) map[string]any {
	node := func(j int, name, kind string, x int) map[string]any {
		return map[string]any{"id": fmt.Sprintf("5eed0000-0000-4000-8000-%012d", i*10+j), "name": name,
			"type": kind, "typeVersion": 1, "position": []int{x, 0}, "parameters": map[string]any{}}
	}
	return map[string]any{
		"name": w.Name, "active": false, "tags": tags, "settings": map[string]any{"executionOrder": "v1"},
		"nodes": []any{node(1, N8NTrigger, "n8n-nodes-base.manualTrigger", 0), node(2, w.Step, "n8n-nodes-base.noOp", 220)},
		"connections": map[string]any{N8NTrigger: map[string]any{
			"main": []any{[]any{map[string]any{"node": w.Step, "type": "main", "index": 0}}},
		}},
	}
}
