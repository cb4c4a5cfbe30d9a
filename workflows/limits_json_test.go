package workflows

import (
	"encoding/json"
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
