// Package activities is the contract between the goal workflow and the workers: the name
// of every activity with its one input and one result type, the error types that cross
// into the workflow, and the named states an attempt reports. It holds no implementation
// and imports only the plan package, the standard library and the Temporal SDK, so that
// the workflow and the starter build without a browser, a model client or a store.
//
// The implementations live beside it, one package per activity family:
// activities/browser (Playwright: open, observe, run a step, validate, close),
// activities/model (Gemini: decide, evaluate, judge, summarize, extract) and
// activities/planning (plan, replan, and the skills library: find, save, manage).
package activities
