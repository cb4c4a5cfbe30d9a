//go:build heldout

package e2e

import (
	"strings"
	"testing"

	"github.com/webagent-dev/webagent/internal/testenv"
)

// orthancGoal is one everyday goal on Orthanc Explorer: its phrasings (the same steps
// written three ways; Orthanc has no sign-in page, see testenv.Orthanc), its judge, which
// reads Orthanc's index through its REST API ("" when exactly the goal's effect is there
// and nothing else changed), its effect made through the explorer's own requests without
// a browser, and a near miss of it (the same action on a neighbouring patient, study,
// series or instance). Orthanc Explorer 1.10 has no dialog that modifies a resource's
// tags (its "Before modification" link only follows a copy made through the REST API), so
// no goal modifies tags: the goals delete, protect, unprotect and anonymize.
type orthancGoal struct {
	name      string
	phrasings [3]string
	done      func(t *testing.T, w *testenv.Orthanc) string
	do        func(t *testing.T, b *testenv.OrthancBrowser)
	miss      func(t *testing.T, b *testenv.OrthancBrowser)
}

// The studies and series the goals name, by their labels in testenv.OrthancState.
var (
	orthancAnnaChestJan = testenv.OrthancStudyLabel("PAT-1001", "CT CHEST", "20250114")
	orthancRobertBrain  = testenv.OrthancStudyLabel("PAT-1003", "MR BRAIN W/O CONTRAST", "20250203")
	orthancAnneKnee     = testenv.OrthancStudyLabel("PAT-1002", "MR KNEE LEFT", "20250310")
)

