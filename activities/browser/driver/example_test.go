package driver_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/webagent-dev/webagent/activities/browser/driver"
	"github.com/webagent-dev/webagent/internal/config"
	"github.com/webagent-dev/webagent/internal/sites"
	"github.com/webagent-dev/webagent/plan"
)

// greeter is the page of the example: a field and a button that greets whoever is named.
const greeter = `<!doctype html><title>Greeter</title>
<label for="name">Your name</label> <input id="name">
<button onclick="document.getElementById('hello').textContent = 'Hello, ' + document.getElementById('name').value + '!'">Greet</button>
<p id="hello"></p>`

// exampleConfig starts the browser `make setup` installed (or the one PLAYWRIGHT_DRIVER_DIR
// and CHROMIUM_PATH name), headless, allowed to reach the pages served on loopback.
func exampleConfig() driver.Config {
	dir := os.Getenv("PLAYWRIGHT_DRIVER_DIR")
	if dir == "" {
		dir = filepath.Join(config.ToolsDir(), "playwright-driver-"+config.PlaywrightCoreVersion)
	}
	chromium := os.Getenv("CHROMIUM_PATH")
	if chromium == "" {
		chromium = config.ChromiumHeadlessShell
	}
	loopback, err := sites.ParseInternal("loopback")
	if err != nil {
		panic(err)
	}
	return driver.Config{DriverDir: dir, ExecutablePath: chromium, Headless: true, Internal: loopback}
}

// A session is one run's page: open it from the pool at an address, then make one
// attempt at a step at a time. Do finds the step's target the way a person names it,
// acts, waits for the page to settle and checks the step's effect; what the page did
// wrong is in the outcome's Feedback, and an error means the browser itself failed.
func ExampleSession_Do() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, greeter) }))
	defer srv.Close()
	pool, err := driver.NewPool(exampleConfig(), slog.New(slog.DiscardHandler))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Shutdown()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, _, err := pool.Open(ctx, "example", driver.OpenOptions{URL: srv.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	opts := driver.DoOptions{WaitBudget: 2 * time.Second}
	for _, step := range []plan.Step{
		{Action: plan.Type, TargetDescription: "Your name", Value: "Ada"},
		{Action: plan.Click, TargetDescription: "Greet"},
	} {
		out, err := s.Do(ctx, step.WithTarget(), opts)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s %q: ok=%v on %s\n", step.Action, step.TargetDescription, out.OK, out.Target.Ref())
	}
	text, err := s.ShownText(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("the page says Hello, Ada!:", strings.Contains(text, "Hello, Ada!"))
	// Output:
	// TYPE "Your name": ok=true on #0 textbox "Your name"
	// CLICK "Greet": ok=true on #1 button "Greet"
	// the page says Hello, Ada!: true
}
