// Command starter starts and follows goal runs from the command line.
//
//	go run ./starter run [--url URL] [--param name=value]... [--plan FILE] [--json] [--no-wait] "GOAL"
//	go run ./starter dataset export WORKFLOW_ID DIR
//	go run ./starter skills list|show ID|delete ID|export FILE|import FILE
//
// Exit status: 0 the goal succeeded (verified), 1 it ended unverified (done, not
// confirmed), partial or failed, 2 bad input (nothing was started).
package main

import (
	"fmt"
	"io"
	"os"
)

// Exit codes.
const (
	exitOK       = 0
	exitFailed   = 1
	exitBadInput = 2
)

// badInputf writes an error that is the caller's to fix, and returns its exit status.
func badInputf(stderr io.Writer, format string, a ...any) int {
	fmt.Fprintf(stderr, "error: "+format+"\n", a...)
	return exitBadInput
}

const usage = `usage: starter <command> [arguments]

commands:
  run [--url URL] [--param name=value]... [--plan FILE] [--extract-schema FILE] [--json] [--no-wait] "GOAL"
        start a goal run, follow its steps, print the result
  dataset export WORKFLOW_ID DIR
        write the run's UI states (screenshots) and their manifest to DIR
  skills list | show ID | delete ID | export FILE | import FILE
        manage the skills library in Weaviate
  codec-server [--listen ADDR] [--cors ORIGINS] [--token-file FILE]
        decode the encrypted history for the Web UI and the temporal CLI (WEBAGENT_CODEC_KEYS);
        callers send the access token (WEBAGENT_CODEC_TOKEN or FILE) as Authorization: Bearer
        (temporal --codec-auth "Bearer TOKEN"); browsers only from ORIGINS (the local Web UI);
        without a token anyone who can reach it can decrypt every history
  approve | reject WORKFLOW_ID [--step N] [--by NAME] [--note TEXT]
        answer a step that waits for a person's approval
  pause | resume | cancel WORKFLOW_ID [--by NAME] [--note TEXT]
        pause a run before its next step (its browser released), resume it, or stop it
  hint WORKFLOW_ID "TEXT" [--by NAME]
        advise a run whose step is stuck (limits.hintTimeout); the replanner follows the hint
  resolve WORKFLOW_ID --decision done|repeat|abort [--by NAME]
        answer a step in doubt
  schedule create --id ID (--cron EXPR | --every DURATION) [run flags] "GOAL"
  schedule list | describe ID | pause ID | unpause ID | trigger ID | delete ID
        recurring runs on Temporal Schedules
  secrets [--json]
        the secrets the workers grant runs ({{secret:name}}, {{totp:name}}) with the sites each
        may be typed on, and the internal addresses their browsers may reach; never a value
  report WORKFLOW_ID [--out FILE.html]
        one self-contained HTML page: the outcome, every step with its screenshots, the dataset
  time WORKFLOW_ID [--run-id RUN_ID] [--json]
        where the run's time went: each activity's wait for a worker and its parts (a step's
        look, screenshot, action, settling, check, evidence), the time between activities
  mcp [--listen HOST:PORT] [--token-file FILE]
        serve the runs to other agents over MCP: stdio, or streamable HTTP at /mcp; beyond
        loopback callers must send the bearer token (WEBAGENT_MCP_TOKEN or FILE)

environment: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_UI_URL, WEBAGENT_START_URL,
MINIO_*, WEAVIATE_URL, GEMINI_API_KEY (see README.md)
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(exitBadInput)
	}
	switch os.Args[1] {
	case "run":
		os.Exit(runCommand(os.Args[2:], os.Stdout, os.Stderr))
	case "dataset":
		os.Exit(datasetCommand(os.Args[2:], os.Stdout, os.Stderr))
	case "skills":
		os.Exit(skillsCommand(os.Args[2:], os.Stdout, os.Stderr))
	case "codec-server":
		os.Exit(codecServerCommand(os.Args[2:], os.Stdout, os.Stderr))
	case "approve", "reject", "pause", "resume", "cancel", "hint", "resolve":
		os.Exit(peopleCommand(os.Args[1], os.Args[2:], os.Stdout, os.Stderr))
	case "schedule":
		os.Exit(scheduleCommand(os.Args[2:], os.Stdout, os.Stderr))
	case "report":
		os.Exit(reportCommand(os.Args[2:], os.Stdout, os.Stderr))
	case "time":
		os.Exit(accountCommand(os.Args[2:], os.Stdout, os.Stderr))
	case "secrets":
		os.Exit(secretsCommand(os.Args[2:], os.Stdout, os.Stderr))
	case "mcp":
		os.Exit(mcpCommand(os.Args[2:], os.Stdout, os.Stderr))
	case "help", "-h", "--help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "unknown command %q\n\n%s", os.Args[1], usage)
		os.Exit(exitBadInput)
	}
}
