package testenv

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// LoungeBrowser uses The Lounge's web client as a person's browser does. The client is a
// single-page app: its pages send what a person types or clicks to the server as socket.io
// events and show the events the server sends back. This browser speaks that protocol over
// HTTP long-polling (engine.io 4, one of the transports the server offers), sends each
// event with the fields the page's form sends, and keeps what the server sent: the user's
// networks and channels (with the ids the page addresses them by) and the Connect form's
// defaults. It is how the harness's own test does each goal's effect without the agent.
type LoungeBrowser struct {
	w      *TheLounge
	c      *http.Client
	sid    string
	cancel context.CancelFunc
	mu     sync.Mutex
	events []LoungeEvent
	err    error
	more   chan struct{} // closed and replaced whenever an event arrives
}

// LoungeEvent is one event the server sent: its name and its arguments.
type LoungeEvent struct {
	Name string
	Args []json.RawMessage
}

// Browser is a browser with no session yet: SignIn signs it in through the sign-in page.
func (w *TheLounge) Browser() *LoungeBrowser {
	return &LoungeBrowser{w: w, c: &http.Client{Timeout: 90 * time.Second}, more: make(chan struct{})}
}

// SignIn opens the sign-in page, connects as the page does and sends the user's name and
// password as a person who types them into Username and Password and presses Sign in
// does, then waits for the networks the server sends once it lets the user in.
func (b *LoungeBrowser) SignIn(t testing.TB) {
	t.Helper()
	if page := b.Get(t, "/"); !strings.Contains(page, "The Lounge") {
		t.Fatalf("thelounge: the front page is not The Lounge's:\n%s", page)
	}
	b.connect(t)
	b.Wait(t, "auth:start", nil)
	b.Emit(t, "auth:perform", map[string]string{"user": b.w.User, "password": b.w.Password})
	if e := b.Wait(t, "", func(e LoungeEvent) bool { return e.Name == "auth:success" || e.Name == "auth:failed" }); e.Name != "auth:success" {
		t.Fatalf("thelounge: signing in as %s failed", b.w.User)
	}
	b.Wait(t, "init", nil)
	b.Emit(t, "setting:get")
}

// Get fetches a page of the web client (a path from the root) and returns it; an answer
// other than 200 fails the test.
func (b *LoungeBrowser) Get(t testing.TB, path string) string {
	t.Helper()
	resp, err := b.c.Get(strings.TrimSuffix(b.w.URL, "/") + "/" + strings.TrimPrefix(path, "/"))
	if err != nil {
		t.Fatalf("thelounge: GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("thelounge: GET %s answered %d:\n%s", path, resp.StatusCode, body)
	}
	return string(body)
}

// poll is the engine.io long-polling address, with the session's id once there is one.
func (b *LoungeBrowser) poll() string {
	u := strings.TrimSuffix(b.w.URL, "/") + "/socket.io/?EIO=4&transport=polling"
	if b.sid != "" {
		u += "&sid=" + b.sid
	}
	return u
}

// connect opens an engine.io session, connects to socket.io's main namespace and keeps
// polling for the server's packets until the test ends (answering its pings), as the
// page does while it is open.
func (b *LoungeBrowser) connect(t testing.TB) {
	t.Helper()
	packets, err := b.get(context.Background())
	if err != nil || len(packets) == 0 || !strings.HasPrefix(packets[0], "0") {
		t.Fatalf("thelounge: opening a socket.io session: %v %q", err, packets)
	}
	var open struct{ Sid string }
	if err := json.Unmarshal([]byte(packets[0][1:]), &open); err != nil || open.Sid == "" {
		t.Fatalf("thelounge: the socket.io handshake %q: %v", packets[0], err)
	}
	b.sid = open.Sid
	b.post(t, "40")
	ctx, cancel := context.WithCancel(context.Background())
	b.cancel = cancel
	done := make(chan struct{})
	go b.listen(ctx, done)
	t.Cleanup(func() {
		// Leaving the page: the server detaches the browser.
		_, _ = b.send("41")
		cancel()
		<-done
	})
}

// listen polls until ctx ends, keeping each event and answering each ping.
func (b *LoungeBrowser) listen(ctx context.Context, done chan struct{}) {
	defer close(done)
	for ctx.Err() == nil {
		packets, err := b.get(ctx)
		if err != nil {
			if ctx.Err() == nil {
				b.fail(err)
			}
			return
		}
		for _, p := range packets {
			switch {
			case p == "2":
				_, _ = b.send("3")
			case strings.HasPrefix(p, "42"):
				var raw []json.RawMessage
				var name string
				if json.Unmarshal([]byte(p[2:]), &raw) != nil || len(raw) == 0 || json.Unmarshal(raw[0], &name) != nil {
					b.fail(fmt.Errorf("an event that is not one: %q", p))
					return
				}
				b.add(LoungeEvent{Name: name, Args: raw[1:]})
			case p == "1" || p == "41":
				b.fail(fmt.Errorf("the server closed the session"))
				return
			}
		}
	}
}

// get is one long poll: the packets the server had for the session.
func (b *LoungeBrowser) get(ctx context.Context) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.poll(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := b.c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("polling answered %d: %s", resp.StatusCode, body)
	}
	return strings.Split(string(body), "\x1e"), nil
}

// send posts one packet to the session.
func (b *LoungeBrowser) send(packet string) (string, error) {
	resp, err := b.c.Post(b.poll(), "text/plain;charset=UTF-8", strings.NewReader(packet))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return string(body), fmt.Errorf("posting %q answered %d: %s", packet, resp.StatusCode, body)
	}
	return string(body), nil
}

// post sends one packet and fails the test when the server refuses it.
func (b *LoungeBrowser) post(t testing.TB, packet string) {
	t.Helper()
	if _, err := b.send(packet); err != nil {
		t.Fatalf("thelounge: %v", err)
	}
}

// Emit sends an event with its arguments, as the page does on a click or a key.
func (b *LoungeBrowser) Emit(t testing.TB, event string, args ...any) {
	t.Helper()
	msg, err := json.Marshal(append([]any{event}, args...))
	if err != nil {
		t.Fatal(err)
	}
	b.post(t, "42"+string(msg))
}

func (b *LoungeBrowser) add(e LoungeEvent) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.events = append(b.events, e)
	close(b.more)
	b.more = make(chan struct{})
}

func (b *LoungeBrowser) fail(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.err = err
	close(b.more)
	b.more = make(chan struct{})
}

// Events are the events the server has sent so far, oldest first.
func (b *LoungeBrowser) Events() []LoungeEvent {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]LoungeEvent(nil), b.events...)
}

// Wait waits up to 15 seconds for an event named name ("" for any) that match accepts
// (nil for any) and returns the latest such; the test fails when none comes.
func (b *LoungeBrowser) Wait(t testing.TB, name string, match func(LoungeEvent) bool) LoungeEvent {
	t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		b.mu.Lock()
		events, err, more := b.events, b.err, b.more
		b.mu.Unlock()
		for i := len(events) - 1; i >= 0; i-- {
			if e := events[i]; (name == "" || e.Name == name) && (match == nil || match(e)) {
				return e
			}
		}
		if err != nil {
			t.Fatalf("thelounge: waiting for %s: %v", name, err)
		}
		select {
		case <-more:
		case <-deadline:
			t.Fatalf("thelounge: the server sent no %s in 15 s", name)
		}
	}
}

// Arg decodes the event's i-th argument into v and says whether it could.
func (e LoungeEvent) Arg(i int, v any) bool {
	return i < len(e.Args) && json.Unmarshal(e.Args[i], v) == nil
}
