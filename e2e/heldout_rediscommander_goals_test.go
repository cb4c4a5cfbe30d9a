//go:build heldout

package e2e

import (
	"net/url"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// rcGoal is an everyday goal on Redis Commander, written three ways as a person writes it
// from what the pages show ({signin} is the phrasing's way of signing in); done reads
// Redis and says "" when the goal's effect is there and nothing else in it changed, else
// what it found; do makes the effect through Redis Commander's own pages along the goal's
// path, and miss a near miss the judge must not take for it (another key, a neighbouring
// name or value).
type rcGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, w *testenv.RedisCommander) string
	do, miss  func(t testing.TB, b *testenv.RedisCommanderBrowser)
}

const (
	rcPromoValue = "SPRING25"
	rcBanner     = "Summer sale: 15% off all teas"
	rcPlan       = "enterprise"
	rcEmail      = "welcome:1003"
	rcMember     = "sencha"
)

var rcGoals = []rcGoal{
	{
		name: "add a string key",
		phrasings: [3]string{
			`{signin}, click "shop" at the top of the key tree, click "Add New Key...", type "promo:code" into "Key", choose "String" as the "Type", type "SPRING25" into "Value", click "Save"`,
			`{signin}, then select the shop server in the tree and press Add New Key...; enter promo:code as the Key, keep the Type at String, put SPRING25 in Value and press Save`,
			`{signin} In the tree on the left, click the server "shop" and then the "Add New Key..." button. Fill in the field labelled "Key" with "promo:code" and the field labelled "Value" with "SPRING25", leaving the Type as String. Click Save, then check that "promo" now appears in the key tree.`,
		},
		done: func(t testing.TB, w *testenv.RedisCommander) string {
			return rcExactly(w, func(d testenv.RedisDump) { d.Set("promo:code", "string", rcPromoValue) })
		},
		do:   func(t testing.TB, b *testenv.RedisCommanderBrowser) { rcAddKey(t, b, "promo:code") },
		miss: func(t testing.TB, b *testenv.RedisCommanderBrowser) { rcAddKey(t, b, "promo:codes") },
	},
	{
		name: "change a string's value",
		phrasings: [3]string{
			`{signin}, open "site" in the key tree, click "banner", replace the text in the value box with "Summer sale: 15% off all teas", click "Save"`,
			`{signin}, then expand site in the key tree and click banner; change its value to Summer sale: 15% off all teas and press Save`,
			`{signin} Unfold "site" in the tree on the left and click the key "banner". Clear the big text box under "Type: string", type "Summer sale: 15% off all teas" there, and then click the Save button below it.`,
		},
		done: func(t testing.TB, w *testenv.RedisCommander) string {
			return rcExactly(w, func(d testenv.RedisDump) { d.Set("site:banner", "string", rcBanner) })
		},
		do: func(t testing.TB, b *testenv.RedisCommanderBrowser) { rcSetBanner(t, b, rcBanner) },
		miss: func(t testing.TB, b *testenv.RedisCommanderBrowser) {
			rcSetBanner(t, b, "Summer sale: 10% off all teas")
		},
	},
	{
		name: "change a field of a hash",
		phrasings: [3]string{
			`{signin}, open "user" in the key tree, click "1002", double-click the "plan" row, type "enterprise" into "Value", click "Save"`,
			`{signin}, then expand the user folder and select 1002; double-click the row of the field plan, replace its Value with enterprise and press Save`,
			`{signin} In the key tree, open the user folder and click the hash "1002". Double-click the field "plan" in the table to edit it. In the Edit Hash Field dialog, change the field labelled "Value" from "pro" to "enterprise" and click Save.`,
		},
		done: func(t testing.TB, w *testenv.RedisCommander) string {
			return rcExactly(w, func(d testenv.RedisDump) {
				d.Set("user:1002", "hash", "name = Bob Lindqvist", "email = bob@example.com", "plan = "+rcPlan)
			})
		},
		do:   func(t testing.TB, b *testenv.RedisCommanderBrowser) { rcSetPlan(t, b, "1002") },
		miss: func(t testing.TB, b *testenv.RedisCommanderBrowser) { rcSetPlan(t, b, "1001") },
	},
	{
		name: "add a value at the end of a list",
		phrasings: [3]string{
			`{signin}, open "queue" in the key tree, click "emails", click "Add New Value...", select "RPUSH", type "welcome:1003" into "Value", click "Save"`,
			`{signin}, then expand queue and select emails; press Add New Value..., pick RPUSH so that it goes at the end of the list, fill Value with welcome:1003 and press Save`,
			`{signin} Go to the list "emails" under "queue" in the tree on the left. Click "Add New Value...", choose the RPUSH option instead of LPUSH, write "welcome:1003" in the Value box and click the Save button.`,
		},
		done: func(t testing.TB, w *testenv.RedisCommander) string {
			return rcExactly(w, func(d testenv.RedisDump) {
				d.Set("queue:emails", "list", "welcome:1001", "receipt:5531", "reset:1002", rcEmail)
			})
		},
		do: func(t testing.TB, b *testenv.RedisCommanderBrowser) { rcPushEmail(t, b, "rpush") },
		// LPUSH, the dialog's default: the value lands at the head of the list.
		miss: func(t testing.TB, b *testenv.RedisCommanderBrowser) { rcPushEmail(t, b, "lpush") },
	},
	{
		name: "add a member to a set",
		phrasings: [3]string{
			`{signin}, open "tags" in the key tree, click "featured", click "Add New Member...", type "sencha" into "Member", click "Save"`,
			`{signin}, then expand tags, pick featured and press Add New Member...; enter sencha as the Member and press Save`,
			`{signin} Open the set "featured" in the tags folder of the key tree. Click the "Add New Member..." button, type "sencha" into the field labelled "Member" and then click Save.`,
		},
		done: func(t testing.TB, w *testenv.RedisCommander) string {
			return rcExactly(w, func(d testenv.RedisDump) {
				d.Set("tags:featured", "set", "green-tea", "matcha", "oolong", rcMember)
			})
		},
		do:   func(t testing.TB, b *testenv.RedisCommanderBrowser) { rcAddMember(t, b, "featured") },
		miss: func(t testing.TB, b *testenv.RedisCommanderBrowser) { rcAddMember(t, b, "clearance") },
	},
	{
		name: "rename a key",
		phrasings: [3]string{
			`{signin}, open "tags" in the key tree, right-click "clearance", click "Rename Key", type "tags:sale" into "New Key", click "Save"`,
			`{signin}, then expand tags in the tree, right-click clearance and choose Rename Key; change New Key to tags:sale and press Save`,
			`{signin} In the key tree, unfold the "tags" folder and right-click the key "clearance". From the menu pick "Rename Key", replace what is in the New Key field with "tags:sale" and click the Save button.`,
		},
		done: func(t testing.TB, w *testenv.RedisCommander) string {
			return rcExactly(w, func(d testenv.RedisDump) {
				d["tags:sale"] = d["tags:clearance"]
				delete(d, "tags:clearance")
			})
		},
		do:   func(t testing.TB, b *testenv.RedisCommanderBrowser) { rcRename(t, b, "tags:sale") },
		miss: func(t testing.TB, b *testenv.RedisCommanderBrowser) { rcRename(t, b, "tags:sales") },
	},
	{
		name: "delete a key",
		phrasings: [3]string{
			`{signin}, open "site" in the key tree, click "maintenance", click "Delete Key", click "OK"`,
			`{signin}, then expand site and select maintenance; press Delete Key and confirm`,
			`{signin} Find the key "maintenance" under the site folder in the tree on the left and click it. Click the red "Delete Key" button and accept the confirmation. Check that "maintenance" is no longer listed in the tree.`,
		},
		done: func(t testing.TB, w *testenv.RedisCommander) string {
			return rcExactly(w, func(d testenv.RedisDump) { delete(d, "site:maintenance") })
		},
		do:   func(t testing.TB, b *testenv.RedisCommanderBrowser) { rcDelete(t, b, "maintenance") },
		miss: func(t testing.TB, b *testenv.RedisCommanderBrowser) { rcDelete(t, b, "banner") },
	},
}