var orthancGoals = []orthancGoal{
	{
		name: "delete one of two alike studies",
		phrasings: [3]string{
			`click "All patients", click "MILLER^ANNA", click the "CT CHEST" study under "Tuesday, January 14, 2025", click "Delete this study", click "OK"`,
			`Open All patients, pick MILLER^ANNA, open her CT CHEST from Tuesday, January 14, 2025 (not the one from June), then hit Delete this study and confirm with OK.`,
			`Anna Miller's first chest CT was uploaded by mistake, please get rid of it. In Orthanc Explorer go to All patients, click MILLER^ANNA, choose the CT CHEST study dated Tuesday, January 14, 2025, press "Delete this study" and confirm with OK. Keep her CT CHEST of Monday, June 2, 2025.`,
		},
		done: func(t *testing.T, w *testenv.Orthanc) string {
			return orthancWithout(t, w, "study "+orthancAnnaChestJan)
		},
		do: func(t *testing.T, b *testenv.OrthancBrowser) {
			b.Delete(t, "studies", b.Study(t, "MILLER^ANNA", "CT CHEST", "20250114"))
		},
		miss: func(t *testing.T, b *testenv.OrthancBrowser) {
			b.Delete(t, "studies", b.Study(t, "MILLER^ANNA", "CT CHEST", "20250602"))
		},
	},
	{
		name: "delete a patient",
		phrasings: [3]string{
			`click "All patients", click "JOHNSTON^ROBERT", click "Delete this patient", click "OK"`,
			`Go to All patients, open JOHNSTON^ROBERT (with a T, not JOHNSON^ROBERT), hit Delete this patient and press OK.`,
			`We got a request to erase Robert Johnston's records. Please remove him from Orthanc: in the All patients list open "JOHNSTON^ROBERT" (careful, JOHNSON^ROBERT is someone else), then click Delete this patient and OK in the box that asks.`,
		},
		done: func(t *testing.T, w *testenv.Orthanc) string { return orthancWithout(t, w, "patient PAT-1004") },
		do: func(t *testing.T, b *testenv.OrthancBrowser) {
			b.Delete(t, "patients", b.Patient(t, "JOHNSTON^ROBERT"))
		},
		miss: func(t *testing.T, b *testenv.OrthancBrowser) { b.Delete(t, "patients", b.Patient(t, "JOHNSON^ROBERT")) },
	},
	{
		name: "protect a patient",
		phrasings: [3]string{
			`click "All patients", click "GARCIA^MARIO", switch "Unprotected" to "Protected"`,
			`Open All patients, then GARCIA^MARIO, and flip his Unprotected switch to Protected.`,
			`Mario Garcia's scans must not be recycled when the disk fills up. In Orthanc Explorer click All patients, open GARCIA^MARIO (not GARCIA^MARIA) and turn the switch under his details from Unprotected to Protected.`,
		},
		done: func(t *testing.T, w *testenv.Orthanc) string { return orthancProtected(t, w, "PAT-1006", true) },
		do:   func(t *testing.T, b *testenv.OrthancBrowser) { b.Protect(t, b.Patient(t, "GARCIA^MARIO"), true) },
		miss: func(t *testing.T, b *testenv.OrthancBrowser) { b.Protect(t, b.Patient(t, "GARCIA^MARIA"), false) },
	},
	{
		name: "unprotect a patient",
		phrasings: [3]string{
			`click "All patients", click "MILLER^ANNE", switch "Protected" to "Unprotected"`,
			`In All patients open MILLER^ANNE and set her protection switch back to Unprotected.`,
			`Anne Miller's knee MRI no longer needs to be kept forever. Could you go to All patients in Orthanc Explorer, click MILLER^ANNE (the one born in 1971, not MILLER^ANNA) and slide the switch from Protected to Unprotected?`,
		},
		done: func(t *testing.T, w *testenv.Orthanc) string { return orthancProtected(t, w, "PAT-1002", false) },
		do:   func(t *testing.T, b *testenv.OrthancBrowser) { b.Protect(t, b.Patient(t, "MILLER^ANNE"), false) },
		miss: func(t *testing.T, b *testenv.OrthancBrowser) { b.Protect(t, b.Patient(t, "MILLER^ANNA"), true) },
	},
	{
		name: "anonymize a study",
		phrasings: [3]string{
			`click "All patients", click "JOHNSON^ROBERT", click "MR BRAIN W/O CONTRAST", click "Anonymize", click "OK"`,
			`Open JOHNSON^ROBERT from All patients, go into his MR BRAIN W/O CONTRAST study, hit Anonymize and confirm with OK.`,
			`I need an anonymized copy of Robert Johnson's brain MRI for a teaching file. Go to All patients, click JOHNSON^ROBERT, open the study "MR BRAIN W/O CONTRAST" (not his CT HEAD), press Anonymize and then OK.`,
		},
		done: func(t *testing.T, w *testenv.Orthanc) string {
			want := w.Seed()
			want.AddAnonymizedCopy("PAT-1003", orthancRobertBrain)
			return w.Differs(t, want)
		},
		do: func(t *testing.T, b *testenv.OrthancBrowser) {
			b.Anonymize(t, "studies", b.Study(t, "JOHNSON^ROBERT", "MR BRAIN W/O CONTRAST", "20250203"))
		},
		miss: func(t *testing.T, b *testenv.OrthancBrowser) {
			b.Anonymize(t, "studies", b.Study(t, "JOHNSON^ROBERT", "CT HEAD", "20241230"))
		},
	},
	{
		name: "delete a series",
		phrasings: [3]string{
			`click "All patients", click "MILLER^ANNE", click "MR KNEE LEFT", click "Cor T1", click "Delete this series", click "OK"`,
			`Go to MILLER^ANNE via All patients, open her MR KNEE LEFT study, then the Cor T1 series, and delete it with Delete this series and OK.`,
			`The coronal T1 series of Anne Miller's left knee MRI is corrupt. Please open All patients, click MILLER^ANNE, then the study MR KNEE LEFT, click the series "Cor T1" and press Delete this series, confirming with OK. Leave the other series alone.`,
		},
		done: func(t *testing.T, w *testenv.Orthanc) string {
			return orthancWithout(t, w, "series "+orthancAnneKnee+" / 2 Cor T1")
		},
		do: func(t *testing.T, b *testenv.OrthancBrowser) {
			b.Delete(t, "series", b.Series(t, b.Study(t, "MILLER^ANNE", "MR KNEE LEFT", "20250310"), "Cor T1"))
		},
		miss: func(t *testing.T, b *testenv.OrthancBrowser) {
			b.Delete(t, "series", b.Series(t, b.Study(t, "GARCIA^MARIA", "MR KNEE RIGHT", "20250520"), "Cor T1"))
		},
	},
	{
		name: "delete one instance of a series",
		phrasings: [3]string{
			`click "All patients", click "MILLER^ANNA", click the "CT CHEST" study under "Tuesday, January 14, 2025", click "Axial 5mm", click "Instance: 2", click "Delete this instance", click "OK"`,
			`Open All patients, MILLER^ANNA, her CT CHEST of Tuesday, January 14, 2025, then the Axial 5mm series; open Instance: 2 there and delete it (Delete this instance, then OK).`,
			`One image of Anna Miller's January chest CT is a blurry duplicate. In Orthanc Explorer go to All patients, click MILLER^ANNA, open the CT CHEST study from Tuesday, January 14, 2025, then the series Axial 5mm, click "Instance: 2", press Delete this instance and confirm with OK. Instances 1 and 3 stay.`,
		},
		done: func(t *testing.T, w *testenv.Orthanc) string {
			want := w.Seed()
			want["series "+orthancAnnaChestJan+" / 2 Axial 5mm"] = "CT, instances 1, 3"
			return w.Differs(t, want)
		},
		do:   func(t *testing.T, b *testenv.OrthancBrowser) { b.Delete(t, "instances", orthancAnnaAxial(t, b, 2)) },
		miss: func(t *testing.T, b *testenv.OrthancBrowser) { b.Delete(t, "instances", orthancAnnaAxial(t, b, 3)) },
	},
	{
		name: "anonymize a patient",
		phrasings: [3]string{
			`click "All patients", click "GARCIA^MARIA", click "Anonymize", click "OK"`,
			`From All patients open GARCIA^MARIA and anonymize the whole patient (Anonymize, then OK).`,
			`Maria Garcia agreed to share her imaging for research, so please make an anonymized copy of her. In Orthanc Explorer click All patients, open GARCIA^MARIA (not GARCIA^MARIO), press Anonymize on her page and answer OK.`,
		},
		done: func(t *testing.T, w *testenv.Orthanc) string {
			want := w.Seed()
			want.AddAnonymizedCopy("PAT-1005", testenv.OrthancStudyLabel("PAT-1005", "US ABDOMEN", "20250512"),
				testenv.OrthancStudyLabel("PAT-1005", "MR KNEE RIGHT", "20250520"))
			return w.Differs(t, want)
		},
		do: func(t *testing.T, b *testenv.OrthancBrowser) {
			b.Anonymize(t, "patients", b.Patient(t, "GARCIA^MARIA"))
		},
		miss: func(t *testing.T, b *testenv.OrthancBrowser) {
			b.Anonymize(t, "patients", b.Patient(t, "GARCIA^MARIO"))
		},
	},
}

