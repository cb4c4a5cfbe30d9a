// Package fault kills the worker at a named point of a browser step when the environment
// asks for it: fault injection for the end-to-end tests, done the way a machine dies — the
// whole process group at once, with SIGKILL, no clean-up, at the worst moment on purpose.
//
// The hook is compiled in only with the build tag faultinject (go build -tags faultinject
// ./workers), which the fault tests give the worker they kill. Without it — the worker that
// `go build ./workers`, deploy/up.sh and the Dockerfile make — At and WithStep do nothing
// and WEBAGENT_FAULT is never read: no variable set on a production worker can kill it.
//
// WEBAGENT_FAULT=point:step (for example "before-act:4") arms one point for one step of any
// run this worker holds; unset, every call is a no-op. The points are:
//
//	before-act  the run has been told the attempt is about to act; nothing was done yet
//	settle      the action was dispatched; the page is settling
//	store       the step's screenshot is in the store, its element list is not
package fault

// Env is the variable that arms a point (read only by a worker built with -tags
// faultinject).
const Env = "WEBAGENT_FAULT"

// Tag is the build tag that compiles the hook in.
const Tag = "faultinject"

// The points a browser step passes.
const (
	BeforeAct = "before-act"
	Settle    = "settle"
	Store     = "store"
)
