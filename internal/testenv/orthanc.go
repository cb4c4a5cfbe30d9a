package testenv

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Orthanc is a private Orthanc — Debian's Orthanc 1.10.1, a lightweight DICOM server for
// medical images — whose own web interface, Orthanc Explorer (/app/explorer.html, a
// jQuery Mobile app), is what a person uses: a lookup page with "All patients" and "All
// studies", the list of patients, a patient's page (its studies by date, the
// Unprotected/Protected switch, "Delete this patient", "Anonymize"), a study's page (its
// series, "Delete this study", "Anonymize"), a series' page (its instances, "Delete this
// series") and an instance's page ("Delete this instance"), each deletion and
// anonymization asked again in a small dialog with OK and Cancel. Each instance runs as
// the test's own process with a configuration of its own in a temporary folder: its
// storage and index (SQLite) folders there, its HTTP server on a free loopback port,
// its DICOM server off, remote access refused, no plugins, and no HTTP authentication:
// Orthanc's accounts are HTTP Basic only (it has no sign-in page), so, as Cloud
// Commander's and Supervisor's instances are, it is open to 127.0.0.1 and the goals have
// no sign-in. It is seeded with a small clinic's patients (OrthancSeed) through its own
// REST API (POST /tools/create-dicom, a small generated image in each instance) and the
// judges read its index back through that REST API (/patients, /studies, /series,
// /instances, their metadata, /patients/ID/protected).
type Orthanc struct {
	URL  string // Orthanc Explorer, where a person starts: http://127.0.0.1:PORT/app/explorer.html
	Base string // the REST API's root: http://127.0.0.1:PORT
	Dir  string // the instance's folder: its configuration, storage/ and index/
	proc *process
	seed OrthancState
}

// orthancBin is Debian's Orthanc server.
const orthancBin = "/usr/sbin/Orthanc"

// OrthancInstalled says whether Debian's orthanc is here (deploy/setup.sh heldout installs
// it).
func OrthancInstalled() bool { return exists(orthancBin) }

// OrthancPatient is one patient of the seed: the DICOM patient's ID, name (as DICOM writes
// it, FAMILY^GIVEN, which is how Orthanc Explorer shows it), birth date (YYYYMMDD), sex,
// whether it starts protected from recycling, and its studies.
type OrthancPatient struct {
	ID, Name, Birth, Sex string
	Protected            bool
	Studies              []OrthancStudy
}

// OrthancStudy is one study of a seed patient: its description, date (YYYYMMDD), time,
// accession number and series.
type OrthancStudy struct {
	Description, Date, Time, Accession string
	Series                             []OrthancSeries
}

// OrthancSeries is one series of a seed study: its number, description, modality and how
// many instances (images, numbered from 1) it holds.
type OrthancSeries struct {
	Number                int
	Description, Modality string
	Instances             int
}

