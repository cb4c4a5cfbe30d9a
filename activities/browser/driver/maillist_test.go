package driver_test

import "testing"

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