// rcExactly says whether Redis holds the seed changed by change and nothing else.
func rcExactly(w *testenv.RedisCommander, change func(testenv.RedisDump)) string {
	want := w.Seed()
	change(want)
	return w.Differs(want)
}

// rcOK fails the test unless an answer of Redis Commander's API is its "ok".
func rcOK(t testing.TB, what, answer string) {
	t.Helper()
	if a := strings.Trim(strings.ToLower(strings.TrimSpace(answer)), `"`); a != "ok" {
		t.Fatalf("redis-commander: %s answered %q", what, answer)
	}
}

// rcAddKey clicks the connection at the top of the key tree, presses Add New Key... and
// saves a string key named key with the goal's value.
func rcAddKey(t testing.TB, b *testenv.RedisCommanderBrowser, key string) {
	t.Helper()
	b.Unfold(t, "", "site:* (2)")
	b.PickServer(t)
	f := b.Dialog(t, "addKeyForm")
	f.Fields.Set("keyType", "string")
	f.Fields.Set("stringValue", rcPromoValue)
	rcOK(t, "adding "+key, b.Post(t, b.KeyPath(key), f.Fields))
}

// rcSetBanner unfolds site, picks banner and saves value in its editor.
func rcSetBanner(t testing.TB, b *testenv.RedisCommanderBrowser, value string) {
	t.Helper()
	b.Unfold(t, "site:", "banner")
	b.Pick(t, "site:banner", "string")
	f := b.Editor(t, "editString", "site:banner", "editStringForm")
	f.Fields.Set("stringValue", value)
	rcOK(t, "saving site:banner", b.Send(t, f))
}