// OrthancSeed is every instance's seed: a small clinic's patients, names alike (MILLER^ANNA
// and MILLER^ANNE, JOHNSON^ROBERT and JOHNSTON^ROBERT, GARCIA^MARIA and GARCIA^MARIO),
// studies alike (two CT CHEST of one patient, an MR KNEE of two), series alike (Cor T1 in
// two knee studies), two patients protected.
var OrthancSeed = []OrthancPatient{
	{ID: "PAT-1001", Name: "MILLER^ANNA", Birth: "19640312", Sex: "F", Studies: []OrthancStudy{
		{Description: "CT CHEST", Date: "20250114", Time: "093000", Accession: "ACC-25-0114", Series: []OrthancSeries{
			{1, "Scout", "CT", 1}, {2, "Axial 5mm", "CT", 3}, {3, "Coronal MPR", "CT", 2}}},
		{Description: "CT CHEST", Date: "20250602", Time: "141500", Accession: "ACC-25-0602", Series: []OrthancSeries{
			{1, "Scout", "CT", 1}, {2, "Axial 5mm", "CT", 2}}},
		{Description: "XR CHEST PA AND LATERAL", Date: "20241120", Time: "081000", Accession: "ACC-24-1120", Series: []OrthancSeries{
			{1, "PA", "CR", 1}, {2, "Lateral", "CR", 1}}},
	}},
	{ID: "PAT-1002", Name: "MILLER^ANNE", Birth: "19710805", Sex: "F", Protected: true, Studies: []OrthancStudy{
		{Description: "MR KNEE LEFT", Date: "20250310", Time: "103000", Accession: "ACC-25-0310", Series: []OrthancSeries{
			{1, "Sag PD FS", "MR", 2}, {2, "Cor T1", "MR", 2}, {3, "Ax T2", "MR", 2}}},
	}},
	{ID: "PAT-1003", Name: "JOHNSON^ROBERT", Birth: "19581022", Sex: "M", Studies: []OrthancStudy{
		{Description: "MR BRAIN W/O CONTRAST", Date: "20250203", Time: "113000", Accession: "ACC-25-0203", Series: []OrthancSeries{
			{1, "Ax T1", "MR", 2}, {2, "Ax T2 FLAIR", "MR", 2}, {3, "DWI", "MR", 1}}},
		{Description: "CT HEAD", Date: "20241230", Time: "221500", Accession: "ACC-24-1230", Series: []OrthancSeries{
			{1, "Axial 5mm", "CT", 2}}},
	}},
	{ID: "PAT-1004", Name: "JOHNSTON^ROBERT", Birth: "19790117", Sex: "M", Studies: []OrthancStudy{
		{Description: "XR HAND RIGHT", Date: "20250408", Time: "151000", Accession: "ACC-25-0408", Series: []OrthancSeries{
			{1, "PA", "DX", 1}, {2, "Oblique", "DX", 1}}},
	}},
	{ID: "PAT-1005", Name: "GARCIA^MARIA", Birth: "19880530", Sex: "F", Protected: true, Studies: []OrthancStudy{
		{Description: "US ABDOMEN", Date: "20250512", Time: "090000", Accession: "ACC-25-0512", Series: []OrthancSeries{
			{1, "Liver", "US", 2}, {2, "Kidneys", "US", 2}}},
		{Description: "MR KNEE RIGHT", Date: "20250520", Time: "164500", Accession: "ACC-25-0520", Series: []OrthancSeries{
			{1, "Sag PD FS", "MR", 2}, {2, "Cor T1", "MR", 2}}},
	}},
	{ID: "PAT-1006", Name: "GARCIA^MARIO", Birth: "19850914", Sex: "M", Studies: []OrthancStudy{
		{Description: "CT ABDOMEN PELVIS", Date: "20250701", Time: "104500", Accession: "ACC-25-0701", Series: []OrthancSeries{
			{1, "Axial 5mm", "CT", 2}, {2, "Coronal MPR", "CT", 1}}},
	}},
}

