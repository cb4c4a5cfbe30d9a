package testenv

import (
	"encoding/json"
	"net/http"
	"testing"
)

// The requests the editor's pages send for what the goals do, each as the page sends it
// once its form is filled in and its button pressed.

// CreateWorkflow saves a new workflow named name with no nodes in the owner's personal
// space, as the editor does when Create workflow is pressed, the new workflow renamed from
// "My workflow" and saved.
func (b *N8NBrowser) CreateWorkflow(t testing.TB, name string) {
	t.Helper()
	b.Call(t, http.MethodPost, "/workflows", map[string]any{
		"name": name, "nodes": []any{}, "connections": map[string]any{},
		"settings": map[string]any{"executionOrder": "v1"}, "active": false,
	})
}

// RenameWorkflow renames the workflow named from to to, as the editor does when the name
// at its top is clicked, the new name typed and Enter pressed.
func (b *N8NBrowser) RenameWorkflow(t testing.TB, from, to string) {
	t.Helper()
	w := b.Workflow(t, from)
	b.Call(t, http.MethodPatch, "/workflows/"+w.ID, map[string]any{
		"name": to, "versionId": w.VersionID, "expectedChecksum": w.Checksum,
	})
}

// AddTag adds the tag named tag to the tags of the workflow named name, as the editor's
// Edit description and tags dialog does when the tag is picked and Save pressed (it sends
// the description as it is, and every tag).
func (b *N8NBrowser) AddTag(t testing.TB, name, tag string) {
	t.Helper()
	w := b.Workflow(t, name)
	ids := []string{b.TagID(t, tag)}
	for _, tg := range w.Tags {
		ids = append(ids, tg.ID)
	}
	description := ""
	if w.Description != nil {
		description = *w.Description
	}
	b.Call(t, http.MethodPatch, "/workflows/"+w.ID, map[string]any{
		"versionId": w.VersionID, "description": description, "tags": ids, "expectedChecksum": w.Checksum,
	})
}

// ArchiveWorkflow archives the workflow named name, as the workflow list's menu does when
// Archive is chosen and confirmed.
func (b *N8NBrowser) ArchiveWorkflow(t testing.TB, name string) {
	t.Helper()
	w := b.Workflow(t, name)
	b.Call(t, http.MethodPost, "/workflows/"+w.ID+"/archive", map[string]any{"expectedChecksum": w.Checksum})
}

// DuplicateWorkflow saves a copy of the workflow named name under the name to, with its
// nodes, connections, settings and tags, as the Duplicate Workflow dialog does when its
// name is filled in and Duplicate pressed.
func (b *N8NBrowser) DuplicateWorkflow(t testing.TB, name, to string) {
	t.Helper()
	w := b.Workflow(t, name)
	nodes := make([]map[string]any, len(w.Nodes))
	for i, raw := range w.Nodes {
		if err := json.Unmarshal(raw, &nodes[i]); err != nil {
			t.Fatal(err)
		}
		delete(nodes[i], "id") // the dialog asks for new node ids
	}
	tags := []string{}
	for _, tg := range w.Tags {
		tags = append(tags, tg.ID)
	}
	copied := map[string]any{
		"name": to, "nodes": nodes, "connections": w.Connections, "settings": w.Settings, "tags": tags, "active": false,
	}
	if w.HomeProject.ID != "" {
		copied["projectId"] = w.HomeProject.ID
	}
	b.Call(t, http.MethodPost, "/workflows", copied)
}

// UpdateMe saves the signed-in user's first and last name, as Settings > Personal does
// when they are changed and Save pressed.
func (b *N8NBrowser) UpdateMe(t testing.TB, first, last string) {
	t.Helper()
	b.Call(t, http.MethodPatch, "/me", map[string]any{"firstName": first, "lastName": last})
}

// CreateCredential saves a new credential named name of the type kind (n8n's name for it,
// e.g. httpHeaderAuth for Header Auth) with its fields data, in the owner's personal space,
// as the credential dialog does when its fields are filled in and Save pressed.
func (b *N8NBrowser) CreateCredential(t testing.TB, name, kind string, data map[string]any) {
	t.Helper()
	b.Call(t, http.MethodPost, "/credentials", map[string]any{"name": name, "type": kind, "data": data})
}
