package testenv

import (
	"strconv"
	"strings"
	"testing"
)

// The goals' effects, each made along the pages a person uses for it: the browser must be
// signed in as the listmaster.

// CreateList opens "Create list" and sends it with the list's name, the template (the
// value of its "List type" radio button: discussion_list, news-letter…), the subject, the
// audience (a topic's value, "" for none) and the description, as "Submit your creation
// request" does.
func (b *SympaBrowser) CreateList(t testing.TB, name, template, subject, topic, info string) {
	t.Helper()
	b.Open(t, "/create_list_request")
	f := b.Form(t, `name="action_create_list"`)
	f.Fields.Set("listname", name)
	f.Fields.Set("template", template)
	f.Fields.Set("subject", subject)
	f.Fields.Set("topics", topic)
	f.Fields.Set("info", info)
	if page := SympaText(b.Send(t, f, "action_create_list")); !strings.Contains(page, name) {
		t.Fatalf("sympa: creating %s did not show it: %s", name, page)
	}
}

// AddMember opens the list's Subscribers page (Admin, then Subscribers), adds email
// through its "Add" form and confirms.
func (b *SympaBrowser) AddMember(t testing.TB, list, email string) {
	t.Helper()
	b.Open(t, "/review/"+list)
	f := b.Form(t, `name="action_add"`)
	f.Fields.Set("email", email)
	b.Send(t, f, "action_add")
	if page := SympaText(b.Confirm(t)); !strings.Contains(page, email) {
		t.Fatalf("sympa: adding %s to %s did not show it: %s", email, list, page)
	}
}

// DeleteMembers opens the list's Subscribers page, ticks the members' boxes, presses
// "Delete selected email addresses" and confirms.
func (b *SympaBrowser) DeleteMembers(t testing.TB, list string, emails ...string) {
	t.Helper()
	b.Open(t, "/review/"+list)
	f := b.Form(t, `name="action_del"`)
	f.Fields.Del("email")
	for _, e := range emails {
		if !strings.Contains(b.page, `name="email" value="`+e+`"`) {
			t.Fatalf("sympa: %s has no member %s to tick: %s", list, e, SympaText(b.page))
		}
		f.Fields.Add("email", e)
	}
	b.Send(t, f, "action_del")
	b.Confirm(t)
}

// AddAdmin opens the list's Owners or Moderators page (role "owner" or "editor") and adds
// email, with a name, through its "Add" row, as "Apply modifications" does.
func (b *SympaBrowser) AddAdmin(t testing.TB, list, role, email, name string) {
	t.Helper()
	page := b.Open(t, "/review/"+list+"/"+role)
	field := "single_param." + role + ".0.email"
	for i := 0; strings.Contains(page, `"single_param.`+role+`.`+strconv.Itoa(i)+`.email"`); i++ {
		field = "single_param." + role + "." + strconv.Itoa(i) + ".email"
	}
	f := b.Form(t, `name="action_review"`)
	if v := f.Fields.Get(field); v != "" {
		t.Fatalf("sympa: the last %s row of %s is not empty: %s", role, list, v)
	}
	f.Fields.Set(field, email)
	f.Fields.Set(strings.Replace(field, ".email", ".gecos", 1), name)
	b.Send(t, f, "action_review")
}

// EditList opens a page of the list's "Edit List Config" (its group: description,
// command, sending…), sets fields (by their names, e.g. single_param.subject) and presses
// "Apply modifications".
func (b *SympaBrowser) EditList(t testing.TB, list, group string, fields map[string]string) {
	t.Helper()
	b.Open(t, "/edit_list_request/"+list+"/"+group)
	f := b.Form(t, `name="action_edit_list"`)
	for k, v := range fields {
		if _, ok := f.Fields[k]; !ok {
			t.Fatalf("sympa: %s's %s page has no field %s", list, group, k)
		}
		f.Fields.Set(k, v)
	}
	b.Send(t, f, "action_edit_list")
}

// CloseList opens the list's Admin page, presses "Remove List" and then "Confirm".
func (b *SympaBrowser) CloseList(t testing.TB, list string) {
	t.Helper()
	b.Open(t, "/admin/"+list)
	b.Send(t, b.Form(t, `name="action_close_list"`), "action_close_list")
	b.Confirm(t)
}

// Confirm presses "Confirm" on the page WWSympa asks with whether it should go on ("Do
// you really want to add …?"), and returns the page it ends on.
func (b *SympaBrowser) Confirm(t testing.TB) string {
	t.Helper()
	return b.Send(t, b.Form(t, `name="response_action_confirm"`), "response_action_confirm")
}

// SearchLists opens "Search for List(s)", sends its form with filter and returns the page
// of the lists found.
func (b *SympaBrowser) SearchLists(t testing.TB, filter string) string {
	t.Helper()
	b.Open(t, "/search_list_request")
	f := b.Form(t, `name="filter_list"`)
	f.Fields.Set("filter_list", filter)
	return b.Send(t, f, "action_search_list")
}