// StartOrthanc writes a private configuration into a temporary folder, runs Orthanc on it
// until the test ends, waits until its REST API answers, seeds it with OrthancSeed
// through that API and keeps what its index then holds as the seed the judges compare
// with. It skips the test when Orthanc is missing.
func StartOrthanc(t testing.TB) *Orthanc {
	t.Helper()
	if !OrthancInstalled() {
		t.Skip("Orthanc is not installed: run `deploy/setup.sh heldout` (it installs Debian's orthanc)")
	}
	dir := t.TempDir()
	port := FreePort(t)
	w := &Orthanc{Base: "http://" + Addr(port), Dir: dir}
	w.URL = w.Base + "/app/explorer.html"
	for _, d := range []string{"storage", "index"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	conf := filepath.Join(dir, "orthanc.json")
	write(t, conf, orthancConfig(dir, port))
	cmd := exec.Command(orthancBin, conf)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TZ=UTC", "LANG=C.UTF-8"}
	w.proc = start(t, "orthanc", cmd)
	waitHTTP(t, "orthanc", w.Base+"/system", 60*time.Second, w.proc)
	w.writeSeed(t)
	w.seed = w.State(t)
	if why := w.seed.Diff(OrthancSeedState()); why != "" {
		t.Fatalf("orthanc: the index is not the seed: %s", why)
	}
	return w
}

// orthancConfig is the instance's configuration: its storage and index in dir, HTTP on
// 127.0.0.1:port alone (remote access refused), no DICOM server, no HTTP authentication
// (Orthanc's accounts are HTTP Basic only), no plugins, no Lua, no saved jobs.
func orthancConfig(dir string, port int) string {
	conf := map[string]any{
		"Name":                  "Clinic PACS",
		"StorageDirectory":      filepath.Join(dir, "storage"),
		"IndexDirectory":        filepath.Join(dir, "index"),
		"StorageCompression":    false,
		"MaximumStorageSize":    0,
		"MaximumPatientCount":   0,
		"HttpServerEnabled":     true,
		"HttpPort":              port,
		"RemoteAccessAllowed":   false,
		"AuthenticationEnabled": false,
		"SslEnabled":            false,
		"DicomServerEnabled":    false,
		"DicomPort":             0,
		"Plugins":               []string{},
		"LuaScripts":            []string{},
		"SaveJobs":              false,
		"StableAge":             1,
		"DicomModalities":       map[string]any{},
		"OrthancPeers":          map[string]any{},
	}
	data, _ := json.MarshalIndent(conf, "", "  ")
	return string(data)
}

// writeSeed creates each instance of OrthancSeed through POST /tools/create-dicom, with
// the patient's, study's and series' tags, UIDs of their own and a small image, and
// protects the seed's protected patients (PUT /patients/ID/protected).
func (w *Orthanc) writeSeed(t testing.TB) {
	t.Helper()
	img := orthancImage()
	for p, pat := range OrthancSeed {
		var patientID string
		for s, st := range pat.Studies {
			for r, se := range st.Series {
				for i := 1; i <= se.Instances; i++ {
					tags := map[string]string{
						"PatientName": pat.Name, "PatientID": pat.ID, "PatientBirthDate": pat.Birth, "PatientSex": pat.Sex,
						"StudyDescription": st.Description, "StudyDate": st.Date, "StudyTime": st.Time,
						"AccessionNumber": st.Accession, "ReferringPhysicianName": "HOLLOWAY^JAMES",
						"StudyInstanceUID":  fmt.Sprintf("%s.%d.%d", orthancUIDRoot, p+1, s+1),
						"SeriesInstanceUID": fmt.Sprintf("%s.%d.%d.%d", orthancUIDRoot, p+1, s+1, r+1),
						"SOPInstanceUID":    fmt.Sprintf("%s.%d.%d.%d.%d", orthancUIDRoot, p+1, s+1, r+1, i),
						"SeriesDescription": se.Description, "Modality": se.Modality, "SeriesNumber": fmt.Sprint(se.Number),
						"SeriesDate": st.Date, "SeriesTime": st.Time, "InstanceNumber": fmt.Sprint(i),
						"InstitutionName": "Riverside Imaging Clinic",
					}
					var out struct{ ParentPatient string }
					w.call(t, "POST", "/tools/create-dicom", map[string]any{"Force": true, "Tags": tags, "Content": img}, &out)
					patientID = out.ParentPatient
				}
			}
		}
		if pat.Protected {
			w.put(t, "/patients/"+patientID+"/protected", "1")
		}
	}
}

// orthancUIDRoot is the root of the seed's DICOM UIDs.
const orthancUIDRoot = "1.2.826.0.1.3680043.10.543"

// Seed is the state the fresh instance held (a copy, to change into what a goal should
// leave).
func (w *Orthanc) Seed() OrthancState { return w.seed.clone() }

// Log is what Orthanc printed so far.
func (w *Orthanc) Log() string { return w.proc.out.String() }