// orthancWithout says whether the resource key (a label of testenv.OrthancState) is gone
// with everything under it (a patient's studies and series, a study's series), and
// nothing else changed.
func orthancWithout(t *testing.T, w *testenv.Orthanc, key string) string {
	want := w.Seed()
	_, label, _ := strings.Cut(key, " ")
	for k := range want {
		_, l, _ := strings.Cut(k, " ")
		if k == key || strings.HasPrefix(l, label+" / ") {
			delete(want, k)
		}
	}
	return w.Differs(t, want)
}

// orthancProtected says whether the patient with the PatientID id is protected (on) or
// not, and nothing else changed.
func orthancProtected(t *testing.T, w *testenv.Orthanc, id string, on bool) string {
	want := w.Seed()
	v := want["patient "+id]
	if on {
		want["patient "+id] = strings.Replace(v, ", unprotected", ", protected", 1)
	} else {
		want["patient "+id] = strings.Replace(v, ", protected", ", unprotected", 1)
	}
	return w.Differs(t, want)
}

// orthancAnnaAxial is the id of the instance shown as "Instance: index" in the Axial 5mm
// series of MILLER^ANNA's CT CHEST of 2025-01-14.
func orthancAnnaAxial(t *testing.T, b *testenv.OrthancBrowser, index int) string {
	return b.Instance(t, b.Series(t, b.Study(t, "MILLER^ANNA", "CT CHEST", "20250114"), "Axial 5mm"), index)
}
