package testenv

import (
	"strconv"
	"strings"
	"testing"
)

// MeshCentralFullRights is a device group's Full Administrator rights (0xFFFFFFFF), as
// the Add Users to Device Group dialog sends them.
const MeshCentralFullRights = 0xFFFFFFFF

// seedApp makes the seed through the web app's own commands, signed in as admin: the
// device groups (New Device Group: agent-managed, with a description), the accounts (New
// Account, then the account's full name) and their memberships (Add Users).
func (w *MeshCentral) seedApp(t testing.TB, b *MeshCentralBrowser) {
	t.Helper()
	b.bulk = true
	defer func() { b.bulk = false; w.settle() }()
	for _, g := range MeshCentralSeedGroups {
		b.CreateGroup(t, g.Name, g.Desc)
	}
	for _, u := range MeshCentralSeedUsers {
		b.AddAccount(t, u.Name, u.Email, MeshCentralSeedPassword)
		b.Command(t, map[string]any{"action": "edituser", "id": "user//" + u.Name, "realname": u.RealName})
	}
	for _, u := range MeshCentralSeedUsers {
		for group, rights := range u.Groups {
			r := int64(MeshCentralFullRights)
			if rights != "full" {
				r, _ = strconv.ParseInt(rights, 10, 64)
			}
			b.AddMember(t, group, u.Name, r)
		}
	}
}

// CreateGroup does what My Account's New (beside Device Groups) does once its dialog is
// filled: a device group named name, "Manage using a software agent", with desc.
func (b *MeshCentralBrowser) CreateGroup(t testing.TB, name, desc string) {
	t.Helper()
	b.Command(t, map[string]any{"action": "createmesh", "meshname": name, "meshtype": 2, "desc": desc})
}

// RenameGroup does what a device group's Edit Device Group dialog does with its Name
// changed to name (its Description sent back as it was).
func (b *MeshCentralBrowser) RenameGroup(t testing.TB, group, name string) {
	t.Helper()
	id, desc := b.group(t, group)
	b.Command(t, map[string]any{"action": "editmesh", "meshid": id, "meshname": name, "desc": desc})
}

// DeleteGroup does what a device group's Delete Group does once Confirm is ticked.
func (b *MeshCentralBrowser) DeleteGroup(t testing.TB, group string) {
	t.Helper()
	b.Command(t, map[string]any{"action": "deletemesh", "meshid": b.GroupID(t, group), "meshname": group})
}

// AddMember does what a device group's Add Users does with the username typed into User
// Identifiers and rights ticked (MeshCentralFullRights for Full Administrator).
func (b *MeshCentralBrowser) AddMember(t testing.TB, group, username string, rights int64) {
	t.Helper()
	b.Command(t, map[string]any{"action": "addmeshuser", "meshid": b.GroupID(t, group), "meshname": group,
		"usernames": []string{username}, "meshadmin": rights, "remove": false})
}

// AddAccount does what My Users' New Account... dialog does once filled: Username, Email,
// the password twice, no box ticked.
func (b *MeshCentralBrowser) AddAccount(t testing.TB, username, email, password string) {
	t.Helper()
	b.Command(t, map[string]any{"action": "adduser", "username": username, "email": email, "pass": password,
		"resetNextLogin": false, "randomPassword": false, "removeEvents": false})
}

// SetServerPermissions does what an account's Server Permissions dialog does when OK is
// pressed with siteadmin's boxes ticked (32 is Lock Account, 2 Manage Users, 1024 Lock
// Account Settings).
func (b *MeshCentralBrowser) SetServerPermissions(t testing.TB, username string, siteadmin int64) {
	t.Helper()
	b.Command(t, map[string]any{"action": "edituser", "id": b.UserID(t, username), "siteadmin": siteadmin})
}

// ChangeEmail does what My Account's Change email address dialog does with email in Email.
func (b *MeshCentralBrowser) ChangeEmail(t testing.TB, email string) {
	t.Helper()
	b.Notify(t, map[string]any{"action": "changeemail", "email": email}, "accountchange")
}

// group is the id and description of the device group the web app lists as name.
func (b *MeshCentralBrowser) group(t testing.TB, name string) (string, string) {
	t.Helper()
	id := b.GroupID(t, name)
	for _, m := range b.list(t, "meshes") {
		if m["_id"] == id {
			desc, _ := m["desc"].(string)
			return id, desc
		}
	}
	return id, ""
}

// MeshCentralText is a page's text without its markup, scripts and styles, spaces
// folded, for checks of what a page shows.
func MeshCentralText(page string) string {
	page = mcScript.ReplaceAllString(page, " ")
	return strings.Join(strings.Fields(plaTag.ReplaceAllString(page, " ")), " ")
}
