package workflows

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// Duration is a time.Duration written as "30s" in JSON.
type Duration time.Duration

// MarshalJSON writes "30s".
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads "30s" or nanoseconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("%q is not a duration (e.g. \"30s\", \"5m\")", s)
		}
		*d = Duration(v)
		return nil
	}
	var ns int64
	if err := json.Unmarshal(b, &ns); err != nil {
		return fmt.Errorf("want a duration such as \"30s\", got %s", b)
	}
	*d = Duration(ns)
	return nil
}

// Limits is its own JSON: its fields by their json tags, with durations written as Go
// duration strings ("30s", "5m") so that people starting runs from the temporal CLI or
// the Web UI can write them, and read as strings or nanoseconds. There is no mirror type
// to keep in step: a field added to Limits is written and read as it is declared.

// MarshalJSON writes the limits that are set, in their declared order.
func (l Limits) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	v := reflect.ValueOf(l)
	for i, f := range reflect.VisibleFields(v.Type()) {
		fv := v.Field(i)
		if fv.IsZero() {
			continue
		}
		var val any = fv.Interface()
		if d, ok := val.(time.Duration); ok {
			val = d.String()
		}
		enc, err := json.Marshal(val)
		if err != nil {
			return nil, err
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(jsonName(f))
		b.Write(name)
		b.WriteByte(':')
		b.Write(enc)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads the limits; a duration may be a string ("90s") or nanoseconds.
func (l *Limits) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*l = Limits{}
	v := reflect.ValueOf(l).Elem()
	for i, f := range reflect.VisibleFields(v.Type()) {
		name := jsonName(f)
		r, ok := raw[name]
		if !ok {
			continue
		}
		if f.Type == reflect.TypeOf(time.Duration(0)) {
			var d Duration
			if err := d.UnmarshalJSON(r); err != nil {
				return fmt.Errorf("limits.%s: %w", name, err)
			}
			v.Field(i).SetInt(int64(d))
			continue
		}
		if err := json.Unmarshal(r, v.Field(i).Addr().Interface()); err != nil {
			return fmt.Errorf("limits.%s: %w", name, err)
		}
	}
	return nil
}

// jsonName is a field's name in JSON: its tag's, or its own.
func jsonName(f reflect.StructField) string {
	if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" {
		return name
	}
	return f.Name
}
