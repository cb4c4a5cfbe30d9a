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
