package testenv

import (
	"net/url"
	"strings"
	"testing"
)

// The pages of Postorius a list's owner uses, each as its own form sends it. listID is a
// list's id (staff.lists.example.org); each action starts from the list's own page, as a
// person who picked the list in the list index does.

// OpenList opens the list index and follows the link of the list whose display name is name.
func (b *MailmanBrowser) OpenList(t testing.TB, name string) string {
	t.Helper()
	b.Open(t, "/postorius/lists/")
	return b.ClickText(t, name)
}

// CreateList opens "Create New List" from the list index and sends its form with the list's
// name, mail host and short description (the style, the owner and the advertising left as
// the form has them), as the "Create list" button does.
func (b *MailmanBrowser) CreateList(t testing.TB, name, host, description string) {
	t.Helper()
	b.Open(t, "/postorius/lists/")
	b.ClickText(t, "Create New List")
	f := b.Form(t, "listname")
	f.Fields.Set("listname", name)
	f.Fields.Set("mail_host", host)
	f.Fields.Set("description", description)
	b.Send(t, f)
}

// MassSubscribe opens the list's "Mass subscribe" page and sends its form with lines (one
// address a line, "Name <address>" allowed), "Pre confirm" and "Pre approved" ticked as the
// form has them, and "Pre Verified" ticked when verified is.
func (b *MailmanBrowser) MassSubscribe(t testing.TB, list string, lines []string, verified bool) {
	t.Helper()
	b.OpenList(t, list)
	b.ClickText(t, "Mass subscribe")
	f := b.Form(t, "emails")
	f.Fields.Set("emails", strings.Join(lines, "\n"))
	if verified {
		f.Fields.Set("pre_verified", "on")
	}
	b.Send(t, f)
}

// RemoveMembers opens the list's Members page, searches it for query with "Search
// members...", ticks the members found whose addresses are emails and presses "Remove
// Selected".
func (b *MailmanBrowser) RemoveMembers(t testing.TB, list, query string, emails ...string) {
	t.Helper()
	b.OpenList(t, list)
	b.ClickText(t, "Members")
	search := b.Form(t, "q")
	b.Open(t, search.Action+"?"+url.Values{"q": {query}}.Encode())
	f := b.Form(t, "choices")
	for _, e := range emails {
		if !strings.Contains(b.page, `value="`+e+`"`) {
			t.Fatalf("mailman: searching the members of %s for %q does not find %s: %s", list, query, e, MailmanText(b.page))
		}
		f.Fields.Add("choices", e)
	}
	b.Send(t, f)
}

// SaveSettings opens the list's Settings, then the section whose tab is section ("List
// Identity", "Member Policy"…), changes the fields (by their names: description,
// subscription_policy…) and presses "Save changes".
func (b *MailmanBrowser) SaveSettings(t testing.TB, list, section string, fields map[string]string) {
	t.Helper()
	b.OpenList(t, list)
	b.ClickText(t, "Settings")
	b.ClickText(t, section)
	var name string
	for k := range fields {
		name = k
	}
	f := b.Form(t, name)
	for k, v := range fields {
		f.Fields.Set(k, v)
	}
	b.Send(t, f)
}

// SetModeration opens the list's Members page, follows the member's link (shown as
// "Name" <address>) to their options, picks action ("hold", "reject", "discard",
// "accept", "defer", "" for List default) as Moderation under "Administration options"
// and presses that form's "Save changes".
func (b *MailmanBrowser) SetModeration(t testing.TB, list, shown, action string) {
	t.Helper()
	b.OpenList(t, list)
	b.ClickText(t, "Members")
	b.ClickText(t, shown)
	f := b.Form(t, "moderation_action")
	f.Fields.Set("moderation_action", action)
	b.Send(t, f)
}

// Ban opens the list's "Ban List" (or, when list is "", the site's Bans page from the top
// menu), types email into "Add ban" and presses "Ban email".
func (b *MailmanBrowser) Ban(t testing.TB, list, email string) {
	t.Helper()
	if list == "" {
		b.Open(t, "/postorius/lists/")
		b.ClickText(t, "Bans")
	} else {
		b.OpenList(t, list)
		b.ClickText(t, "Ban List")
	}
	f := b.Form(t, "email")
	f.Fields.Set("email", email)
	f.Fields.Set("add", "") // the button's name: the page tells adding a ban from lifting one by it
	if page := MailmanText(b.Send(t, f)); !strings.Contains(page, "The email "+email+" has been banned") {
		t.Fatalf("mailman: banning %s did not: %s", email, page)
	}
}

// DeleteList opens the list's Delete tab and presses its "Delete <address>" button.
func (b *MailmanBrowser) DeleteList(t testing.TB, list string) {
	t.Helper()
	b.OpenList(t, list)
	b.ClickText(t, "Delete")
	if !strings.Contains(MailmanText(b.page), "Are you sure you want to permanently delete this list?") {
		t.Fatalf("mailman: the Delete tab asks nothing: %s", MailmanText(b.page))
	}
	b.Send(t, b.Form(t, "csrfmiddlewaretoken"))
}
