//go:build heldout

package e2e

import (
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// fedwikiGoal is one everyday goal of a Federated Wiki's owner: its phrasings (three ways
// of writing it, {signin} where the owner signs in), its judge (what the page files lack
// of the goal's effect, or what else changed; "" when they hold exactly the effect), its
// effect made through the wiki's own requests (do) and a near miss of it (miss).
type fedwikiGoal struct {
	name      string
	phrasings [3]string
	done      func(t *testing.T, w *testenv.Fedwiki) string
	do, miss  func(t *testing.T, b *testenv.FedwikiBrowser)
}

// The seed's texts the goals name (testenv.FedwikiSeed holds them).
const (
	fedwikiWaterJuly  = "Water the beds every evening in July."
	fedwikiWaterAug   = "Water the beds every evening in July and August."
	fedwikiOilWheel   = "Oil the wheelbarrow in April."
	fedwikiBeanSalad  = "Bean salad with lemon."
	fedwikiReturnTool = "Return every tool to the shed before dark."
	fedwikiShedHolds  = "The shed holds two spades, a rake and a wheelbarrow."
	fedwikiList2025   = "- Tomatoes\n- Squash\n- Carrots"
	fedwikiListNew    = "- Tomatoes\n- Squash\n- Peppers"
	fedwikiCompostRef = "Compost notes are on [[Compost Schedule]]."
	fedwikiCompostPar = "Turn the pile every two weeks."
	fedwikiOmarJune   = "Omar keeps the key in June."
	fedwikiMayaJune   = "Maya keeps the key in June."
)

// fedwikiGoals are the goals TestHeldOutFedwiki runs, each on a fresh instance.
var fedwikiGoals = []fedwikiGoal{
	{
		name: "edit a paragraph of Garden Plan 2025",
		phrasings: [3]string{
			`{signin}, click "Garden Plan 2025", double-click the paragraph "Water the beds every evening in July.", change its text to "Water the beds every evening in July and August.", then click outside it`,
			`{signin}. Open Garden Plan 2025 from the welcome page, double-click the "Water the beds every evening in July." paragraph and make it read "Water the beds every evening in July and August." — click somewhere outside the box to save it.`,
			`{signin}, then go to the Garden Plan 2025 page (it's linked on Welcome Visitors). Double-click its paragraph "Water the beds every evening in July.", replace the text with "Water the beds every evening in July and August." and press Escape to save.`,
		},
		done: func(t *testing.T, w *testenv.Fedwiki) string {
			return w.Differs(t, w.Seed().Replace("garden-plan-2025", fedwikiWaterJuly, fedwikiWaterAug))
		},
		do: func(t *testing.T, b *testenv.FedwikiBrowser) {
			b.Edit(t, "garden-plan-2025", fedwikiWaterJuly, fedwikiWaterAug)
		},
		// The same sentence of last year's plan.
		miss: func(t *testing.T, b *testenv.FedwikiBrowser) {
			b.Edit(t, "garden-plan-2024", fedwikiWaterJuly, fedwikiWaterAug)
		},
	},
	{
		name: "add a paragraph to Garden Tools",
		phrasings: [3]string{
			`{signin}, click "Garden Tools", click the "+" button (add paragraph) at the bottom right of the page, double-click "Double-Click to Edit" in the new box, type "Oil the wheelbarrow in April.", then click outside the box`,
			`{signin}. On the Garden Tools page hit the + button under the story on the right (its tooltip says add paragraph), double-click the new box where it says Double-Click to Edit, type "Oil the wheelbarrow in April." and click somewhere else on the page.`,
			`{signin}, open Garden Tools and add a new paragraph at the end of it: press the "+" at the bottom right of the page, double-click the "Double-Click to Edit" box that appears, write "Oil the wheelbarrow in April." and press Escape.`,
		},
		done: func(t *testing.T, w *testenv.Fedwiki) string {
			return w.Differs(t, w.Seed().Append("garden-tools", "", testenv.FedwikiItem{Type: "paragraph", Text: fedwikiOilWheel}))
		},
		do: func(t *testing.T, b *testenv.FedwikiBrowser) {
			b.AddParagraph(t, "garden-tools", fedwikiOilWheel)
		},
		// The paragraph written on the page next to it in the lineup.
		miss: func(t *testing.T, b *testenv.FedwikiBrowser) {
			b.AddParagraph(t, "garden-plan-2025", fedwikiOilWheel)
		},
	},
	{
		name: "delete a paragraph of Recipes",
		phrasings: [3]string{
			`{signin}, click "Recipes", double-click the paragraph "Bean salad with lemon.", delete all of its text, then click outside it`,
			`{signin}. Go to Recipes, double-click "Bean salad with lemon." to edit it, clear the whole text (select all, then Delete) and click outside the box so that the empty paragraph is removed.`,
			`{signin}, then remove the paragraph "Bean salad with lemon." from the Recipes page: double-click it, erase all the text in the box and hit Escape.`,
		},
		done: func(t *testing.T, w *testenv.Fedwiki) string {
			return w.Differs(t, w.Seed().Remove("recipes", fedwikiBeanSalad))
		},
		do: func(t *testing.T, b *testenv.FedwikiBrowser) {
			b.Remove(t, "recipes", fedwikiBeanSalad)
		},
		// The other salad-and-soup line: the first recipe.
		miss: func(t *testing.T, b *testenv.FedwikiBrowser) {
			b.Remove(t, "recipes", "Tomato soup with basil.")
		},
	},
	{
		name: "move a paragraph of Garden Tools to the top",
		phrasings: [3]string{
			`{signin}, click "Garden Tools", drag the paragraph "Return every tool to the shed before dark." up and drop it above the paragraph "The shed holds two spades, a rake and a wheelbarrow."`,
			`{signin}. On Garden Tools move "Return every tool to the shed before dark." to the top of the page: drag it above the first paragraph, "The shed holds two spades, a rake and a wheelbarrow.", and let go.`,
			`{signin}, open the Garden Tools page and drag its last paragraph, "Return every tool to the shed before dark.", so that it becomes the first one, above "The shed holds two spades, a rake and a wheelbarrow."`,
		},
		done: func(t *testing.T, w *testenv.Fedwiki) string {
			return w.Differs(t, w.Seed().MoveBefore("garden-tools", fedwikiReturnTool, fedwikiShedHolds))
		},
		do: func(t *testing.T, b *testenv.FedwikiBrowser) {
			b.Move(t, "garden-tools", fedwikiReturnTool, fedwikiShedHolds)
		},
		// The paragraph next to it moved up instead.
		miss: func(t *testing.T, b *testenv.FedwikiBrowser) {
			b.Move(t, "garden-tools", "Sharpen the shears in March.", fedwikiShedHolds)
		},
	},
	{
		name: "change an item of Garden Plan 2025's list",
		phrasings: [3]string{
			`{signin}, click "Garden Plan 2025", double-click the list "Tomatoes Squash Carrots", in the box change the line "- Carrots" to "- Peppers", then click outside the box`,
			`{signin}. Open Garden Plan 2025 and in its bulleted list swap Carrots for Peppers: double-click the list, replace the word Carrots with Peppers and click somewhere else to save.`,
			`{signin}, then on the Garden Plan 2025 page double-click the list of Tomatoes, Squash and Carrots, edit its last line so that it reads "- Peppers" instead of "- Carrots", and hit Escape.`,
		},
		done: func(t *testing.T, w *testenv.Fedwiki) string {
			return w.Differs(t, w.Seed().Replace("garden-plan-2025", fedwikiList2025, fedwikiListNew))
		},
		do: func(t *testing.T, b *testenv.FedwikiBrowser) {
			b.Edit(t, "garden-plan-2025", fedwikiList2025, fedwikiListNew)
		},
		// Last year's list, which has Carrots too.
		miss: func(t *testing.T, b *testenv.FedwikiBrowser) {
			b.Edit(t, "garden-plan-2024", "- Tomatoes\n- Beans\n- Carrots", "- Tomatoes\n- Beans\n- Peppers")
		},
	},
	{
		name: "create the Compost Schedule page from a link",
		phrasings: [3]string{
			`{signin}, click "Garden Tools", click the "+" button (add paragraph) at the bottom right of the page, double-click "Double-Click to Edit" in the new box, type "Compost notes are on [[Compost Schedule]].", click outside the box, click the new link "Compost Schedule", click "create" on the page that opens, click that page's "+" button (add paragraph), double-click "Double-Click to Edit", type "Turn the pile every two weeks.", then click outside the box`,
			`{signin}. On Garden Tools add a paragraph (the + under the page, then double-click Double-Click to Edit) reading "Compost notes are on [[Compost Schedule]]." and click away. Follow the new Compost Schedule link, hit the create button for a new blank page, and give that page a paragraph the same way with the text "Turn the pile every two weeks."`,
			`{signin}, then make a new page Compost Schedule linked from Garden Tools: on Garden Tools press + (add paragraph), double-click the "Double-Click to Edit" box, write "Compost notes are on [[Compost Schedule]]." and press Escape; click the Compost Schedule link that appears, press "create" on the page that opens, then add one paragraph there with its + button and a double-click on the new box, text "Turn the pile every two weeks.", and press Escape.`,
		},
		done: func(t *testing.T, w *testenv.Fedwiki) string {
			want := w.Seed().Append("garden-tools", "", testenv.FedwikiItem{Type: "paragraph", Text: fedwikiCompostRef})
			return w.Differs(t, want.Append("compost-schedule", "Compost Schedule", testenv.FedwikiItem{Type: "paragraph", Text: fedwikiCompostPar}))
		},
		do: func(t *testing.T, b *testenv.FedwikiBrowser) {
			b.AddParagraph(t, "garden-tools", fedwikiCompostRef)
			b.AddParagraph(t, b.Create(t, "Compost Schedule"), fedwikiCompostPar)
		},
		// A page of a like name.
		miss: func(t *testing.T, b *testenv.FedwikiBrowser) {
			b.AddParagraph(t, "garden-tools", "Compost notes are on [[Compost Plan]].")
			b.AddParagraph(t, b.Create(t, "Compost Plan"), fedwikiCompostPar)
		},
	},
	{
		name: "find Shed Key Rota with the search box and edit it",
		phrasings: [3]string{
			`{signin}, type "Shed Key Rota" into "Search" in the footer, click "Shed Key Rota" in the results that pop up, double-click the paragraph "Omar keeps the key in June.", change it to "Maya keeps the key in June.", then click outside it`,
			`{signin}. No page links to Shed Key Rota, so find it with the Search box at the bottom: type Shed Key Rota and click the page in the results. There double-click "Omar keeps the key in June." and change it to "Maya keeps the key in June.", then click outside the box to save.`,
			`{signin}, then search for "Shed Key Rota" (the search field in the footer bar) and open that page from the results; double-click the June paragraph so that it says "Maya keeps the key in June." instead of "Omar keeps the key in June.", and hit Escape.`,
		},
		done: func(t *testing.T, w *testenv.Fedwiki) string {
			return w.Differs(t, w.Seed().Replace("shed-key-rota", fedwikiOmarJune, fedwikiMayaJune))
		},
		do: func(t *testing.T, b *testenv.FedwikiBrowser) {
			b.Edit(t, b.Find(t, "Shed Key Rota"), fedwikiOmarJune, fedwikiMayaJune)
		},
		// The month before's line.
		miss: func(t *testing.T, b *testenv.FedwikiBrowser) {
			b.Edit(t, b.Find(t, "Shed Key Rota"), "Anna keeps the key in May.", "Maya keeps the key in May.")
		},
	},
}
