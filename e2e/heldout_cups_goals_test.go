//go:build heldout

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// cupsGoal is an everyday goal on CUPS's web interface, written three ways as a person
// writes it from what the pages show (no sign-in: the private server's admin pages are open
// to 127.0.0.1); done reads CUPS's own files (printers.conf, classes.conf, cupsd.conf, the
// PPDs, the spool's job files) and says "" when the goal's effect is there and nothing else
// the pages change did, else what it found; do makes the effect through the pages along the
// goal's path, and miss a near miss the judge must not take for it (another printer, job or
// setting, a neighbouring value).
type cupsGoal struct {
	name      string
	phrasings [3]string
	done      func(t testing.TB, c *testenv.Cups) string
	do, miss  func(t testing.TB, b *testenv.CupsBrowser)
}

const (
	cupsNewPrinter  = "Reception-Printer"
	cupsNewInfo     = "Reception Printer"
	cupsNewLocation = "Front desk, ground floor"
	cupsNewURI      = "socket://192.168.10.25:9100"
	cupsNewModel    = "Generic PostScript Printer"
	cupsMoved       = "Room 204, second floor"
	cupsNewClass    = "Lab-Room"
	cupsClassInfo   = "Lab printers"
)

var cupsGoals = []cupsGoal{
	{
		name: "add a network printer",
		phrasings: [3]string{
			`click "Administration", click "Add Printer", select "AppSocket/HP JetDirect", click "Continue", type "socket://192.168.10.25:9100" into "Connection", click "Continue", type "Reception-Printer" into "Name", type "Reception Printer" into "Description", type "Front desk, ground floor" into "Location", click "Continue", select "Generic" in "Make", click "Continue", select "Generic PostScript Printer (en)" in "Model", click "Add Printer"`,
			`Go to Administration and hit Add Printer. Pick AppSocket/HP JetDirect under Other Network Printers, Continue, put socket://192.168.10.25:9100 in the Connection field and Continue. Name it Reception-Printer, description "Reception Printer", location Front desk, ground floor, then Continue, choose the make Generic, Continue, choose the model Generic PostScript Printer and press Add Printer.`,
			`On the Administration page click the Add Printer button, choose "AppSocket/HP JetDirect" as the connection type and press Continue. In the field labelled Connection enter socket://192.168.10.25:9100 and press Continue. Fill in Name with Reception-Printer, Description with Reception Printer and Location with "Front desk, ground floor", click Continue, select Generic in the Make list, click Continue again, then select Generic PostScript Printer in the Model list and click "Add Printer".`,
		},
		done: cupsPrinterAdded,
		do:   func(t testing.TB, b *testenv.CupsBrowser) { cupsAddPrinter(t, b, cupsNewModel) },
		miss: func(t testing.TB, b *testenv.CupsBrowser) { cupsAddPrinter(t, b, "Generic PCL Laser Printer") },
	},
	{
		name: "change a printer's location",
		phrasings: [3]string{
			`click "Printers", click "Office-Laser-2", select "Modify Printer" in "Administration", click "Continue", type "Room 204, second floor" into "Location", click "Continue", click "Modify Printer"`,
			`Open Printers, then Office-Laser-2, and pick Modify Printer from the Administration menu. Keep the current connection and press Continue, change the Location to Room 204, second floor, Continue, then keep the current driver and click Modify Printer.`,
			`The copy room printer moved. In the Printers tab click the printer "Office-Laser-2", choose Modify Printer in its Administration drop-down, leave the current connection selected and hit Continue; replace what is in the Location field with "Room 204, second floor" and hit Continue, then on the driver page leave the current driver as it is and hit the Modify Printer button.`,
		},
		done: func(t testing.TB, c *testenv.Cups) string {
			return cupsExactly(t, c, func(s testenv.CupsState) {
				s["printer"]["Office-Laser-2"] = testenv.CupsSetKey(s["printer"]["Office-Laser-2"], "Location", cupsMoved)
			})
		},
		do:   func(t testing.TB, b *testenv.CupsBrowser) { cupsMovePrinter(t, b, "Office-Laser-2") },
		miss: func(t testing.TB, b *testenv.CupsBrowser) { cupsMovePrinter(t, b, "Office-Laser") },
	},
	{
		name: "set a printer's default media size",
		phrasings: [3]string{
			`click "Printers", click "Office-Laser", select "Set Default Options" in "Administration", select "A4" in "Media Size", click "Set Default Options"`,
			`Printers > Office-Laser, then Administration > Set Default Options: set Media Size to A4 and hit Set Default Options.`,
			`Open the Printers page and click Office-Laser. From the Administration menu of that printer choose "Set Default Options", change the field labelled Media Size from US Letter to A4, then press the Set Default Options button at the bottom.`,
		},
		done: func(t testing.TB, c *testenv.Cups) string { return cupsMediaSet(t, c, "Office-Laser") },
		do:   func(t testing.TB, b *testenv.CupsBrowser) { cupsSetMedia(t, b, "Office-Laser") },
		miss: func(t testing.TB, b *testenv.CupsBrowser) { cupsSetMedia(t, b, "Office-Laser-2") },
	},
	{
		name: "add a class of two printers",
		phrasings: [3]string{
			`click "Administration", click "Add Class", type "Lab-Room" into "Name", type "Lab printers" into "Description", type "Lab, ground floor" into "Location", select "Lab-Inkjet" and "Lab-Printer" in "Members", click "Add Class"`,
			`In Administration click Add Class; name it Lab-Room, description Lab printers, location "Lab, ground floor", select both Lab-Inkjet and Lab-Printer as Members (and nothing else), then click Add Class.`,
			`We want a class for the lab. Go to the Administration page and press "Add Class". Enter Lab-Room in the Name field, Lab printers in the Description field and Lab, ground floor in the field labelled Location, pick the two printers Lab-Inkjet and Lab-Printer in the Members list, and hit the Add Class button.`,
		},
		done: func(t testing.TB, c *testenv.Cups) string { return cupsClassAdded(t, c, "Lab-Inkjet,Lab-Printer") },
		do:   func(t testing.TB, b *testenv.CupsBrowser) { cupsAddClass(t, b, "Lab-Inkjet", "Lab-Printer") },
		miss: func(t testing.TB, b *testenv.CupsBrowser) { cupsAddClass(t, b, "Lab-Printer", "Office-Laser") },
	},
	{
		name: "delete a printer",
		phrasings: [3]string{
			`click "Printers", click "Lab-Inkjet", select "Delete Printer" in "Administration", click "Delete Printer"`,
			`Go to Printers, open Lab-Inkjet, choose Delete Printer in the Administration menu and confirm with the Delete Printer button.`,
			`The lab inkjet is gone for good: on the Printers page click "Lab-Inkjet", then in its Administration drop-down pick Delete Printer, and when CUPS asks whether you are sure, press Delete Printer.`,
		},
		done: func(t testing.TB, c *testenv.Cups) string {
			return cupsExactly(t, c, func(s testenv.CupsState) {
				delete(s["printer"], "Lab-Inkjet")
				delete(s["ppd"], "Lab-Inkjet")
			})
		},
		do:   func(t testing.TB, b *testenv.CupsBrowser) { cupsDeletePrinter(t, b, "Lab-Inkjet") },
		miss: func(t testing.TB, b *testenv.CupsBrowser) { cupsDeletePrinter(t, b, "Office-Laser-2") },
	},
	{
		name: "cancel one held job",
		phrasings: [3]string{
			`click "Jobs", click "Cancel Job" in the row "Quarterly report"`,
			`Open the Jobs tab and cancel the job named Quarterly report (the Cancel Job button in its row); leave the other jobs alone.`,
			`On the Jobs page find the held job called "Quarterly report" on Lab-Printer and press Cancel Job in that row, then check that the page says the job has been canceled. Quarterly summary and Meeting agenda must stay.`,
		},
		done: func(t testing.TB, c *testenv.Cups) string { return cupsJobCanceled(t, c, 0) },
		do:   func(t testing.TB, b *testenv.CupsBrowser) { cupsCancelJob(t, b, testenv.CupsSeedJobs[0]) },
		miss: func(t testing.TB, b *testenv.CupsBrowser) { cupsCancelJob(t, b, testenv.CupsSeedJobs[1]) },
	},
	{
		name: "turn on debug logging",
		phrasings: [3]string{
			`click "Administration", tick "Save debugging information for troubleshooting", click "Change Settings"`,
			`In Administration, under Server Settings, tick Save debugging information for troubleshooting, then press Change Settings.`,
			`We need more detail in the logs: open the Administration page and, in the Server Settings on the right, switch on the box "Save debugging information for troubleshooting" while leaving the other settings as they are, then hit Change Settings.`,
		},
		done: func(t testing.TB, c *testenv.Cups) string {
			return cupsExactly(t, c, func(s testenv.CupsState) {
				delete(s["cupsd.conf"], "LogLevel info")
				s["cupsd.conf"]["LogLevel debug"] = "1"
			})
		},
		do:   func(t testing.TB, b *testenv.CupsBrowser) { cupsSettings(t, b, "DEBUG_LOGGING", true) },
		miss: func(t testing.TB, b *testenv.CupsBrowser) { cupsSettings(t, b, "USER_CANCEL_ANY", false) },
	},
}

