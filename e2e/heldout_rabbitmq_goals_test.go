//go:build heldout

package e2e

import (
	"sort"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// rabbitmqGoal is an everyday goal on RabbitMQ's management UI, written three ways as a
// person writes it from what the pages show ({signin} is filled in per phrasing); done
// reads what the node holds (through the management HTTP API) and says "" when the goal's
// effect is there and nothing else changed (virtual hosts, users and their tags,
// permissions, queues and their messages, exchanges, bindings, policies), else what it
// found; do makes the effect through the API requests the UI's own forms send, signed
// in, and miss a near miss the judge must not take for it (what a run gone a little wrong
// leaves: the neighbouring queue or virtual host, a field left out, another tag or key,
// the other button).
type rabbitmqGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.RabbitMQ) string
	do, miss  func(t testing.TB, w *testenv.RabbitMQ, b *testenv.RabbitMQBrowser)
}

const (
	rabbitmqVHostNote    = "Invoices and payments"
	rabbitmqNewPassword  = "Hopper-1906"
	rabbitmqPayload      = "order 1042 shipped"
	rabbitmqWriteRegexp  = "^ci-.*"
	rabbitmqBindingKey   = "order.created"
	rabbitmqFullRegexp   = ".*"
	rabbitmqDefaultVHost = "/"
)

