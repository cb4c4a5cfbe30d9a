package testenv

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// RabbitMQState is what a node holds, flattened for the judges: one entry a thing, its key
// naming it ("vhost staging", "user ci-bot", "permission ci-bot on staging", "queue
// orders in /", "messages of orders in /", "exchange events in /", "binding of events in
// / to queue invoices with "invoice.#"", "policy NAME in /", "parameter …") and its value describing it (a virtual
// host's description, a user's tags, a queue's settings, a queue's messages' payloads
// sorted and joined with " | ", …). The built-in exchanges (the default one and amq.*)
// and the default exchange's implicit bindings are left out: no goal changes them.
type RabbitMQState map[string]string

// rabbitmqDefinitions is what GET /api/definitions answers (the parts the judges read).
type rabbitmqDefinitions struct {
	Users []struct {
		Name string          `json:"name"`
		Tags json.RawMessage `json:"tags"` // a list, or a comma-separated string
	} `json:"users"`
	Permissions []struct {
		User      string `json:"user"`
		VHost     string `json:"vhost"`
		Configure string `json:"configure"`
		Write     string `json:"write"`
		Read      string `json:"read"`
	} `json:"permissions"`
	TopicPermissions []map[string]any `json:"topic_permissions"`
	Parameters       []map[string]any `json:"parameters"`
	Policies         []struct {
		VHost      string         `json:"vhost"`
		Name       string         `json:"name"`
		Pattern    string         `json:"pattern"`
		ApplyTo    string         `json:"apply-to"`
		Priority   int            `json:"priority"`
		Definition map[string]any `json:"definition"`
	} `json:"policies"`
	Queues []struct {
		VHost      string         `json:"vhost"`
		Name       string         `json:"name"`
		Durable    bool           `json:"durable"`
		AutoDelete bool           `json:"auto_delete"`
		Arguments  map[string]any `json:"arguments"`
	} `json:"queues"`
	Exchanges []struct {
		VHost      string         `json:"vhost"`
		Name       string         `json:"name"`
		Type       string         `json:"type"`
		Durable    bool           `json:"durable"`
		AutoDelete bool           `json:"auto_delete"`
		Internal   bool           `json:"internal"`
		Arguments  map[string]any `json:"arguments"`
	} `json:"exchanges"`
	Bindings []struct {
		VHost           string         `json:"vhost"`
		Source          string         `json:"source"`
		Destination     string         `json:"destination"`
		DestinationType string         `json:"destination_type"`
		RoutingKey      string         `json:"routing_key"`
		Arguments       map[string]any `json:"arguments"`
	} `json:"bindings"`
}

// get asks the management API for path as the judge's signed-in session and decodes the
// answer into out.
func (w *RabbitMQ) get(path string, out any) error {
	code, body, err := w.judge.do(http.MethodGet, path, nil)
	if err != nil {
		return fmt.Errorf("GET %s: %v", path, err)
	}
	if code != http.StatusOK {
		return fmt.Errorf("GET %s answered %d: %s", path, code, body)
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("GET %s: %v: %s", path, err, body)
	}
	return nil
}