// cupsExactly says whether the storage holds the seed changed by change and nothing else.
func cupsExactly(t testing.TB, c *testenv.Cups, change func(testenv.CupsState)) string {
	want := c.Seed()
	change(want)
	return c.Differs(t, want)
}

// cupsPrinterAdded says whether printers.conf holds the seed's printers and the goal's new
// one (its description, location, connection and driver as the goal gives them, enabled
// and accepting jobs), and nothing else changed but its PPD.
func cupsPrinterAdded(t testing.TB, c *testenv.Cups) string {
	got := c.State(t)
	row, ok := got["printer"][cupsNewPrinter]
	if !ok {
		return "no printer " + cupsNewPrinter
	}
	keys := testenv.CupsKeys(row)
	want := map[string]string{"Info": cupsNewInfo, "Location": cupsNewLocation, "DeviceURI": cupsNewURI,
		"MakeModel": cupsNewModel, "State": "Idle", "Accepting": "Yes"}
	for k, v := range want {
		if keys[k] != v {
			return fmt.Sprintf("the printer %s has %s %q, not %q", cupsNewPrinter, k, keys[k], v)
		}
	}
	delete(got["printer"], cupsNewPrinter)
	delete(got["ppd"], cupsNewPrinter)
	return got.Diff(c.Seed())
}

