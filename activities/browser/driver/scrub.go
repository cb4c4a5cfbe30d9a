package driver

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/webagent-dev/webagent/plan"
)

// The one choke point of secrets on their way out: every result a browser activity hands
// its workflow — and from there the history, the output, the judge, the model and the
// next step's parameters — goes through scrub, which redacts every string in it for
// every form a typed secret takes (redact.go). The parts of a result that are names the
// worker made (object keys, fingerprints) are left alone: a short secret (a PIN) must not
// break a key that happens to hold its digits.

// scrub redacts, in place, every string reachable from v (a pointer to a result).
func (r *redactor) scrub(v any) {
	forms := r.allForms()
	if len(forms) == 0 {
		return
	}
	scrubValue(reflect.ValueOf(v), forms, "")
}

// kept are fields that hold names the worker made, never page content.
func kept(field string) bool {
	return strings.HasSuffix(field, "Key") || strings.HasSuffix(field, "Keys") || field == "Fingerprint" ||
		field == "States" || field == "SessionID" || field == "TaskQueue" || field == "BeforeState"
}

func scrubValue(v reflect.Value, forms []string, field string) {
	if kept(field) {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			scrubValue(v.Elem(), forms, field)
		}
	case reflect.Interface:
		// A value in an interface cannot be set in place: a slice's or a map's entry is
		// replaced by its redacted copy where it is held (scrubAny).
	case reflect.String:
		if v.CanSet() {
			v.SetString(redactAll(forms, v.String()))
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < v.NumField(); i++ {
			if t.Field(i).IsExported() {
				scrubValue(v.Field(i), forms, t.Field(i).Name)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if e := v.Index(i); e.Kind() == reflect.Interface {
				if !e.IsNil() {
					e.Set(reflect.ValueOf(scrubAny(e.Interface(), forms)))
				}
			} else {
				scrubValue(e, forms, "")
			}
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := v.MapIndex(k)
			var nv reflect.Value
			switch {
			case e.Kind() == reflect.String:
				nv = reflect.ValueOf(redactAll(forms, e.String())).Convert(e.Type())
			case e.Kind() == reflect.Interface && !e.IsNil():
				nv = reflect.ValueOf(scrubAny(e.Interface(), forms))
			default:
				cp := reflect.New(e.Type()).Elem()
				cp.Set(e)
				scrubValue(cp, forms, "")
				nv = cp
			}
			v.SetMapIndex(k, nv)
		}
	}
}

// scrubAny redacts a decoded JSON-like value (strings, numbers, lists, objects).
func scrubAny(x any, forms []string) any {
	switch t := x.(type) {
	case string:
		return redactAll(forms, t)
	case []any:
		for i := range t {
			t[i] = scrubAny(t[i], forms)
		}
		return t
	case map[string]any:
		for k, e := range t {
			t[k] = scrubAny(e, forms)
		}
		return t
	case nil:
		return nil
	default:
		v := reflect.ValueOf(x)
		cp := reflect.New(v.Type()).Elem()
		cp.Set(v)
		scrubValue(cp, forms, "")
		return cp.Interface()
	}
}

// refuseRead keeps a value read from the page from carrying a secret the run typed into
// a parameter, the output or another page: a read (an EXTRACT, a "copy the text in …")
// whose value holds one, in any form or in part, fails, and what it read is dropped.
func (r *redactor) refuseRead(out *Outcome) {
	if out == nil || len(out.Extracted) == 0 {
		return
	}
	for name, v := range out.Extracted {
		s, ok := v.(string)
		if !ok {
			s = fmt.Sprint(v)
		}
		if !r.holds(s) {
			continue
		}
		out.Extracted = nil
		out.OK = false
		kept := out.Actions[:0]
		for _, a := range out.Actions {
			if !strings.HasPrefix(a, "read ") {
				kept = append(kept, a)
			}
		}
		out.Actions = append(kept, fmt.Sprintf("did not read %q: it holds a secret this run typed", name))
		out.Feedback = &plan.Feedback{Type: plan.Other,
			Details:    fmt.Sprintf("not read: the value for %q holds a secret this run typed, and a secret is never read back from a page (it would become a parameter, be in the output and the history, and could be typed elsewhere)", name),
			Suggestion: "read something else; a secret is typed only by its name ({{secret:name}}) and only on its own sites"}
		return
	}
}
