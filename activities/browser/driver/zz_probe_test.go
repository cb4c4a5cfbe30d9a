package driver_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/plan"
)

func TestZZProbe(t *testing.T) {
	pool := newPool(t)
	var url, pw string
	switch os.Getenv("PROBE_APP") {
	case "php":
		url, pw = testenv.StartPhpLiteAdmin(t).URL, testenv.PhpLiteAdminPassword
	case "flood":
		url, pw = testenv.StartFlood(t).URL, testenv.FloodPassword
	case "decap":
		url = testenv.StartDecap(t).URL
	}
	s, _, err := pool.Open(t.Context(), "probe", driver.OpenOptions{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	goal := strings.ReplaceAll(os.Getenv("PROBE_GOAL"), "PW", pw)
	steps, err := plan.Parse(goal)
	if err != nil {
		t.Fatal(err)
	}
	for i, step := range steps {
		out, err := s.Do(t.Context(), step, driver.DoOptions{WaitBudget: 3 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("STEP %s ok=%v actions=%q feedback=%v\n", plan.Describe([]plan.Step{step}, nil), out.OK, out.Actions, out.Feedback)
		if !out.OK || strings.Contains(os.Getenv("PROBE_SHOW"), fmt.Sprint(i+1)) {
			fmt.Println(out.Before.Compact())
			if !out.OK {
				return
			}
		}
	}
}