// cupsMediaSet says whether printer's PPD defaults to A4 (its page size, and its page
// region and imageable area where it has them) and nothing else changed.
func cupsMediaSet(t testing.TB, c *testenv.Cups, printer string) string {
	return cupsExactly(t, c, func(s testenv.CupsState) {
		line := s["ppd"][printer]
		for k := range testenv.CupsKeys(line) {
			if k == "PageSize" || k == "PageRegion" || k == "ImageableArea" || k == "PaperDimension" {
				line = testenv.CupsSetKey(line, k, "A4")
			}
		}
		s["ppd"][printer] = line
	})
}

// cupsClassAdded says whether classes.conf holds the seed's class and the goal's new one,
// its members exactly members (sorted, joined by ","), its description and location the
// goal's, and nothing else changed.
func cupsClassAdded(t testing.TB, c *testenv.Cups, members string) string {
	got := c.State(t)
	row, ok := got["class"][cupsNewClass]
	if !ok {
		return "no class " + cupsNewClass
	}
	keys := testenv.CupsKeys(row)
	printers := strings.Split(keys["Printer"], ",")
	slices.Sort(printers)
	if strings.Join(printers, ",") != members {
		return fmt.Sprintf("the class %s has the members %q, not %q", cupsNewClass, keys["Printer"], members)
	}
	if keys["Info"] != cupsClassInfo || keys["Location"] != "Lab, ground floor" {
		return fmt.Sprintf("the class %s is %q", cupsNewClass, row)
	}
	delete(got["class"], cupsNewClass)
	return got.Diff(c.Seed())
}

// cupsJobCanceled says whether the seed's i-th job is canceled and nothing else changed.
func cupsJobCanceled(t testing.TB, c *testenv.Cups, i int) string {
	return cupsExactly(t, c, func(s testenv.CupsState) {
		id := fmt.Sprint(i + 1)
		s["job"][id] = strings.Replace(s["job"][id], "state=held", "state=canceled", 1)
	})
}

// cupsAdministration opens printer's page from the Printers tab and chooses op in its
// Administration menu ("modify-printer", "delete-printer", "set-printer-options").
func cupsAdministration(t testing.TB, b *testenv.CupsBrowser, printer, op string) {
	t.Helper()
	b.Open(t, "/")
	b.ClickText(t, "Printers")
	b.ClickText(t, printer)
	f := b.Form(t, `NAME="administration"`)
	f.Fields.Set("OP", op)
	b.Send(t, f, "Go")
}

// cupsAddPrinter adds the goal's printer through Administration's Add Printer, its driver
// the Generic model model.
func cupsAddPrinter(t testing.TB, b *testenv.CupsBrowser, model string) {
	t.Helper()
	b.Open(t, "/")
	b.ClickText(t, "Administration")
	b.Send(t, b.Form(t, `VALUE="add-printer"`), "Add Printer")
	f := b.Form(t, `NAME="DEVICE_URI"`)
	f.Fields.Set("DEVICE_URI", "socket")
	b.Send(t, f, "Continue")
	f = b.Form(t, `NAME="DEVICE_URI"`)
	f.Fields.Set("DEVICE_URI", cupsNewURI)
	b.Send(t, f, "Continue")
	f = b.Form(t, `NAME="PRINTER_LOCATION"`)
	f.Fields.Set("PRINTER_NAME", cupsNewPrinter)
	f.Fields.Set("PRINTER_INFO", cupsNewInfo)
	f.Fields.Set("PRINTER_LOCATION", cupsNewLocation)
	b.Send(t, f, "Continue")
	f = b.Form(t, `NAME="PPD_MAKE"`)
	f.Choose(t, "PPD_MAKE", "Generic")
	b.Send(t, f, "Continue")
	f = b.Form(t, `NAME="PPD_NAME"`)
	f.Choose(t, "PPD_NAME", model)
	page := testenv.CupsText(b.Send(t, f, "Add Printer"))
	if !strings.Contains(page, "has been added successfully") && !strings.Contains(page, "Set Default Options for "+cupsNewPrinter) {
		t.Fatalf("adding the printer did not say so: %s", page)
	}
}

