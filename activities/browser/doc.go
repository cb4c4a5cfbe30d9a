// Package browser is the Temporal adapter of the page driver (activities/browser/driver):
// the activities that need this worker's browser (OpenBrowser, RunStep, Observe,
// ValidateGoal, CloseBrowser, WorkerGrants, PutRunFiles), their heartbeats, the refusal of
// a session to another workflow, the worker's graceful hand-off of its runs (Drain), and
// the storing of each attempt's screenshots, element lists, text, storage state and
// downloads in the object store. It is the only package under activities/browser that
// imports the Temporal SDK; the driver does the page work.
package browser
