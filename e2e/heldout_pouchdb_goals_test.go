//go:build heldout

package e2e

import (
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// pouchdbGoal is one everyday goal on PouchDB Server's Fauxton: its phrasings (the same
// steps written three ways; the server has no sign-in, see testenv.Pouchdb), its judge,
// which reads every database and document through the server's own API and its settings
// in its config.json ("" when exactly the goal's effect is there and nothing else changed), its effect made through Fauxton's
// own requests without a browser, and a near miss of it. A judge also reads the server's
// config.json, which only the setting goal may change.
type pouchdbGoal struct {
	name      string
	phrasings [3]string
	done      func(t *testing.T, w *testenv.Pouchdb) string
	do        func(t *testing.T, b *testenv.PouchdbBrowser)
	miss      func(t *testing.T, b *testenv.PouchdbBrowser)
}

// pouchdbFrida is the customer the create-a-document goal adds as cust-0006.
var pouchdbFrida = map[string]any{"name": "Frida Holm", "email": "frida.holm@example.com", "city": "Stavanger"}

var pouchdbGoals = []pouchdbGoal{
	{
		name: "create a database",
		phrasings: [3]string{
			`click "Create Database", type "suppliers" into "Name of database", click "Create"`,
			`Create a new database called suppliers: hit Create Database at the top, enter suppliers as the name of database and press Create.`,
			`We're starting to keep track of our suppliers, so please add a database named "suppliers". Click Create Database in the top bar, type suppliers into the Name of database box, then click the Create button next to it.`,
		},
		done: func(t *testing.T, w *testenv.Pouchdb) string {
			want := w.Seed()
			want["suppliers"] = map[string]testenv.PouchdbDoc{}
			return w.Differs(t, want)
		},
		do:   func(t *testing.T, b *testenv.PouchdbBrowser) { b.CreateDB(t, "suppliers") },
		miss: func(t *testing.T, b *testenv.PouchdbBrowser) { b.CreateDB(t, "supplier") },
	},
	{
		name: "delete a database",
		phrasings: [3]string{
			`click "Delete orders-2024", type "orders-2024" into the box of the "Delete Database" dialog, click "Delete"`,
			`Delete the orders-2024 database: click the trash can at the end of its row on the Databases page, type orders-2024 in the confirmation box and press Delete.`,
			`The 2024 order archive isn't needed any more. Could you delete the database "orders-2024" (keep orders-2025)? Use the trash icon at the end of its row; it will ask you to type the name orders-2024 to confirm, then click Delete.`,
		},
		done: func(t *testing.T, w *testenv.Pouchdb) string {
			want := w.Seed()
			delete(want, "orders-2024")
			return w.Differs(t, want)
		},
		do:   func(t *testing.T, b *testenv.PouchdbBrowser) { b.DeleteDB(t, "orders-2024") },
		miss: func(t *testing.T, b *testenv.PouchdbBrowser) { b.DeleteDB(t, "orders-2025") },
	},
	{
		name: "create a document",
		phrasings: [3]string{
			`click "customers", click the "+" beside "All Documents", click "New Doc", in the editor replace the "_id" value with "cust-0006" and add the fields "name": "Frida Holm", "email": "frida.holm@example.com" and "city": "Stavanger", click "Create Document"`,
			`Open the customers database and add a new doc (the + next to All Documents, then New Doc) with _id cust-0006, name Frida Holm, email frida.holm@example.com and city Stavanger, then press Create Document.`,
			`We have a new customer, Frida Holm from Stavanger (frida.holm@example.com). Please add her to the customers database as a new document with the _id cust-0006 and the fields name, email and city like the other customers have, and click Create Document to save it.`,
		},
		done: func(t *testing.T, w *testenv.Pouchdb) string {
			want := w.Seed()
			want["customers"]["cust-0006"] = testenv.PouchdbDoc(pouchdbFrida)
			return w.Differs(t, want)
		},
		do: func(t *testing.T, b *testenv.PouchdbBrowser) { b.CreateDoc(t, "customers", "cust-0006", pouchdbFrida) },
		miss: func(t *testing.T, b *testenv.PouchdbBrowser) {
			b.CreateDoc(t, "customers", "cust-0006", map[string]any{"name": "Frida Holm", "email": "frida.holm@example.com", "city": "Oslo"})
		},
	},
	{
		name: "change a product's price",
		phrasings: [3]string{
			`click "products", double-click "prod-0003", in the editor change the "price" value 9.9 to 10.5, click "Save Changes"`,
			`In products open prod-0003 (the linen tea towel), change its price from 9.9 to 10.5 and hit Save Changes.`,
			`The linen tea towel got more expensive. Can you open the document prod-0003 in the products database, change its "price" to 10.5 and click Save Changes? Leave the cotton towel as it is.`,
		},
		done: func(t *testing.T, w *testenv.Pouchdb) string {
			return pouchdbSet(t, w, "products", "prod-0003", "price", 10.5)
		},
		do: func(t *testing.T, b *testenv.PouchdbBrowser) {
			pouchdbEdit(t, b, "products", "prod-0003", "price", 10.5)
		},
		miss: func(t *testing.T, b *testenv.PouchdbBrowser) {
			pouchdbEdit(t, b, "products", "prod-0004", "price", 10.5)
		},
	},
	{
		name: "delete a document",
		phrasings: [3]string{
			`click "orders", double-click "order-1004", click "Delete", click "Delete Document"`,
			`Delete order-1004 from the orders database: open it, hit Delete at the top and confirm with Delete Document.`,
			`Carla's order order-1004 was entered twice by mistake, so please remove the document order-1004 from the orders database. Open it, click Delete at the top right and then Delete Document when it asks whether you are sure.`,
		},
		done: func(t *testing.T, w *testenv.Pouchdb) string {
			want := w.Seed()
			delete(want["orders"], "order-1004")
			return w.Differs(t, want)
		},
		do:   func(t *testing.T, b *testenv.PouchdbBrowser) { b.DeleteDoc(t, "orders", "order-1004") },
		miss: func(t *testing.T, b *testenv.PouchdbBrowser) { b.DeleteDoc(t, "orders", "order-1003") },
	},
	{
		name: "add a field to a document",
		phrasings: [3]string{
			`click "customers", double-click "cust-0003", in the editor add the field "phone": "+47 555 0133" on a new line after "city", click "Save Changes"`,
			`Add a phone field with +47 555 0133 to customer cust-0003 (Carla Moreno) in the customers database and save the changes.`,
			`Carla Moreno gave us her phone number. Please open her document cust-0003 in customers, add a new field "phone" with the value "+47 555 0133" and hit Save Changes.`,
		},
		done: func(t *testing.T, w *testenv.Pouchdb) string {
			return pouchdbSet(t, w, "customers", "cust-0003", "phone", "+47 555 0133")
		},
		do: func(t *testing.T, b *testenv.PouchdbBrowser) {
			pouchdbEdit(t, b, "customers", "cust-0003", "phone", "+47 555 0133")
		},
		miss: func(t *testing.T, b *testenv.PouchdbBrowser) {
			pouchdbEdit(t, b, "customers", "cust-0002", "phone", "+47 555 0133")
		},
	},
	{
		name: "remove a field from a document",
		phrasings: [3]string{
			`click "products", double-click "prod-0005", in the editor delete the line "sale_price": 11, click "Save Changes"`,
			`The beeswax candle's sale is over: open prod-0005 in products, remove its sale_price field and save the changes.`,
			`Please end the sale on the beeswax candle. In the products database open prod-0005, delete the whole "sale_price" line from the JSON (the price stays 15) and click Save Changes. The soy candle keeps its sale price.`,
		},
		done: func(t *testing.T, w *testenv.Pouchdb) string {
			want := w.Seed()
			delete(want["products"]["prod-0005"], "sale_price")
			return w.Differs(t, want)
		},
		do: func(t *testing.T, b *testenv.PouchdbBrowser) {
			pouchdbRemove(t, b, "products", "prod-0005", "sale_price")
		},
		miss: func(t *testing.T, b *testenv.PouchdbBrowser) {
			pouchdbRemove(t, b, "products", "prod-0006", "sale_price")
		},
	},
	{
		name: "mark an order shipped",
		phrasings: [3]string{
			`click "orders", double-click "order-1005", in the editor change the "status" value "pending" to "shipped", click "Save Changes"`,
			`Mark order-1005 in the orders database as shipped: open it, change status from pending to shipped and save the changes.`,
			`Elin's order order-1005 went out with the post this morning. Please open it in the orders database, set its "status" to "shipped" instead of "pending" and click Save Changes.`,
		},
		done: func(t *testing.T, w *testenv.Pouchdb) string {
			return pouchdbSet(t, w, "orders", "order-1005", "status", "shipped")
		},
		do: func(t *testing.T, b *testenv.PouchdbBrowser) {
			pouchdbEdit(t, b, "orders", "order-1005", "status", "shipped")
		},
		miss: func(t *testing.T, b *testenv.PouchdbBrowser) {
			pouchdbEdit(t, b, "orders", "order-1003", "status", "shipped")
		},
	},
	{
		name: "change a setting",
		phrasings: [3]string{
			`click "Configuration", click "600" in the row of "timeout" under "couch_httpd_auth", replace "600" with "3600" in its box, click the green tick button beside the box`,
			`Set the session timeout to an hour: open Configuration, click the value 600 of the timeout option in the couch_httpd_auth section, change it to 3600 and save it with the tick button next to it.`,
			`People keep getting signed out of the admin pages too soon. Please open Configuration in the left menu and change the option "timeout" of the section couch_httpd_auth from 600 to 3600 seconds: click the value to edit it, then the green check mark beside it to save.`,
		},
		done: func(t *testing.T, w *testenv.Pouchdb) string {
			want := w.SeedConfig()
			want["couch_httpd_auth"] = map[string]string{"timeout": "3600"}
			return w.ConfigDiffers(t, want)
		},
		do:   func(t *testing.T, b *testenv.PouchdbBrowser) { b.SetConfig(t, "couch_httpd_auth", "timeout", "3600") },
		miss: func(t *testing.T, b *testenv.PouchdbBrowser) { b.SetConfig(t, "couch_httpd_auth", "timeout", "360") },
	},
}

// pouchdbSet judges a goal that sets the field of the document id of db to value (a
// number is float64, as JSON decodes it): the databases must be the seed and that.
func pouchdbSet(t *testing.T, w *testenv.Pouchdb, db, id, field string, value any) string {
	want := w.Seed()
	want[db][id][field] = value
	return w.Differs(t, want)
}

// pouchdbEdit sets the field of the document id of db to value and saves it, as a person
// editing it in Fauxton's editor does.
func pouchdbEdit(t *testing.T, b *testenv.PouchdbBrowser, db, id, field string, value any) {
	b.EditDoc(t, db, id, func(doc map[string]any) { doc[field] = value })
}

// pouchdbRemove removes the field of the document id of db and saves it.
func pouchdbRemove(t *testing.T, b *testenv.PouchdbBrowser, db, id, field string) {
	b.EditDoc(t, db, id, func(doc map[string]any) { delete(doc, field) })
}