// cupsMovePrinter modifies printer: its current connection kept, its location the goal's,
// its current driver kept.
func cupsMovePrinter(t testing.TB, b *testenv.CupsBrowser, printer string) {
	t.Helper()
	cupsAdministration(t, b, printer, "modify-printer")
	b.Send(t, b.Form(t, `NAME="DEVICE_URI"`), "Continue")
	f := b.Form(t, `NAME="PRINTER_LOCATION"`)
	f.Fields.Set("PRINTER_LOCATION", cupsMoved)
	b.Send(t, f, "Continue")
	if !strings.Contains(b.Page(), `NAME="PPD_NAME"`) {
		b.Send(t, b.Form(t, `NAME="PPD_MAKE"`), "Continue")
	}
	if page := testenv.CupsText(b.Send(t, b.Form(t, `NAME="PPD_NAME"`), "Modify Printer")); !strings.Contains(page, "has been modified successfully") {
		t.Fatalf("modifying %s did not say so: %s", printer, page)
	}
}

// cupsSetMedia sets printer's Media Size to A4 through Set Default Options.
func cupsSetMedia(t testing.TB, b *testenv.CupsBrowser, printer string) {
	t.Helper()
	cupsAdministration(t, b, printer, "set-printer-options")
	f := b.Form(t, `VALUE="Set Default Options"`)
	f.Choose(t, "PageSize", "A4")
	if page := testenv.CupsText(b.Send(t, f, "Set Default Options")); !strings.Contains(page, "default options have been set successfully") {
		t.Fatalf("setting %s's default options did not say so: %s", printer, page)
	}
}

// cupsAddClass adds the goal's class through Administration's Add Class, members chosen
// in Members.
func cupsAddClass(t testing.TB, b *testenv.CupsBrowser, members ...string) {
	t.Helper()
	b.Open(t, "/")
	b.ClickText(t, "Administration")
	b.Send(t, b.Form(t, `VALUE="add-class"`), "Add Class")
	f := b.Form(t, `NAME="MEMBER_URIS"`)
	f.Fields.Set("PRINTER_NAME", cupsNewClass)
	f.Fields.Set("PRINTER_INFO", cupsClassInfo)
	f.Fields.Set("PRINTER_LOCATION", "Lab, ground floor")
	f.Choose(t, "MEMBER_URIS", members...)
	if page := testenv.CupsText(b.Send(t, f, "Add Class")); !strings.Contains(page, "has been added successfully") {
		t.Fatalf("adding the class did not say so: %s", page)
	}
}

// cupsDeletePrinter deletes printer through its Administration menu and the confirmation.
func cupsDeletePrinter(t testing.TB, b *testenv.CupsBrowser, printer string) {
	t.Helper()
	cupsAdministration(t, b, printer, "delete-printer")
	if page := testenv.CupsText(b.Send(t, b.Form(t, `NAME="confirm"`), "Delete Printer")); !strings.Contains(page, "has been deleted successfully") {
		t.Fatalf("deleting %s did not say so: %s", printer, page)
	}
}

// cupsCancelJob presses Cancel Job in the Jobs tab's row of the job titled title.
func cupsCancelJob(t testing.TB, b *testenv.CupsBrowser, title string) {
	t.Helper()
	b.Open(t, "/")
	b.ClickText(t, "Jobs")
	if page := testenv.CupsText(b.Send(t, b.FormInRow(t, title, `VALUE="cancel-job"`), "Cancel Job")); !strings.Contains(page, "has been canceled") {
		t.Fatalf("canceling %q did not say so: %s", title, page)
	}
}

// cupsSettings ticks (on) or clears the Server Settings box named box on the
// Administration page and presses Change Settings.
func cupsSettings(t testing.TB, b *testenv.CupsBrowser, box string, on bool) {
	t.Helper()
	b.Open(t, "/")
	b.ClickText(t, "Administration")
	f := b.Form(t, `VALUE="Change Settings"`)
	if on {
		f.Fields.Set(box, "on")
	} else {
		f.Fields.Del(box)
	}
	b.Send(t, f, "Change Settings")
}
