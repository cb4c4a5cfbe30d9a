package workflows

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestLimitsJSON(t *testing.T) {
	var l Limits
	if err := json.Unmarshal([]byte(`{"attemptsPerStep": 2, "deadline": "90s", "waitBudget": 500000000}`), &l); err != nil {
		t.Fatal(err)
	}
	if l.AttemptsPerStep != 2 || l.Deadline != 90*time.Second || l.WaitBudget != 500*time.Millisecond {
		t.Fatalf("%+v", l)
	}
	b, err := json.Marshal(l)
	if err != nil || string(b) != `{"attemptsPerStep":2,"deadline":"1m30s","waitBudget":"500ms"}` {
		t.Fatalf("%s %v", b, err)
	}
	if err := json.Unmarshal([]byte(`{"deadline": "soon"}`), &l); err == nil || !strings.Contains(err.Error(), "limits.deadline") {
		t.Fatalf("a bad duration should name the field: %v", err)
	}
}

// Every limit survives JSON: a field the JSON form forgets is silently dropped from every
// run started through Temporal.
func TestEveryLimitRoundTrips(t *testing.T) {
	var l Limits
	v := reflect.ValueOf(&l).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(i + 1))
		case reflect.Float64:
			f.SetFloat(float64(i) + 0.5)
		default:
			t.Fatalf("limit %s has a kind this test does not fill: %s", v.Type().Field(i).Name, f.Kind())
		}
	}
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	var back Limits
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back != l {
		t.Errorf("a limit is lost in JSON:\n sent %+v\n  got %+v", l, back)
	}
}
