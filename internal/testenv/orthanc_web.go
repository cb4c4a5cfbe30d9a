package testenv

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"strings"
	"testing"
)

// OrthancBrowser sends what Orthanc Explorer's own page sends for a person's actions: the
// lists its pages load (GET /patients?expand&since=0&limit=101&full for All patients,
// /patients/ID/studies?full on a patient's page, /studies/ID/series?full on a study's,
// /series/ID/instances?full on a series'), the OK of its dialogs (DELETE /LEVEL/ID for
// "Delete this …", POST /LEVEL/ID/anonymize keeping the descriptions for "Anonymize")
// and its protection switch (PUT /patients/ID/protected with 1 or 0). There is no
// sign-in. It is how the harness's own test does each goal's effect without the agent.
type OrthancBrowser struct {
	w *Orthanc
	c *http.Client
}

// Browser is a browser on no page yet.
func (w *Orthanc) Browser() *OrthancBrowser { return &OrthancBrowser{w: w, c: &http.Client{}} }

// Open fetches a page or an asset (a path from the server's root, like /app/explorer.html)
// and returns its body. An answer of 400 or more fails the test.
func (b *OrthancBrowser) Open(t testing.TB, path string) string {
	t.Helper()
	return string(orthancSend(t, b.c, "GET", b.w.Base+path, ""))
}

// orthancListed is a resource as the explorer's lists load it (with &full: each main tag
// by its number, with its name and value).
type orthancListed struct {
	ID                                       string
	IndexInSeries                            int
	MainDicomTags                            map[string]struct{ Name, Value string }
	ParentPatient, ParentStudy, ParentSeries string
}

// tag is the value of the main tag named name.
func (r orthancListed) tag(name string) string {
	for _, v := range r.MainDicomTags {
		if v.Name == name {
			return v.Value
		}
	}
	return ""
}

// list loads a list the explorer loads (path from the REST API's root).
func (b *OrthancBrowser) list(t testing.TB, path string) []orthancListed {
	t.Helper()
	var out []orthancListed
	if err := json.Unmarshal(orthancSend(t, b.c, "GET", b.w.Base+path, ""), &out); err != nil {
		t.Fatalf("orthanc: GET %s: %v", path, err)
	}
	return out
}

// one is the one resource of list whose tags match (name, value pairs), failing the test
// when there is not exactly one.
func orthancOne(t testing.TB, list []orthancListed, what string, match func(orthancListed) bool) string {
	t.Helper()
	var ids []string
	for _, r := range list {
		if match(r) {
			ids = append(ids, r.ID)
		}
	}
	if len(ids) != 1 {
		t.Fatalf("orthanc: %d resources are %s, not one", len(ids), what)
	}
	return ids[0]
}

// Patient is the id of the patient the All patients list shows as name.
func (b *OrthancBrowser) Patient(t testing.TB, name string) string {
	t.Helper()
	return orthancOne(t, b.list(t, "/patients?expand&since=0&limit=101&full"), "the patient "+name,
		func(r orthancListed) bool { return r.tag("PatientName") == name })
}

// Study is the id of the study of the patient name (as All patients shows it) whose
// description and date (YYYYMMDD) are those, as the patient's page lists it.
func (b *OrthancBrowser) Study(t testing.TB, name, description, date string) string {
	t.Helper()
	return orthancOne(t, b.list(t, "/patients/"+b.Patient(t, name)+"/studies?full"), fmt.Sprintf("%s's %s of %s", name, description, date),
		func(r orthancListed) bool {
			return r.tag("StudyDescription") == description && r.tag("StudyDate") == date
		})
}

// Series is the id of the series whose description is description in the study study
// (an id), as the study's page lists it.
func (b *OrthancBrowser) Series(t testing.TB, study, description string) string {
	t.Helper()
	return orthancOne(t, b.list(t, "/studies/"+study+"/series?full"), "the series "+description,
		func(r orthancListed) bool { return r.tag("SeriesDescription") == description })
}

// Instance is the id of the instance the series' page (series, an id) shows as
// "Instance: index".
func (b *OrthancBrowser) Instance(t testing.TB, series string, index int) string {
	t.Helper()
	return orthancOne(t, b.list(t, "/series/"+series+"/instances?full"), fmt.Sprintf("the instance %d", index),
		func(r orthancListed) bool { return r.IndexInSeries == index })
}

// Delete deletes the resource id of level (patients, studies, series, instances), as the
// OK of "Delete this patient?" (study, series, instance) does.
func (b *OrthancBrowser) Delete(t testing.TB, level, id string) {
	t.Helper()
	orthancSend(t, b.c, "DELETE", b.w.Base+"/"+level+"/"+id, "")
}

// Anonymize anonymizes the resource id of level, as the OK of "Anonymize this study?"
// (patient, series) does: Orthanc makes an anonymized copy, keeping the descriptions.
func (b *OrthancBrowser) Anonymize(t testing.TB, level, id string) {
	t.Helper()
	orthancSend(t, b.c, "POST", b.w.Base+"/"+level+"/"+id+"/anonymize", `{ "Keep" : [ "SeriesDescription", "StudyDescription" ] }`)
}

// Protect sets the protection of the patient id, as the patient page's switch does
// (Protected: on).
func (b *OrthancBrowser) Protect(t testing.TB, id string, on bool) {
	t.Helper()
	body := "0"
	if on {
		body = "1"
	}
	orthancSend(t, b.c, "PUT", b.w.Base+"/patients/"+id+"/protected", body)
}

// call sends body (nil for none) as JSON to the REST API's path and decodes the answer
// into out (nil to drop it); an answer of 400 or more fails the test.
func (w *Orthanc) call(t testing.TB, method, path string, body, out any) {
	t.Helper()
	var in string
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		in = string(data)
	}
	data := orthancSend(t, http.DefaultClient, method, w.Base+path, in)
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("orthanc: %s %s: %v: %s", method, path, err, data)
		}
	}
}

// put sends text to the REST API's path with PUT.
func (w *Orthanc) put(t testing.TB, path, text string) {
	t.Helper()
	orthancSend(t, http.DefaultClient, "PUT", w.Base+path, text)
}

// text is the REST API's answer to GET path, trimmed.
func (w *Orthanc) text(t testing.TB, path string) string {
	t.Helper()
	return strings.TrimSpace(string(orthancSend(t, http.DefaultClient, "GET", w.Base+path, "")))
}

// orthancSend sends method to url with body ("" for none) and returns the answer's body;
// an answer of 400 or more fails the test.
func orthancSend(t testing.TB, c *http.Client, method, url, body string) []byte {
	t.Helper()
	var in io.Reader
	if body != "" {
		in = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, in)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("orthanc: %s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 400 {
		t.Fatalf("orthanc: %s %s answered %d: %s", method, url, resp.StatusCode, out)
	}
	return out
}

// orthancImage is the image each seed instance holds, as create-dicom takes it: a small
// grey gradient (a PNG in a data URI).
func orthancImage() string {
	img := image.NewGray(image.Rect(0, 0, 32, 32))
	for y := 0; y < 32; y++ {
		for x := 0; x < 32; x++ {
			img.SetGray(x, y, color.Gray{Y: uint8((x + y) * 4)})
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
}
