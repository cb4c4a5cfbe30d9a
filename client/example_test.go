package client_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/webagent-dev/webagent/client"
	"github.com/webagent-dev/webagent/plan"
)

const goal = `Click "New project", type "Apollo" into "Project name", select "High" from "Priority", click "Create", then check that "Apollo" is visible`

// Start a goal run, follow its steps, and read how it ended.
func Example() {
	ctx := context.Background()
	c, err := client.Dial(ctx) // TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_UI_URL
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	run, err := c.Start(ctx, client.GoalInput{Goal: goal, StartURL: os.Getenv("WEBAGENT_START_URL")})
	if err != nil {
		log.Fatal(err) // a *client.BadInputError says what to fix; nothing started
	}
	// run.ID names the workflow; run.URL is its page in the Web UI.
	printed := map[int]bool{}
	res, err := run.Wait(ctx, func(p client.Progress) {
		for _, s := range p.Steps {
			if s.Status == "completed" && !printed[s.Order] {
				printed[s.Order] = true
				fmt.Printf("%d/%d %s\n", s.Order, len(p.Steps), s.Description)
			}
		}
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Execution.Status, res.Validation.Verified)
	// Output:
	// 1/5 click "New project"
	// 2/5 type "Apollo" into "Project name"
	// 3/5 select "High" from "Priority"
	// 4/5 click "Create"
	// 5/5 check that "Apollo" is visible
	// success true
}

// A step that needs a person's approval waits for it; Progress says which, and Approve
// lets it act.
func ExampleRun_Approve() {
	ctx := context.Background()
	c, err := client.Dial(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	steps, _ := plan.Parse(goal)
	steps[3].RequiresApproval = true // click "Create"
	run, err := c.Start(ctx, client.GoalInput{Goal: goal, StartURL: os.Getenv("WEBAGENT_START_URL"), Plan: steps})
	if err != nil {
		log.Fatal(err)
	}
	for {
		p, err := run.Progress(ctx)
		if err == nil && p.Approval != nil {
			fmt.Printf("step %d waits: %s\n", p.Approval.Step, p.Approval.Action)
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	outcome, err := run.Approve(ctx, client.Answer{By: "ops"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(outcome)
	res, err := run.Result(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Execution.Status, "approved by", res.Steps[3].ApprovedBy)

	// An answer nothing waits for is refused, with the run's reason.
	_, err = run.Approve(ctx, client.Answer{Step: 4, By: "ops"})
	fmt.Println(client.IsBadInput(err))
	// Output:
	// step 4 waits: click "Create"
	// approved: the action is done now
	// success approved by ops
	// true
}

// An input the workflow would refuse is refused before anything starts.
func ExampleClient_Start_badInput() {
	ctx := context.Background()
	c, err := client.Dial(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	_, err = c.Start(ctx, client.GoalInput{Goal: `type "{{name}}" into "Project name"`, StartURL: os.Getenv("WEBAGENT_START_URL")})
	var bad *client.BadInputError
	fmt.Println(errors.As(err, &bad))
	fmt.Println(err)
	// Output:
	// true
	// the plan uses parameters that were not given: name (pass --param name=value)
}

// Runs are found by their search attributes, as the Web UI's list finds them.
func ExampleClient_ListRuns() {
	ctx := context.Background()
	c, err := client.Dial(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	run, err := c.Start(ctx, client.GoalInput{Goal: goal, StartURL: os.Getenv("WEBAGENT_START_URL")})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := run.Result(ctx); err != nil {
		log.Fatal(err)
	}
	// The service's list catches up with a run's end within a moment.
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		runs, err := c.ListRuns(ctx, client.RunFilter{Status: "success", Site: "127.0.0.1"})
		if err != nil {
			log.Fatal(err)
		}
		for _, r := range runs {
			if r.WorkflowID == run.ID {
				fmt.Println(r.Execution, r.Status, r.Site)
				return
			}
		}
	}
	fmt.Println("not listed")
	// Output:
	// completed success 127.0.0.1
}

// An ended run's screenshots are read through links a worker makes: the client holds no
// store credentials.
func ExampleRun_Screenshot() {
	ctx := context.Background()
	c, err := client.Dial(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	run, err := c.Start(ctx, client.GoalInput{Goal: `Click "New project"`, StartURL: os.Getenv("WEBAGENT_START_URL")})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := run.Result(ctx); err != nil {
		log.Fatal(err)
	}
	png, err := run.Screenshot(ctx, 1, false) // after step 1
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", png[1:4])
	// Output:
	// "PNG"
}
