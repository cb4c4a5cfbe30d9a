package testenv

import "time"

// Eventually asks done until it says "" (what the app's storage lacks, nothing) or limit
// passes, and returns its last answer: how a judge waits for an app that saves a moment
// after it answers.
func Eventually(limit time.Duration, done func() string) string {
	deadline := time.Now().Add(limit)
	for {
		why := done()
		if why == "" || time.Now().After(deadline) {
			return why
		}
		time.Sleep(250 * time.Millisecond)
	}
}
