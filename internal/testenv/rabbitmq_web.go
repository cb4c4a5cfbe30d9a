package testenv

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// RabbitMQBrowser uses a RabbitMQ node's management UI as a person's browser does: the
// page, its login form (which keeps the user and password in a cookie and sends them as
// Basic authorization on each request), then the HTTP API requests its forms send, each
// body the form's fields as the page's scripts gather them. It is how the seed is made
// and how the judge's own test makes each goal's effect without the agent.
type RabbitMQBrowser struct {
	w    *RabbitMQ
	auth string // the Authorization header the page sends once signed in
}

// Browser is a browser on the login page that has not signed in yet.
func (w *RabbitMQ) Browser() *RabbitMQBrowser { return &RabbitMQBrowser{w: w} }

// SignIn loads the UI's page, fills its login form with the administrator's user and
// password and clicks Login: the page asks whoami with them, which must let them in.
func (b *RabbitMQBrowser) SignIn(t testing.TB) {
	t.Helper()
	resp, err := http.Get(b.w.URL)
	if err != nil {
		t.Fatalf("rabbitmq: GET %s: %v", b.w.URL, err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "<title>RabbitMQ Management</title>") {
		t.Fatalf("rabbitmq: the management UI answered %d:\n%s", resp.StatusCode, page)
	}
	b.auth = "Basic " + base64.StdEncoding.EncodeToString([]byte(RabbitMQUser+":"+RabbitMQPassword))
	var who struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(b.Call(t, http.MethodGet, "/whoami", nil), &who); err != nil || who.Name != RabbitMQUser {
		t.Fatalf("rabbitmq: whoami after signing in: %v %+v", err, who)
	}
}

// do sends one API request as the page does (a JSON body, the Authorization header) and
// returns the status and the answer's body.
func (b *RabbitMQBrowser) do(method, path string, body any) (int, []byte, error) {
	var in io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		in = strings.NewReader(string(data))
	}
	req, err := http.NewRequest(method, b.w.API+path, in)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if b.auth != "" {
		req.Header.Set("Authorization", b.auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, out, err
}

// Call sends one API request as the page's scripts do and returns the answer's body; an
// answer other than 2xx fails the test.
func (b *RabbitMQBrowser) Call(t testing.TB, method, path string, body any) []byte {
	t.Helper()
	code, out, err := b.do(method, path, body)
	if err != nil {
		t.Fatalf("rabbitmq: %s %s: %v", method, path, err)
	}
	if code < 200 || code > 299 {
		t.Fatalf("rabbitmq: %s %s answered %d: %s", method, path, code, out)
	}
	return out
}

// rabbitmqEsc is a name as the page puts it into an API path (the default virtual host "/" is %2F).
func rabbitmqEsc(name string) string { return url.PathEscape(name) }

// AddVHost fills Admin → Virtual Hosts → "Add a new virtual host" (Name, Description, Tags
// left empty, Default Queue Type left at Classic) and clicks "Add virtual host".
func (b *RabbitMQBrowser) AddVHost(t testing.TB, name, description string) {
	t.Helper()
	b.Call(t, http.MethodPut, "/vhosts/"+rabbitmqEsc(name),
		map[string]any{"name": name, "description": description, "tags": "", "defaultqueuetype": "classic"})
}

// AddUser fills Admin → Users → "Add a user" (Username, Password twice, Tags) and clicks
// "Add user".
func (b *RabbitMQBrowser) AddUser(t testing.TB, name, password, tags string) {
	t.Helper()
	b.Call(t, http.MethodPut, "/users/"+rabbitmqEsc(name), map[string]any{"username": name, "password": password, "tags": tags})
}

// SetPermission fills "Set permission" on a user's page (Virtual Host, Configure regexp,
// Write regexp, Read regexp) and clicks "Set permission".
func (b *RabbitMQBrowser) SetPermission(t testing.TB, user, vhost, configure, write, read string) {
	t.Helper()
	b.Call(t, http.MethodPut, "/permissions/"+rabbitmqEsc(vhost)+"/"+rabbitmqEsc(user),
		map[string]any{"username": user, "vhost": vhost, "configure": configure, "write": write, "read": read})
}

// AddQueue fills Queues → "Add a new queue" (Virtual host, Type Classic, Name, Durability,
// Auto delete No, no arguments) and clicks "Add queue".
func (b *RabbitMQBrowser) AddQueue(t testing.TB, vhost, name string, durable bool) {
	t.Helper()
	b.Call(t, http.MethodPut, "/queues/"+rabbitmqEsc(vhost)+"/"+rabbitmqEsc(name), map[string]any{"vhost": vhost, "name": name,
		"durable": boolText(durable), "auto_delete": "false", "arguments": map[string]any{"x-queue-type": "classic"}})
}

// Publish fills a queue page's "Publish message" (Delivery mode left at 1 - Non-persistent,
// Payload, Payload encoding String) and clicks "Publish message": the message goes to the
// default exchange with the queue's name as its routing key. It fails the test when the
// node routed it nowhere.
func (b *RabbitMQBrowser) Publish(t testing.TB, vhost, queue, payload string) {
	t.Helper()
	out := b.Call(t, http.MethodPost, "/exchanges/"+rabbitmqEsc(vhost)+"/amq.default/publish", map[string]any{
		"vhost": vhost, "name": "amq.default", "routing_key": queue, "delivery_mode": "1", "headers": map[string]any{},
		"props": map[string]any{}, "payload": payload, "payload_encoding": "string",
		"properties": map[string]any{"delivery_mode": 1, "headers": map[string]any{}}})
	var routed struct {
		Routed bool `json:"routed"`
	}
	if err := json.Unmarshal(out, &routed); err != nil || !routed.Routed {
		t.Fatalf("rabbitmq: publishing to %s/%s: %v %s", vhost, queue, err, out)
	}
}

// Purge clicks "Purge Messages" on a queue's page and confirms.
func (b *RabbitMQBrowser) Purge(t testing.TB, vhost, queue string) {
	t.Helper()
	b.Call(t, http.MethodDelete, "/queues/"+rabbitmqEsc(vhost)+"/"+rabbitmqEsc(queue)+"/contents",
		map[string]any{"vhost": vhost, "name": queue, "mode": "purge"})
}

// DeleteQueue clicks "Delete Queue" on a queue's page and confirms.
func (b *RabbitMQBrowser) DeleteQueue(t testing.TB, vhost, queue string) {
	t.Helper()
	b.Call(t, http.MethodDelete, "/queues/"+rabbitmqEsc(vhost)+"/"+rabbitmqEsc(queue),
		map[string]any{"vhost": vhost, "name": queue, "mode": "delete"})
}

// AddExchange fills Exchanges → "Add a new exchange" (Virtual host, Name, Type, Durability
// Durable, Auto delete No, Internal No) and clicks "Add exchange".
func (b *RabbitMQBrowser) AddExchange(t testing.TB, vhost, name, kind string) {
	t.Helper()
	b.Call(t, http.MethodPut, "/exchanges/"+rabbitmqEsc(vhost)+"/"+rabbitmqEsc(name), map[string]any{"vhost": vhost, "name": name,
		"type": kind, "durable": "true", "auto_delete": "false", "internal": "false", "arguments": map[string]any{}})
}

// Bind fills an exchange page's "Add binding from this exchange" ("To queue" or "To
// exchange": destType "q" or "e", the destination's name, Routing key) and clicks "Bind".
func (b *RabbitMQBrowser) Bind(t testing.TB, vhost, source, destType, dest, key string) {
	t.Helper()
	b.Call(t, http.MethodPost, "/bindings/"+rabbitmqEsc(vhost)+"/e/"+rabbitmqEsc(source)+"/"+destType+"/"+rabbitmqEsc(dest), map[string]any{
		"vhost": vhost, "source": source, "destination_type": destType, "destination": dest, "routing_key": key,
		"arguments": map[string]any{}})
}

func boolText(v bool) string {
	if v {
		return "true"
	}
	return "false"
}
