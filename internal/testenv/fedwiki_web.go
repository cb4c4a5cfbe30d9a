package testenv

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// FedwikiBrowser sends a Federated Wiki the requests its client sends: the reclaim code
// the padlock's dialog posts (POST /auth/reclaim/, which gives the session cookie), each
// page read as JSON (GET /SLUG.json) and each change to a page as one action of its
// journal (PUT /page/SLUG/action with the action as JSON in a form field, as the client
// does: "add", "edit", "remove", "move", "create"). It is how the harness's own test does
// each goal's effect without the agent.
type FedwikiBrowser struct {
	w *Fedwiki
	c *http.Client
}

// FedwikiStoryItem is an item of a page as the client reads it.
type FedwikiStoryItem struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	Text string `json:"text"`
}

// Browser is a browser with no session yet: SignIn signs it in.
func (w *Fedwiki) Browser() *FedwikiBrowser {
	jar, _ := cookiejar.New(nil)
	return &FedwikiBrowser{w: w, c: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
}

// SignIn signs in as the owner as the padlock's dialog does when the reclaim code is typed
// in and Submit is pressed, and checks that a page then says its visitor is the owner.
func (b *FedwikiBrowser) SignIn(t testing.TB) {
	t.Helper()
	status, _ := b.send(t, http.MethodPost, "/auth/reclaim/", "text/plain;charset=UTF-8", b.w.Password)
	if status != http.StatusOK {
		t.Fatalf("fedwiki: the reclaim code was refused: %d", status)
	}
	if page := b.Open(t, "/view/welcome-visitors"); !strings.Contains(page, `isOwner = ('true' === "true")`) {
		t.Fatalf("fedwiki: signed in, the welcome page does not take its visitor for the owner")
	}
}

// send sends method to path with body of type kind ("" for none), and returns the status
// and the answer.
func (b *FedwikiBrowser) send(t testing.TB, method, path, kind, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, b.w.Base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if kind != "" {
		req.Header.Set("Content-Type", kind)
	}
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatalf("fedwiki: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}

// Open fetches a path of the wiki (its pages, scripts, styles, JSON) and returns the body;
// an answer other than 200 fails the test.
func (b *FedwikiBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	status, body := b.send(t, http.MethodGet, path, "", "")
	if status != http.StatusOK {
		t.Fatalf("fedwiki: GET %s answered %d", path, status)
	}
	return body
}

// Story is slug's story as the client reads it (GET /SLUG.json).
func (b *FedwikiBrowser) Story(t testing.TB, slug string) []FedwikiStoryItem {
	t.Helper()
	var page struct {
		Story []FedwikiStoryItem `json:"story"`
	}
	if err := json.Unmarshal([]byte(b.Open(t, "/"+slug+".json")), &page); err != nil {
		t.Fatalf("fedwiki: %s.json: %v", slug, err)
	}
	return page.Story
}

// item is the item of slug's story whose text is text.
func (b *FedwikiBrowser) item(t testing.TB, slug, text string) (FedwikiStoryItem, []FedwikiStoryItem) {
	t.Helper()
	story := b.Story(t, slug)
	i := slices.IndexFunc(story, func(it FedwikiStoryItem) bool { return fedwikiText(it.Text) == text })
	if i < 0 {
		t.Fatalf("fedwiki: page %s has no item %q", slug, text)
	}
	return story[i], story
}

// Act sends one action of slug's journal as the client does, its date now; the server
// answers "ok" when it kept it.
func (b *FedwikiBrowser) Act(t testing.TB, slug string, action map[string]any) {
	t.Helper()
	action["date"] = time.Now().UnixMilli()
	raw, err := json.Marshal(action)
	if err != nil {
		t.Fatal(err)
	}
	form := url.Values{"action": {string(raw)}}.Encode()
	status, body := b.send(t, http.MethodPut, "/page/"+slug+"/action", "application/x-www-form-urlencoded; charset=UTF-8", form)
	if status != http.StatusOK || body != "ok" {
		t.Fatalf("fedwiki: the %s action on %s answered %d: %s", action["type"], slug, status, body)
	}
}

// Edit changes the text of the item of slug whose text is old, as double-clicking it,
// typing and clicking away does.
func (b *FedwikiBrowser) Edit(t testing.TB, slug, old, text string) {
	t.Helper()
	it, _ := b.item(t, slug, old)
	b.Act(t, slug, map[string]any{"type": "edit", "id": it.ID, "item": map[string]string{"type": it.Type, "id": it.ID, "text": text}})
}

// Remove deletes the item of slug whose text is text, as emptying it in its editor does.
func (b *FedwikiBrowser) Remove(t testing.TB, slug, text string) {
	t.Helper()
	it, _ := b.item(t, slug, text)
	b.Act(t, slug, map[string]any{"type": "remove", "id": it.ID})
}

// AddParagraph adds a paragraph at the end of slug's story as the page's "+" (add
// paragraph) button does (an empty factory item after the last item) and then
// double-clicking that box, typing and clicking away (an edit making it a paragraph).
func (b *FedwikiBrowser) AddParagraph(t testing.TB, slug, text string) {
	t.Helper()
	id := FedwikiItemID()
	add := map[string]any{"type": "add", "id": id, "item": map[string]string{"type": "factory", "id": id}}
	if story := b.Story(t, slug); len(story) > 0 {
		add["after"] = story[len(story)-1].ID
	}
	b.Act(t, slug, add)
	b.Act(t, slug, map[string]any{"type": "edit", "id": id, "item": map[string]string{"type": "paragraph", "id": id, "text": text}})
}

// Move drags the item of slug whose text is text to just before the item whose text is
// before, as the story's drag and drop does (a move action with the story's new order).
func (b *FedwikiBrowser) Move(t testing.TB, slug, text, before string) {
	t.Helper()
	it, story := b.item(t, slug, text)
	target, _ := b.item(t, slug, before)
	var order []string
	for _, s := range story {
		if s.ID == target.ID {
			order = append(order, it.ID)
		}
		if s.ID != it.ID {
			order = append(order, s.ID)
		}
	}
	b.Act(t, slug, map[string]any{"type": "move", "id": it.ID, "order": order})
}

// Create makes a blank page titled title as the "create" button of a missing page does
// (the page a link to it opens), and returns its slug.
func (b *FedwikiBrowser) Create(t testing.TB, title string) string {
	t.Helper()
	slug := FedwikiSlug(title)
	b.Act(t, slug, map[string]any{"type": "create", "item": map[string]any{"title": title, "story": []any{}}})
	return slug
}

// Find is the slug of the page titled title as the search box finds it (the site's
// sitemap, which its index is made from).
func (b *FedwikiBrowser) Find(t testing.TB, title string) string {
	t.Helper()
	var sitemap []struct{ Slug, Title string }
	if err := json.Unmarshal([]byte(b.Open(t, "/system/sitemap.json")), &sitemap); err != nil {
		t.Fatalf("fedwiki: the sitemap: %v", err)
	}
	for _, p := range sitemap {
		if p.Title == title {
			return p.Slug
		}
	}
	t.Fatalf("fedwiki: no page titled %q in the sitemap", title)
	return ""
}