var rabbitmqGoals = []rabbitmqGoal{
	{
		name: "add a virtual host",
		phrasings: [3]string{
			`{signin}, click "Admin", click "Virtual Hosts", click "Add a new virtual host", type "billing" into "Name", type "Invoices and payments" into "Description", click "Add virtual host"`,
			`{signin}, then open the Admin tab and Virtual Hosts, expand Add a new virtual host, fill the Name field with billing and Description with Invoices and payments, then press "Add virtual host"`,
			`Sign in: {signin}. Open the Admin tab and choose Virtual Hosts from the menu on the right. Click "Add a new virtual host" to open the form, type "billing" in the field labelled "Name" and "Invoices and payments" in the field labelled "Description", then click the "Add virtual host" button and check that "billing" is listed.`,
		},
		done: func(t testing.TB, w *testenv.RabbitMQ) string {
			want := w.Seed()
			want["vhost billing"] = rabbitmqVHostNote
			// The UI's user is given full permissions on the virtual host it makes.
			want["permission "+testenv.RabbitMQUser+" on billing"] = rabbitmqPermission(rabbitmqFullRegexp)
			return w.Differs(want)
		},
		do: func(t testing.TB, w *testenv.RabbitMQ, b *testenv.RabbitMQBrowser) {
			b.AddVHost(t, "billing", rabbitmqVHostNote)
		},
		miss: func(t testing.TB, w *testenv.RabbitMQ, b *testenv.RabbitMQBrowser) {
			b.AddVHost(t, "billing", "")
		},
	},
	{
		name: "add a user with a tag",
		phrasings: [3]string{
			`{signin}, click "Admin", click "Add a user", type "grace" into "Username", type "Hopper-1906" into "Password", type "Hopper-1906" into the "(confirm)" field, type "monitoring" into "Tags", click "Add user"`,
			`{signin}, then go to Admin, open Add a user and fill Username with grace; fill Password with Hopper-1906 and the (confirm) field with Hopper-1906 as well, press the Monitoring link next to Tags and press Add user`,
			`Sign in first: {signin}. Go to the Admin tab and click "Add a user". Type grace in the field labelled "Username". Type Hopper-1906 in the Password field, and type Hopper-1906 once more in the "(confirm)" field. Under Tags, click the "Monitoring" link. Finally click the "Add user" button.`,
		},
		done: func(t testing.TB, w *testenv.RabbitMQ) string {
			want := w.Seed()
			want["user grace"] = "monitoring"
			if why := w.Differs(want); why != "" {
				return why
			}
			if !w.SignsIn("grace", rabbitmqNewPassword) {
				return "grace cannot sign in with " + rabbitmqNewPassword
			}
			return ""
		},
		do: func(t testing.TB, w *testenv.RabbitMQ, b *testenv.RabbitMQBrowser) {
			b.AddUser(t, "grace", rabbitmqNewPassword, "monitoring")
		},
		miss: func(t testing.TB, w *testenv.RabbitMQ, b *testenv.RabbitMQBrowser) {
			b.AddUser(t, "grace", rabbitmqNewPassword, "management")
		},
	},
	{
		name: "set a user's permissions on a vhost",
		phrasings: [3]string{
			`{signin}, click "Admin", click "ci-bot", select "staging" in "Virtual Host", type "^ci-.*" into "Write regexp", click "Set permission"`,
			`{signin}, then open Admin and click the user ci-bot, then select staging in the Virtual Host list under Set permission, change Write regexp to ^ci-.* and press "Set permission"`,
			`Sign in: {signin}. Click the Admin tab, then click "ci-bot". In the "Set permission" section, select "staging" in the field labelled "Virtual Host". Replace the text in the field labelled "Write regexp" with ^ci-.* and click the Set permission button.`,
		},
		done: func(t testing.TB, w *testenv.RabbitMQ) string {
			want := w.Seed()
			want["permission ci-bot on staging"] = "configure .*, write " + rabbitmqWriteRegexp + ", read .*"
			return w.Differs(want)
		},
		do: func(t testing.TB, w *testenv.RabbitMQ, b *testenv.RabbitMQBrowser) {
			b.SetPermission(t, "ci-bot", "staging", rabbitmqFullRegexp, rabbitmqWriteRegexp, rabbitmqFullRegexp)
		},
		miss: func(t testing.TB, w *testenv.RabbitMQ, b *testenv.RabbitMQBrowser) {
			// The virtual host left at the drop-down's first choice.
			b.SetPermission(t, "ci-bot", rabbitmqDefaultVHost, rabbitmqFullRegexp, rabbitmqWriteRegexp, rabbitmqFullRegexp)
		},
	},
	{
		name: "add a queue to a vhost",
		phrasings: [3]string{
			`{signin}, click "Queues", click "Add a new queue", select "staging" in "Virtual host", type "payments" into "Name", click "Add queue"`,
			`{signin}, then go to the Queues tab, open Add a new queue, pick staging as the Virtual host, enter payments as the Name and press Add queue`,
			`Sign in: {signin}. Open the Queues tab and click "Add a new queue". Select staging in the field labelled "Virtual host", type "payments" in the field labelled "Name" and click the "Add queue" button. Then check that "payments" is listed.`,
		},
		done: func(t testing.TB, w *testenv.RabbitMQ) string {
			want := w.Seed()
			want["queue payments in staging"] = `durable true, auto delete false, arguments {"x-queue-type":"classic"}`
			want["messages of payments in staging"] = ""
			return w.Differs(want)
		},
		do: func(t testing.TB, w *testenv.RabbitMQ, b *testenv.RabbitMQBrowser) {
			b.AddQueue(t, "staging", "payments", true)
		},
		miss: func(t testing.TB, w *testenv.RabbitMQ, b *testenv.RabbitMQBrowser) {
			b.AddQueue(t, rabbitmqDefaultVHost, "payments", true)
		},
	},
	{
		name: "publish a message to a queue",
		phrasings: [3]string{
			`{signin}, click "Queues", click "orders", click "Publish message", type "order 1042 shipped" into "Payload", click the "Publish message" button`,
			`{signin}, then open the Queues tab and the queue orders, expand Publish message, fill Payload with order 1042 shipped and press the Publish message button`,
			`Sign in: {signin}. Click the Queues tab, then click "orders". Scroll down to the "Publish message" section and open it, write "order 1042 shipped" in the field labelled "Payload" and click the "Publish message" button. Check that "Message published." is shown.`,
		},
		done: func(t testing.TB, w *testenv.RabbitMQ) string {
			want := w.Seed()
			want["messages of orders in /"] = rabbitmqPayloads("orders", rabbitmqPayload)
			return w.Differs(want)
		},
		do: func(t testing.TB, w *testenv.RabbitMQ, b *testenv.RabbitMQBrowser) {
			b.Publish(t, rabbitmqDefaultVHost, "orders", rabbitmqPayload)
		},
		miss: func(t testing.TB, w *testenv.RabbitMQ, b *testenv.RabbitMQBrowser) {
			b.Publish(t, rabbitmqDefaultVHost, "invoices", rabbitmqPayload)
		},
	},
	{
		name: "purge a queue",
		phrasings: [3]string{
			`{signin}, click "Queues", click "invoices", click "Purge", click "Purge Messages" and confirm`,
			`{signin}, then open Queues and then the invoices queue, expand Purge, press the Purge Messages button and accept the confirmation`,
			`Sign in: {signin}. Click the Queues tab and open "invoices". Scroll down and click "Purge" to open that section, then click the "Purge Messages" button. Accept the confirmation.`,
		},
		done: func(t testing.TB, w *testenv.RabbitMQ) string {
			want := w.Seed()
			want["messages of invoices in /"] = ""
			return w.Differs(want)
		},
		do: func(t testing.TB, w *testenv.RabbitMQ, b *testenv.RabbitMQBrowser) {
			b.Purge(t, rabbitmqDefaultVHost, "invoices")
		},
		miss: func(t testing.TB, w *testenv.RabbitMQ, b *testenv.RabbitMQBrowser) {
			// Delete Queue, the button beside it.
			b.DeleteQueue(t, rabbitmqDefaultVHost, "invoices")
		},
	},
	{
		name: "bind a queue to an exchange",
		phrasings: [3]string{
			`{signin}, click "Exchanges", click "events", click "Bindings", type "orders" into "To queue", type "order.created" into "Routing key", click "Bind"`,
			`{signin}, then open the Exchanges tab and the events exchange, expand Bindings, fill To queue with orders and Routing key with order.created and press Bind`,
			`Sign in: {signin}. Click the Exchanges tab, then click "events" and open the "Bindings" section. Under "Add binding from this exchange", type orders in the "To queue" field, type "order.created" in the field labelled "Routing key" and click the Bind button.`,
		},
		done: func(t testing.TB, w *testenv.RabbitMQ) string {
			want := w.Seed()
			want[`binding of events in / to queue orders with "`+rabbitmqBindingKey+`"`] = "arguments {}"
			return w.Differs(want)
		},
		do: func(t testing.TB, w *testenv.RabbitMQ, b *testenv.RabbitMQBrowser) {
			b.Bind(t, rabbitmqDefaultVHost, "events", "q", "orders", rabbitmqBindingKey)
		},
		miss: func(t testing.TB, w *testenv.RabbitMQ, b *testenv.RabbitMQBrowser) {
			b.Bind(t, rabbitmqDefaultVHost, "events", "q", "orders", "order.*")
		},
	},
}

// rabbitmqPermission is a permission's value in the judges' state with one regexp for
// configure, write and read.
func rabbitmqPermission(re string) string {
	return "configure " + re + ", write " + re + ", read " + re
}

// rabbitmqPayloads is what the judges' state holds for a seed queue's messages with more
// published to it: the payloads sorted and joined.
func rabbitmqPayloads(queue string, more ...string) string {
	var all []string
	for _, q := range testenv.RabbitMQSeedQueues {
		if q.Name == queue {
			all = append(all, q.Messages...)
		}
	}
	all = append(all, more...)
	sort.Strings(all)
	return strings.Join(all, " | ")
}
