package testenv

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TemporalUIBrowser sends what the Web UI's pages send: it opens a page (which sets the
// UI's _csrf cookie), then calls the UI server's /api/v1 as the page's scripts do, with the
// cookie's token in X-CSRF-TOKEN and the Caller-Type header, the bodies as the UI's
// services write them (a terminate's reason followed by "Terminated from the Web UI", a
// signal's input as one json/plain payload, a schedule's pause note as its patch). It is
// how the harness's own test does each goal's effect without the agent.
type TemporalUIBrowser struct {
	u *TemporalUI
	c *http.Client
}

// Browser is a browser that has opened nothing yet.
func (u *TemporalUI) Browser() *TemporalUIBrowser {
	jar, _ := cookiejar.New(nil)
	return &TemporalUIBrowser{u: u, c: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
}

// Open fetches a page of the UI (a path from its root) and returns it; an answer other than
// 200 fails the test.
func (b *TemporalUIBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	resp, err := b.c.Get(b.u.URL + path)
	if err != nil {
		t.Fatalf("temporalui: GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("temporalui: GET %s answered %d: %s", path, resp.StatusCode, body)
	}
	return string(body)
}

// API calls the UI server's API at path (after /api/v1, the namespace's part filled in for
// {ns}) as a page's script does, and returns the answer's JSON; an answer other than 200
// fails the test.
func (b *TemporalUIBrowser) API(t testing.TB, method, path string, query url.Values, body any) map[string]any {
	t.Helper()
	u := b.u.URL + "/api/v1" + strings.ReplaceAll(path, "{ns}", url.PathEscape(b.u.Namespace))
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var in io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		in = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, u, in)
	req.Header.Set("Caller-Type", "operator")
	req.Header.Set("Content-Type", "application/json")
	base, _ := url.Parse(b.u.URL)
	for _, c := range b.c.Jar.Cookies(base) {
		if c.Name == "_csrf" {
			req.Header.Set("X-CSRF-TOKEN", c.Value)
		}
	}
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatalf("temporalui: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("temporalui: %s %s answered %d: %s", method, path, resp.StatusCode, raw)
	}
	out := map[string]any{}
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("temporalui: %s %s answered no JSON: %s", method, path, raw)
		}
	}
	return out
}

// temporaluiWorkflowPath is a workflow's part of the API's paths (its ID encoded twice, as the UI's
// routes encode it).
func temporaluiWorkflowPath(id string) string {
	return "/namespaces/{ns}/workflows/" + url.PathEscape(url.PathEscape(id))
}

// Find lists the namespace's workflows as the workflows page does with a filter (a List
// Filter query such as WorkflowId="order-1041") and returns their IDs.
func (b *TemporalUIBrowser) Find(t testing.TB, query string) []string {
	t.Helper()
	out := b.API(t, http.MethodGet, "/namespaces/{ns}/workflows", url.Values{"query": {query}}, nil)
	var ids []string
	for _, e := range temporaluiList(out["executions"]) {
		ids = append(ids, fmt.Sprint(temporaluiMap(temporaluiMap(e)["execution"])["workflowId"]))
	}
	return ids
}

// OpenWorkflow opens the workflow's page, as a click on its ID in the list does, and returns its
// latest run's ID as the page reads it.
func (b *TemporalUIBrowser) OpenWorkflow(t testing.TB, id string) string {
	t.Helper()
	b.Open(t, "/namespaces/"+b.u.Namespace+"/workflows/"+url.PathEscape(id))
	out := b.API(t, http.MethodGet, temporaluiWorkflowPath(id), nil, nil)
	run := fmt.Sprint(temporaluiMap(temporaluiMap(out["workflowExecutionInfo"])["execution"])["runId"])
	if run == "" || run == "<nil>" {
		t.Fatalf("temporalui: the workflow %s has no run: %v", id, out)
	}
	return run
}

// Terminate terminates the workflow with a reason, as its Terminate dialog does.
func (b *TemporalUIBrowser) Terminate(t testing.TB, id, reason string) {
	t.Helper()
	run := b.OpenWorkflow(t, id)
	b.API(t, http.MethodPost, temporaluiWorkflowPath(id)+"/terminate", url.Values{"execution.runId": {run}},
		map[string]any{"reason": strings.TrimSpace(strings.TrimSpace(reason) + " Terminated from the Web UI")})
}

// RequestCancellation requests the workflow's cancellation, as its Request Cancellation
// button's dialog does.
func (b *TemporalUIBrowser) RequestCancellation(t testing.TB, id string) {
	t.Helper()
	run := b.OpenWorkflow(t, id)
	b.API(t, http.MethodPost, temporaluiWorkflowPath(id)+"/cancel", url.Values{"execution.runId": {run}}, nil)
}

