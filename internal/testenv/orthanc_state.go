package testenv

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// OrthancState is what the judges compare of an Orthanc, read from its index through its
// REST API, one entry a resource, by a label of its own that does not change with
// Orthanc's ids:
//
//   - "patient PAT-1001": "MILLER^ANNA, born 19640312, sex F, protected" (or unprotected);
//   - "study PAT-1001 / CT CHEST of 2025-01-14": "CT CHEST, accession ACC-25-0114";
//   - "series PAT-1001 / CT CHEST of 2025-01-14 / 2 Axial 5mm": "CT, instances 1, 2, 3"
//     (the instance numbers it holds).
//
// A resource Orthanc made by anonymizing another (its AnonymizedFrom metadata) is labelled
// "anonymized copy of" the other's label ("patient anonymized copy of PAT-1003", "study
// anonymized copy of PAT-1003 / CT HEAD of 2024-12-30"…); such a patient's value is
// "anonymized, unprotected" (its new name is Orthanc's to choose), such a study's the
// description and accession number it kept.
type OrthancState map[string]string

// orthancRes is a patient, study, series or instance as GET /LEVEL?expand lists it.
type orthancRes struct {
	ID                                       string
	MainDicomTags                            map[string]string
	ParentPatient, ParentStudy, ParentSeries string
}

// State reads the instance's index now: every patient, study, series and instance, the
// AnonymizedFrom metadata of each patient, study and series, and each patient's
// protection.
func (w *Orthanc) State(t testing.TB) OrthancState {
	t.Helper()
	level := map[string][]orthancRes{}
	from := map[string]string{} // an anonymized copy's id -> its source's id
	for _, l := range []string{"patients", "studies", "series", "instances"} {
		var list []orthancRes
		w.call(t, "GET", "/"+l+"?expand", nil, &list)
		level[l] = list
		if l == "instances" {
			continue
		}
		for _, r := range list {
			var meta map[string]string
			w.call(t, "GET", "/"+l+"/"+r.ID+"/metadata?expand", nil, &meta)
			if src := meta["AnonymizedFrom"]; src != "" {
				from[r.ID] = src
			}
		}
	}
	l := orthancLabeler{from: from, label: map[string]string{}, res: map[string]orthancRes{}}
	for _, list := range level {
		for _, r := range list {
			l.res[r.ID] = r
		}
	}
	s := OrthancState{}
	for _, p := range level["patients"] {
		value := fmt.Sprintf("%s, born %s, sex %s, %s", p.MainDicomTags["PatientName"], p.MainDicomTags["PatientBirthDate"],
			p.MainDicomTags["PatientSex"], orthancProtection(w.text(t, "/patients/"+p.ID+"/protected") == "1"))
		if from[p.ID] != "" {
			value = "anonymized, " + orthancProtection(w.text(t, "/patients/"+p.ID+"/protected") == "1")
		}
		s.add("patient "+l.of(p.ID), value)
	}
	for _, st := range level["studies"] {
		s.add("study "+l.of(st.ID), fmt.Sprintf("%s, accession %s", st.MainDicomTags["StudyDescription"], orNone(st.MainDicomTags["AccessionNumber"])))
	}
	numbers := map[string][]string{}
	for _, in := range level["instances"] {
		numbers[in.ParentSeries] = append(numbers[in.ParentSeries], in.MainDicomTags["InstanceNumber"])
	}
	for _, se := range level["series"] {
		s.add("series "+l.of(se.ID), orthancSeriesValue(se.MainDicomTags["Modality"], numbers[se.ID]))
	}
	return s
}

// add sets s[key] to value, or, when another resource has that label already, the label
// followed by " (another)" (a study anonymized twice).
func (s OrthancState) add(key, value string) {
	for {
		if _, taken := s[key]; !taken {
			s[key] = value
			return
		}
		key += " (another)"
	}
}

// orthancLabeler labels resources: a patient by its PatientID, a study by its patient's
// label, description and date, a series by its study's label, number and description, an
// anonymized copy by "anonymized copy of" its source's label.
type orthancLabeler struct {
	from  map[string]string
	label map[string]string
	res   map[string]orthancRes
}

