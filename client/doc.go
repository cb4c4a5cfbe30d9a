// Package client starts goal runs on the webagent workers and follows them: the one
// path the starter, the MCP server and any Go program take to the runs.
//
// A run is an ordinary Temporal workflow (type Goal on task queue webagent), so a run
// started here is seen by the Web UI, the temporal CLI and the starter alike, and the
// other way round: [Client.Run] follows a run someone else started.
//
// # Connecting
//
// [Dial] reads where Temporal is from the environment, as the starter does
// (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_UI_URL for the runs' links, and
// TEMPORAL_API_KEY or TEMPORAL_TLS_* for a server that needs them). [New] wraps a Temporal
// client the program already holds. Nothing else is needed: whatever needs the store,
// the skills library or a model key is done by a worker.
//
// # A run
//
// [Client.Start] checks the input as the workflow would and starts the run; a
// [*BadInputError] says what the caller is to fix, and nothing was started. The [Run]
// it returns names the workflow and its Web UI page. [Run.Wait] follows the run's steps
// ([Run.Progress], every quarter second) until it ends and returns the standard
// output ([Result], described in docs/running.md); [Run.Result] only waits. Both follow a run that continued as new, and read the
// output both from a run that completed and from one that failed with the output in its
// failure's details.
//
// # People in the loop
//
// A run may wait for a person: to approve a step, to say whether a step in doubt
// happened, for a hint, or while it is paused. [Run.Progress] says what it waits for
// (Approval, Doubt, Stuck, Paused), and [Run.Approve], [Run.Reject], [Run.Resolve],
// [Run.Hint], [Run.Pause], [Run.Resume] and [Run.Cancel] answer it, through the run's
// Updates. A run refuses an answer that nothing waits for: the error is a
// [*BadInputError] with its reason.
//
// # Runs, schedules, skills
//
// [Client.ListRuns] finds runs by their search attributes (status, site, schedule).
// [Client.CreateSchedule] starts a goal on a Temporal Schedule. [Client.Skills] manages
// the skills library, [Client.Grants] lists the secrets the workers grant, and
// [Run.Report] and [Run.Screenshot] read what an ended run stored, through links a worker
// makes.
package client