// Signal sends the workflow the signal name with input (JSON text, as typed into the
// dialog's Data), as its Send a Signal dialog does.
func (b *TemporalUIBrowser) Signal(t testing.TB, id, name, input string) {
	t.Helper()
	run := b.OpenWorkflow(t, id)
	b.API(t, http.MethodPost, temporaluiWorkflowPath(id)+"/signal/"+url.PathEscape(url.PathEscape(name)), nil, map[string]any{
		"signalName":        name,
		"workflowExecution": map[string]any{"workflowId": id, "runId": run},
		"input":             map[string]any{"payloads": []any{temporaluiPayload(t, input)}},
	})
}

// StartWorkflow starts a workflow as the Start a Workflow page does (input "" for none).
func (b *TemporalUIBrowser) StartWorkflow(t testing.TB, id, queue, workflowType, input string) {
	t.Helper()
	b.Open(t, "/namespaces/"+b.u.Namespace+"/workflows/start-workflow")
	body := map[string]any{"workflowId": id, "taskQueue": map[string]any{"name": queue},
		"workflowType": map[string]any{"name": workflowType}, "input": nil, "userMetadata": map[string]any{}}
	if input != "" {
		body["input"] = map[string]any{"payloads": []any{temporaluiPayload(t, input)}}
	}
	b.API(t, http.MethodPost, temporaluiWorkflowPath(id), nil, body)
}

// temporaluiPayload is JSON text as the UI encodes it: one json/plain payload.
func temporaluiPayload(t testing.TB, input string) map[string]any {
	var v any
	if err := json.Unmarshal([]byte(input), &v); err != nil {
		t.Fatalf("temporalui: %q is no JSON: %v", input, err)
	}
	raw, _ := json.Marshal(v)
	enc := base64.StdEncoding.EncodeToString
	return map[string]any{"metadata": map[string]any{"encoding": enc([]byte("json/plain"))}, "data": enc(raw)}
}

// patchSchedule opens the schedule's page and sends a patch, as its Pause, Unpause and
// Trigger dialogs do.
func (b *TemporalUIBrowser) patchSchedule(t testing.TB, id string, patch map[string]any) {
	t.Helper()
	b.Open(t, "/namespaces/"+b.u.Namespace+"/schedules/"+url.PathEscape(id))
	b.API(t, http.MethodGet, "/namespaces/{ns}/schedules/"+url.PathEscape(url.PathEscape(id)), nil, nil)
	b.API(t, http.MethodPost, "/namespaces/{ns}/schedules/"+url.PathEscape(url.PathEscape(id))+"/patch", nil,
		map[string]any{"patch": patch, "request_id": temporaluiRequestID()})
}

// PauseSchedule pauses the schedule with a note (the dialog's Reason).
func (b *TemporalUIBrowser) PauseSchedule(t testing.TB, id, reason string) {
	t.Helper()
	b.patchSchedule(t, id, map[string]any{"pause": reason})
}

// UnpauseSchedule unpauses the schedule with a note.
func (b *TemporalUIBrowser) UnpauseSchedule(t testing.TB, id, reason string) {
	t.Helper()
	b.patchSchedule(t, id, map[string]any{"unpause": reason})
}

// TriggerSchedule runs the schedule's action now with the schedule's overlap policy (the
// Trigger Immediately dialog's first choice, Use Policy).
func (b *TemporalUIBrowser) TriggerSchedule(t testing.TB, id string) {
	t.Helper()
	b.patchSchedule(t, id, map[string]any{"triggerImmediately": map[string]any{"overlapPolicy": "SCHEDULE_OVERLAP_POLICY_UNSPECIFIED"}})
}

// DeleteSchedule deletes the schedule, as its Delete dialog does.
func (b *TemporalUIBrowser) DeleteSchedule(t testing.TB, id string) {
	t.Helper()
	b.Open(t, "/namespaces/"+b.u.Namespace+"/schedules/"+url.PathEscape(id))
	b.API(t, http.MethodDelete, "/namespaces/{ns}/schedules/"+url.PathEscape(url.PathEscape(id)), nil, nil)
}

// temporaluiRequestID is a random UUID, as the UI gives each schedule patch.
func temporaluiRequestID() string {
	var r [16]byte
	_, _ = rand.Read(r[:])
	r[6], r[8] = r[6]&0x0f|0x40, r[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", r[0:4], r[4:6], r[6:8], r[8:10], r[10:])
}

// temporaluiMap and temporaluiList read decoded JSON.
func temporaluiMap(v any) map[string]any { m, _ := v.(map[string]any); return m }
func temporaluiList(v any) []any         { l, _ := v.([]any); return l }
