package notify_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"time"

	"github.com/webagent-dev/webagent/activities/notify"
)

// A receiver checks each post with Verify before it acts on it: a replay of a post it
// already handled, like a retry whose first answer was lost, is answered 200 and
// otherwise ignored. docs/agents.md shows the same handler.
func ExampleVerify() {
	key := []byte("the-WEBAGENT_NOTIFY_KEY-value")
	var (
		mu   sync.Mutex
		seen = map[string]time.Time{} // delivery ID → when accepted
	)
	// accepted records id and reports whether it was there already. An ID older than
	// twice the tolerance can be forgotten: Verify refuses its post as stale.
	accepted := func(id string) bool {
		mu.Lock()
		defer mu.Unlock()
		for k, at := range seen {
			if time.Since(at) > 2*notify.DefaultTolerance {
				delete(seen, k)
			}
		}
		_, was := seen[id]
		seen[id] = time.Now()
		return was
	}
	hook := func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "too large", http.StatusRequestEntityTooLarge)
			return
		}
		switch err := notify.Verify(key, r.Header, body, time.Now(), notify.DefaultTolerance, accepted); {
		case errors.Is(err, notify.ErrReplay):
			fmt.Println("already had it:", r.Header.Get(notify.DeliveryHeader))
			return // 200, and nothing done again
		case err != nil:
			fmt.Println("refused:", err)
			http.Error(w, "unauthorized", http.StatusUnauthorized) // a 4xx is final: no retry
			return
		}
		var p notify.Post
		if json.Unmarshal(body, &p) != nil {
			http.Error(w, "not a post", http.StatusBadRequest)
			return
		}
		fmt.Println("accepted:", p.Event, p.WorkflowID, p.Delivery)
	}
	srv := httptest.NewServer(http.HandlerFunc(hook))
	defer srv.Close()

	// What the worker sends, and what someone who captured it sends again.
	now := time.Now()
	body := []byte(`{"deliveryId":"d-1","event":"ended","workflowId":"goal-1"}`)
	post := func(id string, ts time.Time, sig string) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, bytes.NewReader(body))
		req.Header.Set(notify.DeliveryHeader, id)
		req.Header.Set(notify.TimestampHeader, strconv.FormatInt(ts.Unix(), 10))
		req.Header.Set(notify.SignatureHeader, sig)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}
	sig := notify.Sign(key, "d-1", now, body)
	post("d-1", now, sig)
	post("d-1", now, sig)
	post("d-1", now.Add(time.Minute), sig)
	post("d-1", now.Add(-time.Hour), notify.Sign(key, "d-1", now.Add(-time.Hour), body))
	// Output:
	// accepted: ended goal-1 d-1
	// already had it: d-1
	// refused: bad signature
	// refused: timestamp outside tolerance of 5m0s
}
