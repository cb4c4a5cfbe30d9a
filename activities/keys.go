package activities

import "strings"

// RunPrefix is where a run keeps its objects in the store: runs/<workflowId>/<runId>, each
// ID one segment of the key. Temporal allows "/" in workflow IDs; written as it is, the
// workflow "a/<run of a>" would keep its objects inside another run's folder, and share
// them with it. So "%" and "/" are escaped as in a URL path ("%25", "%2F"), and an ID of
// dots alone is written in escapes; every other ID is the key as it always was.
func RunPrefix(workflowID, runID string) string {
	return "runs/" + keySegment(workflowID) + "/" + keySegment(runID)
}

func keySegment(id string) string {
	id = strings.ReplaceAll(id, "%", "%25")
	id = strings.ReplaceAll(id, "/", "%2F")
	if strings.Trim(id, ".") == "" {
		id = strings.ReplaceAll(id, ".", "%2E")
	}
	return id
}