// of is the label of the resource id.
func (l orthancLabeler) of(id string) string {
	if v, ok := l.label[id]; ok {
		return v
	}
	l.label[id] = "a resource being labelled" // a source that is its own copy's copy
	r := l.res[id]
	var v string
	switch src := l.from[id]; {
	case src != "" && l.res[src].ID != "":
		v = "anonymized copy of " + l.of(src)
	case src != "":
		v = "anonymized copy of a resource no longer here"
	case r.ParentStudy != "": // a series
		v = fmt.Sprintf("%s / %s %s", l.of(r.ParentStudy), r.MainDicomTags["SeriesNumber"], r.MainDicomTags["SeriesDescription"])
	case r.ParentPatient != "": // a study
		v = OrthancStudyLabel(l.of(r.ParentPatient), r.MainDicomTags["StudyDescription"], r.MainDicomTags["StudyDate"])
	default:
		v = r.MainDicomTags["PatientID"]
	}
	l.label[id] = v
	return v
}

// OrthancStudyLabel is the label of a study (without "study "): its patient's label, its
// description and its date (YYYYMMDD, shown as YYYY-MM-DD).
func OrthancStudyLabel(patient, description, date string) string {
	if len(date) == 8 {
		date = date[:4] + "-" + date[4:6] + "-" + date[6:]
	}
	return fmt.Sprintf("%s / %s of %s", patient, description, orNone(date))
}

// orthancProtection words a patient's protection.
func orthancProtection(on bool) string {
	if on {
		return "protected"
	}
	return "unprotected"
}

// orthancSeriesValue is a series' value: its modality and the instance numbers it holds.
func orthancSeriesValue(modality string, numbers []string) string {
	slices.SortFunc(numbers, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	return fmt.Sprintf("%s, instances %s", modality, strings.Join(numbers, ", "))
}

// OrthancSeedState is the state OrthancSeed makes.
func OrthancSeedState() OrthancState {
	s := OrthancState{}
	for _, p := range OrthancSeed {
		s["patient "+p.ID] = fmt.Sprintf("%s, born %s, sex %s, %s", p.Name, p.Birth, p.Sex, orthancProtection(p.Protected))
		for _, st := range p.Studies {
			study := OrthancStudyLabel(p.ID, st.Description, st.Date)
			s["study "+study] = fmt.Sprintf("%s, accession %s", st.Description, st.Accession)
			for _, se := range st.Series {
				var numbers []string
				for i := 1; i <= se.Instances; i++ {
					numbers = append(numbers, fmt.Sprint(i))
				}
				s[fmt.Sprintf("series %s / %d %s", study, se.Number, se.Description)] = orthancSeriesValue(se.Modality, numbers)
			}
		}
	}
	return s
}

// clone is a copy of s.
func (s OrthancState) clone() OrthancState { return maps.Clone(s) }

// Diff says how s differs from want ("" when it does not): each resource missing, extra
// or with another value, by label.
func (s OrthancState) Diff(want OrthancState) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if _, ok := s[k]; !ok {
			out = append(out, fmt.Sprintf("no %s (want %q)", k, want[k]))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s)) {
		wv, ok := want[k]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("an extra %s (%q)", k, s[k]))
		case wv != s[k]:
			out = append(out, fmt.Sprintf("%s is %q, not %q", k, s[k], wv))
		}
	}
	return strings.Join(out, "; ")
}

// Differs says how the index now differs from want ("" when it does not).
func (w *Orthanc) Differs(t testing.TB, want OrthancState) string {
	t.Helper()
	return w.State(t).Diff(want)
}

// AddAnonymizedCopy adds to s what anonymizing the studies (labels without "study ", as
// OrthancStudyLabel makes them) of the patient with the PatientID patient makes: an
// anonymized copy of the patient, unprotected, and of each study and its series, the
// study's description kept and its accession number gone, each series' modality and
// instances kept.
func (s OrthancState) AddAnonymizedCopy(patient string, studies ...string) {
	s["patient anonymized copy of "+patient] = "anonymized, unprotected"
	for _, study := range studies {
		desc, _, _ := strings.Cut(s["study "+study], ", accession ")
		s["study anonymized copy of "+study] = desc + ", accession " + orNone("")
		for k, v := range maps.Clone(s) {
			if rest, ok := strings.CutPrefix(k, "series "+study+" / "); ok {
				s["series anonymized copy of "+study+" / "+rest] = v
			}
		}
	}
}
