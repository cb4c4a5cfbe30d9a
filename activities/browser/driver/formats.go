package driver

import (
	"strings"
	"time"
)

// inputValue writes a value the way an <input> of this type takes it: a date or time
// field holds ISO values ("2016-04-08", "08:22") whatever it shows. Dates with slashes
// are read as the browser's locale (en-US) shows them, month first, as a person typing
// into that field would. ok is false when the value cannot be read for the field.
func inputValue(typ, v string) (string, bool) {
	v = strings.TrimSpace(v)
	switch typ {
	case "date":
		for _, layout := range []string{"2006-01-02", "01/02/2006", "1/2/2006", "January 2, 2006", "Jan 2, 2006", "2 January 2006", "2 Jan 2006"} {
			if t, err := time.Parse(layout, v); err == nil {
				return t.Format("2006-01-02"), true
			}
		}
	case "time":
		for _, layout := range []string{"15:04", "15:04:05", "3:04 PM", "3:04PM", "03:04 PM", "3:04 pm", "3:04pm", "3 PM", "3PM"} {
			if t, err := time.Parse(layout, strings.ToUpper(v)); err == nil {
				return t.Format("15:04"), true
			}
		}
	case "month":
		for _, layout := range []string{"2006-01", "01/2006", "1/2006", "January 2006", "Jan 2006"} {
			if t, err := time.Parse(layout, v); err == nil {
				return t.Format("2006-01"), true
			}
		}
	case "datetime-local":
		for _, layout := range []string{"2006-01-02T15:04", "2006-01-02 15:04", "01/02/2006 15:04", "01/02/2006 3:04 PM"} {
			if t, err := time.Parse(layout, strings.ToUpper(v)); err == nil {
				return t.Format("2006-01-02T15:04"), true
			}
		}
	default:
		return v, true
	}
	return "", false
}
