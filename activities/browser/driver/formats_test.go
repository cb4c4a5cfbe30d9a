package driver

import "testing"

func TestInputValue(t *testing.T) {
	for _, tt := range []struct{ typ, in, want string }{
		{"date", "04/08/2016", "2016-04-08"}, {"date", "2016-04-08", "2016-04-08"}, {"date", "April 8, 2016", "2016-04-08"},
		{"time", "8:22 AM", "08:22"}, {"time", "3:05 pm", "15:05"}, {"time", "15:04", "15:04"},
		{"month", "Jan 2020", "2020-01"}, {"text", "as is", "as is"},
	} {
		if got, ok := inputValue(tt.typ, tt.in); !ok || got != tt.want {
			t.Errorf("inputValue(%s, %q) = %q, %v; want %q", tt.typ, tt.in, got, ok, tt.want)
		}
	}
	if _, ok := inputValue("date", "next Tuesday"); ok {
		t.Error("a date that cannot be read must not be typed")
	}
}