// State reads what the node holds through the management API: its definitions, its
// virtual hosts' descriptions and each queue's messages.
func (w *RabbitMQ) State() (RabbitMQState, error) {
	var defs rabbitmqDefinitions
	if err := w.get("/definitions", &defs); err != nil {
		return nil, err
	}
	var vhosts []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	if err := w.get("/vhosts", &vhosts); err != nil {
		return nil, err
	}
	s := RabbitMQState{}
	for _, v := range vhosts {
		s["vhost "+v.Name] = v.Description
	}
	for _, u := range defs.Users {
		s["user "+u.Name] = rabbitmqTags(u.Tags)
	}
	for _, p := range defs.Permissions {
		s["permission "+p.User+" on "+p.VHost] = fmt.Sprintf("configure %s, write %s, read %s", p.Configure, p.Write, p.Read)
	}
	for _, p := range defs.TopicPermissions {
		s["topic permission "+asJSON(p)] = "set"
	}
	for _, p := range defs.Parameters {
		s["parameter "+asJSON(p)] = "set"
	}
	for _, p := range defs.Policies {
		s["policy "+rabbitmqIn(p.VHost, p.Name)] = fmt.Sprintf("pattern %s, apply to %s, priority %d, definition %s", p.Pattern, p.ApplyTo, p.Priority, asJSON(p.Definition))
	}
	for _, e := range defs.Exchanges {
		s["exchange "+rabbitmqIn(e.VHost, e.Name)] = fmt.Sprintf("%s, durable %v, auto delete %v, internal %v, arguments %s", e.Type, e.Durable, e.AutoDelete, e.Internal, asJSON(e.Arguments))
	}
	for _, b := range defs.Bindings {
		s[fmt.Sprintf("binding of %s to %s %s with %q", rabbitmqIn(b.VHost, b.Source), b.DestinationType, b.Destination, b.RoutingKey)] = "arguments " + asJSON(b.Arguments)
	}
	for _, q := range defs.Queues {
		key := rabbitmqIn(q.VHost, q.Name)
		s["queue "+key] = fmt.Sprintf("durable %v, auto delete %v, arguments %s", q.Durable, q.AutoDelete, asJSON(q.Arguments))
		payloads, err := w.Messages(q.VHost, q.Name)
		if err != nil {
			return nil, err
		}
		sort.Strings(payloads)
		s["messages of "+key] = strings.Join(payloads, " | ")
	}
	return s, nil
}

// Messages are the payloads a queue holds, in its order, fetched as the queue page's "Get
// messages" does with "Nack message requeue true": each is put back where it was.
func (w *RabbitMQ) Messages(vhost, queue string) ([]string, error) {
	path := "/queues/" + rabbitmqEsc(vhost) + "/" + rabbitmqEsc(queue) + "/get"
	code, body, err := w.judge.do(http.MethodPost, path, map[string]any{"vhost": vhost, "name": queue,
		"count": 1000, "ackmode": "ack_requeue_true", "encoding": "auto", "truncate": 50000})
	if err != nil {
		return nil, fmt.Errorf("POST %s: %v", path, err)
	}
	if code != http.StatusOK {
		return nil, fmt.Errorf("POST %s answered %d: %s", path, code, body)
	}
	var got []struct {
		Payload string `json:"payload"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		return nil, fmt.Errorf("POST %s: %v: %s", path, err, body)
	}
	out := []string{}
	for _, m := range got {
		out = append(out, m.Payload)
	}
	return out, nil
}

// Differs says how the node's state differs from want, "" when it holds exactly that.
func (w *RabbitMQ) Differs(want RabbitMQState) string {
	got, err := w.State()
	if err != nil {
		return err.Error()
	}
	var diff []string
	for k := range merged(got, want) {
		g, inGot := got[k]
		v, inWant := want[k]
		switch {
		case !inGot:
			diff = append(diff, k+" is missing")
		case !inWant:
			diff = append(diff, fmt.Sprintf("%s is there (%s), unwanted", k, orNone(g)))
		case g != v:
			diff = append(diff, fmt.Sprintf("%s is %s, want %s", k, orNone(g), orNone(v)))
		}
	}
	sort.Strings(diff)
	return strings.Join(diff, "; ")
}

// rabbitmqTags is a user's tags, sorted and joined with commas: the definitions give a
// list (or, from older nodes, a comma-separated string).
func rabbitmqTags(raw json.RawMessage) string {
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		var one string
		_ = json.Unmarshal(raw, &one)
		list = nil
		for _, tag := range strings.Split(one, ",") {
			if tag = strings.TrimSpace(tag); tag != "" {
				list = append(list, tag)
			}
		}
	}
	sort.Strings(list)
	return strings.Join(list, ",")
}

// rabbitmqIn names a thing of a virtual host: "orders in /".
func rabbitmqIn(vhost, name string) string { return name + " in " + vhost }

// asJSON is v as JSON (a map's keys sorted).
func asJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
