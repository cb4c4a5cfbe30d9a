package driver_test

import (
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/plan"
)

// TestAMailCatchersInbox: from the sixteenth pool's blind run (MailDev): a list of mails
// each drawn as one button holding the whole item, in no list element and no row, was no
// list ("in the list of mails" found nothing); its top bar of icon buttons is the page's
// header ("in the top bar" was a word the reader could not place), and a Confirm clicked
// "right away" is a click.
func TestAMailCatchersInbox(t *testing.T) {
	runUnseen(t, newPool(t), []unseenCase{
		{"a mail opened from a list of buttons", "maillist.html", "mail", []string{
			`click "Invoice INV-2041 from Northwind Traders" in the list of mails`,
			`click the mail "Invoice INV-2041 from Northwind Traders" in the list`,
			`Click "Invoice INV-2041 from Northwind Traders" in the list of emails.`,
		}, `{"opened":"Invoice INV-2041 from Northwind Traders"}`},
		{"every mail deleted from the top bar", "maillist.html", "mail", []string{
			`click "Delete all emails" in the top bar, then click "Confirm" right away`,
			`click the "Delete all emails" button in the top bar of the page and click "Confirm" at once`,
			`Click "Delete all emails" at the top of the page, then click "Confirm" immediately.`,
		}, `{"deleted":"all"}`},
	})
}

// TestABackupServersConfigPages: from the sixteenth pool's blind run (BackupPC): "the "Edit
// Config" link under the "files-02" heading of the menu" was read as a click on the
// heading and one on either Edit Config (a tie: the server's part has one too, and the
// host chooser beside it lists files-02 among its options); the rows of its editable table
// of hosts hold only fields and a Delete button, and were no rows ("in the row of the host
// old-laptop" found every Delete of the table).
func TestABackupServersConfigPages(t *testing.T) {
	runUnseen(t, newPool(t), []unseenCase{
		{"a link under a heading of a menu drawn as a table", "hostsedit.html", "hosts", []string{
			`click the "Edit Config" link under the "files-02" heading of the menu`,
			`click the "Edit Config" link under the "files-02" heading`,
			`Click "Edit Config" under the "files-02" heading of the menu.`,
		}, `{"opened":"config:files-02"}`},
		{"a row of an editable table, named by what its fields hold", "hostsedit.html", "hosts", []string{
			`click "Delete" in the row of the host "old-laptop"`,
			`click Delete in the row "old-laptop"`,
			`Click the "Delete" button in the row of old-laptop.`,
		}, `{"deleted":"old-laptop"}`},
	})
}

// TestABackupServersSettingsTable: from the sixteenth pool's first phrasings (BackupPC):
// a setting's field is named by the words its row begins with, in the cell that also holds
// its "Override" box (they had named it by the menu's links beside the form: "Edit
// Config", "Admin Options"); a field of a table of hosts whose column headers are plain
// cells is named by its column ("the user field in the row of web-01" had found three
// fields named "Hosts").
func TestABackupServersSettingsTable(t *testing.T) {
	runUnseen(t, newPool(t), []unseenCase{
		{"a setting's field named by its row", "configedit.html", "config", []string{
			`tick "Override" under "XferMethod", select "rsync" in "XferMethod", click "Save"`,
			`tick the "Override" box under "XferMethod", pick "rsync" in the "XferMethod" list and click "Save"`,
		}, `"override":{"XferMethod":"rsync"}`},
		{"a setting's text field named by its row", "configedit.html", "config", []string{
			`tick "Override" under "XferLogLevel", type "3" into "XferLogLevel", click "Save"`,
			`tick the "Override" box under "XferLogLevel", then type "3" into the "XferLogLevel" field and click "Save"`,
		}, `"override":{"XferLogLevel":"3"}`},
		{"a field of a row named by its column", "configedit.html", "config", []string{
			`in the row of the host "web-01" replace "akim" in the "user" field with "rpatel", click "Save"`,
			`type "rpatel" into the "user" field in the row of "web-01", click "Save"`,
		}, `"web-01":"rpatel"`},
	})
}

// TestAFormBesideAMenuIsNotNamedByIt: BackupPC's settings were named by the links of the
// menu down the left of the page ("Current queues" for XferMethod's list), which a probe
// leftwards from each field reached past its row's own cell: a setting's field is named
// by the words its row begins with, and never by text outside its own table.
func TestAFormBesideAMenuIsNotNamedByIt(t *testing.T) {
	s, _ := openLab(t, newPool(t), "beside-a-menu", "configedit.html")
	obs, err := s.Observe(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	menu := map[string]bool{"Status": true, "Host Summary": true, "Edit Config": true, "Edit Hosts": true, "Admin Options": true,
		"LOG file": true, "Old LOGs": true, "Email summary": true, "Current queues": true, "Documentation": true}
	named := map[string]bool{}
	for _, e := range obs.Elements {
		if !e.FormControl() {
			continue
		}
		if menu[e.Label] || menu[e.Name] {
			t.Errorf("%s is named by the menu beside the form", e.Ref())
		}
		named[e.Label] = true
	}
	for _, want := range []string{"XferMethod", "XferLogLevel", "FullPeriod"} {
		if !named[want] {
			t.Errorf("no field is named %q by its row", want)
		}
	}
}

// TestNoTextTypedIntoASwitch: from the seventeenth pool's blind run (Orthanc), where
// `switch "Unprotected" to "Protected"` was read as typing "Protected" into the switch
// named "Unprotected", and the switch, no field, was clicked for the field it would open:
// a switch, a slider, a box or a radio button takes no typed text, and is not clicked for
// one.
func TestNoTextTypedIntoASwitch(t *testing.T) {
	s, app := openLab(t, newPool(t), "no-text-in-a-switch", "flip.html")
	steps, err := plan.Parse(`type "On" into "Dark mode"`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Do(t.Context(), steps[0], driver.DoOptions{WaitBudget: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if out.OK || len(out.Actions) > 0 || out.Feedback == nil || !strings.Contains(out.Feedback.Details, "takes no typed text") {
		t.Errorf("typed into a switch: ok %v, actions %q, feedback %+v", out.OK, out.Actions, out.Feedback)
	}
	time.Sleep(300 * time.Millisecond)
	if got := string(app.LabState("flip")); strings.Contains(got, "dark") {
		t.Errorf("the switch was clicked: %s", got)
	}
}