// rcSetPlan unfolds user, picks user:ID, double-clicks its plan row and saves the goal's
// plan in the Edit Hash Field dialog.
func rcSetPlan(t testing.TB, b *testenv.RedisCommanderBrowser, id string) {
	t.Helper()
	b.Unfold(t, "user:", id)
	key := "user:" + id
	if data, _ := b.Pick(t, key, "hash")["data"].(map[string]any); data["plan"] == nil {
		t.Fatalf("redis-commander: %s shows no plan row: %v", key, data)
	}
	f := b.Dialog(t, "editHashFieldForm")
	for k, v := range map[string]string{"key": key, "field": "plan", "value": rcPlan, "connectionId": b.ConnID()} {
		f.Fields.Set(k, v)
	}
	rcOK(t, "saving "+key+"'s plan", b.Send(t, f))
}

// rcPushEmail unfolds queue, picks emails, presses Add New Value... and saves the goal's
// value with push (lpush or rpush) chosen.
func rcPushEmail(t testing.TB, b *testenv.RedisCommanderBrowser, push string) {
	t.Helper()
	b.Unfold(t, "queue:", "emails")
	b.Pick(t, "queue:emails", "list")
	f := b.Dialog(t, "addListValueForm")
	for k, v := range map[string]string{"key": "queue:emails", "type": push, "value": rcEmail, "connectionId": b.ConnID()} {
		f.Fields.Set(k, v)
	}
	rcOK(t, "adding to queue:emails", b.Send(t, f))
}

// rcAddMember unfolds tags, picks the set named set, presses Add New Member... and saves
// the goal's member.
func rcAddMember(t testing.TB, b *testenv.RedisCommanderBrowser, set string) {
	t.Helper()
	b.Unfold(t, "tags:", set)
	b.Pick(t, "tags:"+set, "set")
	f := b.Dialog(t, "addSetMemberForm")
	for k, v := range map[string]string{"key": "tags:" + set, "value": rcMember, "connectionId": b.ConnID()} {
		f.Fields.Set(k, v)
	}
	rcOK(t, "adding to tags:"+set, b.Send(t, f))
}

// rcRename unfolds tags, right-clicks clearance, picks Rename Key and saves name as its
// New Key (Overwrite left unticked), as the Rename Key dialog's script sends it.
func rcRename(t testing.TB, b *testenv.RedisCommanderBrowser, name string) {
	t.Helper()
	b.Unfold(t, "tags:", "clearance")
	b.Dialog(t, "renameKeyForm")
	rcOK(t, "renaming tags:clearance", b.Post(t, b.KeyPath("tags:clearance"), url.Values{"key": {name}, "force": {"false"}, "action": {"patch"}}))
}

// rcDelete unfolds site, picks the key named name, presses Delete Key and confirms.
func rcDelete(t testing.TB, b *testenv.RedisCommanderBrowser, name string) {
	t.Helper()
	b.Unfold(t, "site:", name)
	b.Pick(t, "site:"+name, "string")
	rcOK(t, "deleting site:"+name, b.Post(t, b.KeyPath("site:"+name)+"?action=delete", url.Values{}))
}

// rcChanged says "" once Redis differs from the seed.
func rcChanged(w *testenv.RedisCommander) string {
	if w.Differs(w.Seed()) == "" {
		return "Redis still holds the seed"
	}
	return ""
}
