package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/workflow"

	"github.com/webagent-dev/webagent/activities/notify"
	agent "github.com/webagent-dev/webagent/client"
	"github.com/webagent-dev/webagent/internal/testenv"
	"github.com/webagent-dev/webagent/workflows"
)

// mcpClient is the SDK's own MCP client, connected to `starter mcp`, with the progress
// notifications it received.
type mcpClient struct {
	*mcp.ClientSession
	mu       sync.Mutex
	progress []string
}

func (s *stack) mcpEnv() []string {
	return append(append(os.Environ(), s.TemporalEnv()...), "TEMPORAL_UI_URL=http://ui.test", "WEBAGENT_START_URL="+s.appURL)
}

func newMCPClient(t *testing.T, transport mcp.Transport) *mcpClient {
	t.Helper()
	mc := &mcpClient{}
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "test"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mc.mu.Lock()
			defer mc.mu.Unlock()
			mc.progress = append(mc.progress, req.Params.Message)
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	session, err := c.Connect(ctx, transport, nil)
	if err != nil {
		t.Fatalf("connect the MCP client: %v", err)
	}
	t.Cleanup(func() { _ = session.Close() })
	mc.ClientSession = session
	return mc
}

// mcpStdio starts `starter mcp` as an MCP client does, on its standard input and output.
func (s *stack) mcpStdio(t *testing.T) *mcpClient {
	cmd := exec.Command(starterBin, "mcp")
	cmd.Env = s.mcpEnv()
	return newMCPClient(t, &mcp.CommandTransport{Command: cmd})
}

// mcpHTTP starts `starter mcp --listen` with a token and returns its endpoint.
func (s *stack) mcpHTTP(t *testing.T, token string) string {
	t.Helper()
	addr := testenv.Addr(testenv.FreePort(t))
	cmd := exec.Command(starterBin, "mcp", "--listen", addr)
	cmd.Env = append(s.mcpEnv(), "WEBAGENT_MCP_TOKEN="+token)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || !strings.Contains(line, "bearer token required") {
		t.Fatalf("starter mcp --listen: %q, %v", line, err)
	}
	return "http://" + addr + "/mcp"
}

// bearer adds a token to every request.
type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// call calls a tool and returns its text and whether it is a tool error.
func (mc *mcpClient) call(t *testing.T, name string, args map[string]any, progressToken any) (*mcp.CallToolResult, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	p := &mcp.CallToolParams{Name: name, Arguments: args}
	if progressToken != nil {
		p.SetProgressToken(progressToken)
	}
	res, err := mc.CallTool(ctx, p)
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	var text []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text = append(text, tc.Text)
		}
	}
	return res, strings.Join(text, "\n")
}

// TestMCP: an agent's MCP client, over stdio and over HTTP with a token, lists the tools,
// runs the demo goal waiting for it with progress notifications, gets a step's screenshot
// and finds the run in the list of runs; bad calls start nothing; a goal that needs
// approval is answered with approve_step, and its webhook is told. One stack serves all.
func TestMCP(t *testing.T) {
	s := newStack(t)
	hooks := newHookReceiver(t)
	s.worker(t, "WEBAGENT_NOTIFY_URLS="+hooks.URL+"/hook", "WEBAGENT_NOTIFY_KEY="+hookKey)
	const token = "e2e-token"
	t.Run("bad calls start nothing", func(t *testing.T) { s.mcpBadCalls(t, token) })
	for _, tc := range []struct {
		name    string
		connect func(t *testing.T) *mcpClient
	}{
		{"stdio", s.mcpStdio},
		{"http", func(t *testing.T) *mcpClient {
			return newMCPClient(t, &mcp.StreamableClientTransport{Endpoint: s.mcpHTTP(t, token), HTTPClient: &http.Client{Transport: bearer(token)}})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s.app.Reset()
			mc := tc.connect(t)
			s.mcpDemo(t, mc)
		})
	}
	t.Run("approval", func(t *testing.T) {
		s.app.Reset()
		s.mcpApproval(t, hooks)
	})
}

func (s *stack) mcpDemo(t *testing.T, mc *mcpClient) {
	var names []string
	for tool, err := range mc.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	for _, want := range []string{"run_goal", "get_run", "list_runs", "cancel_run", "approve_step", "reject_step", "send_hint", "resolve_doubt", "pause_run", "resume_run", "get_screenshot", "get_report", "get_timing", "list_skills", "schedule_goal"} {
		if !slices.Contains(names, want) {
			t.Errorf("no tool %s among %v", want, names)
		}
	}
	res, text := mc.call(t, "run_goal", map[string]any{"goal": demoGoal, "wait": true}, "demo")
	var out struct {
		WorkflowID string               `json:"workflowId"`
		UIURL      string               `json:"uiUrl"`
		Result     workflows.GoalResult `json:"result"`
	}
	if res.IsError || json.Unmarshal([]byte(text), &out) != nil {
		t.Fatalf("run_goal: %s", text)
	}
	if out.Result.Execution.Status != workflows.StatusSuccess || !strings.HasPrefix(out.UIURL, "http://ui.test/namespaces/"+s.Namespace+"/workflows/"+out.WorkflowID) {
		t.Fatalf("run_goal: status %s, link %s", out.Result.Execution.Status, out.UIURL)
	}
	if n := s.app.Snapshot().CreateRequests; n != 1 {
		t.Errorf("%d create requests, want 1", n)
	}
	// Notifications are handled apart from the call's answer, and may come just after it.
	eventually(t, 5*time.Second, "a progress notification for each completed step", func() bool {
		mc.mu.Lock()
		defer mc.mu.Unlock()
		return strings.Contains(strings.Join(mc.progress, "\n"), `step 5/5 completed: check that "Apollo" is visible`)
	})
	shot, _ := mc.call(t, "get_screenshot", map[string]any{"workflowId": out.WorkflowID, "step": 4}, nil)
	var img *mcp.ImageContent
	for _, c := range shot.Content {
		if ic, ok := c.(*mcp.ImageContent); ok {
			img = ic
		}
	}
	if shot.IsError || img == nil || img.MIMEType != "image/png" || !strings.HasPrefix(string(img.Data), "\x89PNG") {
		t.Fatalf("get_screenshot: error %v, image %v", shot.IsError, img != nil)
	}
	timing, text := mc.call(t, "get_timing", map[string]any{"workflowId": out.WorkflowID}, nil)
	var acc struct {
		Account agent.Account `json:"account"`
		Parts   []agent.Part  `json:"parts"`
	}
	if timing.IsError || json.Unmarshal([]byte(text), &acc) != nil || len(acc.Account.Activities) == 0 || len(acc.Parts) == 0 {
		t.Fatalf("get_timing: %s", text)
	}
	eventually(t, 30*time.Second, "list_runs finds the run", func() bool {
		_, text := mc.call(t, "list_runs", map[string]any{"status": "success", "site": "127.0.0.1"}, nil)
		return strings.Contains(text, out.WorkflowID)
	})
}

// mcpApproval: a goal that needs approval waits, says so in get_run, and makes one
// create request once approve_step answers it; its webhook is told, with signed posts,
// each time it waits and when it ends, and a webhook the operator does not allow is not.
func (s *stack) mcpApproval(t *testing.T, hooks *hookReceiver) {
	mc := s.mcpStdio(t)
	_, text := mc.call(t, "run_goal", map[string]any{"goal": demoGoal, "approve": "state-changing", "notify": hooks.URL + "/hook?run=1"}, nil)
	var started struct {
		WorkflowID string `json:"workflowId"`
		RunID      string `json:"runId"`
	}
	if json.Unmarshal([]byte(text), &started) != nil || started.WorkflowID == "" {
		t.Fatalf("run_goal: %s", text)
	}
	approvals := 0
	for tries := 0; ; tries++ {
		var got string
		eventually(t, time.Minute, "the run waits for approval or ends", func() bool {
			_, got = mc.call(t, "get_run", map[string]any{"workflowId": started.WorkflowID}, nil)
			return strings.Contains(got, `"waitingFor": "your approval`) || strings.Contains(got, `"execution": "completed"`)
		})
		if !strings.Contains(got, "waitingFor") {
			break
		}
		if tries > 12 {
			t.Fatalf("more approvals than steps:\n%s", got)
		}
		res, text := mc.call(t, "approve_step", map[string]any{"workflowId": started.WorkflowID, "note": "fine"}, nil)
		if res.IsError && strings.Contains(text, "waits for no approval") {
			// The wait get_run saw had ended by the time the answer came (the run had
			// moved on): a clear refusal, nothing answered; look again.
			t.Logf("approve_step after the wait ended: %s", text)
			continue
		}
		if res.IsError {
			t.Fatalf("approve_step: %s", text)
		}
		approvals++
	}
	if st := s.app.Snapshot(); st.CreateRequests != 1 || len(st.Projects) != 1 {
		t.Fatalf("want one create request and one project, got %+v", st)
	}
	s.historyOf(t, workflow.Execution{ID: started.WorkflowID, RunID: started.RunID}, "notify")
	posts := hooks.posts(t)
	if len(posts) != approvals+1 || posts[len(posts)-1].Event != "ended" || !strings.HasPrefix(posts[len(posts)-1].Summary, "success: 5 of 5 steps completed") {
		t.Errorf("want %d posts (each wait, then the end), got %+v", approvals+1, posts)
	}
	for _, p := range posts[:len(posts)-1] {
		if p.Event != "waiting" || p.Status != "waiting" || p.WorkflowID != started.WorkflowID || !strings.Contains(p.UIURL, started.WorkflowID) || !strings.Contains(p.Summary, "approval") {
			t.Errorf("a wait's post: %+v", p)
		}
	}

	t.Run("a webhook the operator does not allow is not told", func(t *testing.T) {
		res, text := mc.call(t, "run_goal", map[string]any{"goal": demoGoal, "wait": true, "notify": hooks.URL + "/elsewhere"}, nil)
		if res.IsError || !strings.Contains(text, "the workers do not allow webhooks to "+hooks.URL+"/elsewhere") {
			t.Errorf("want a warning in the output:\n%s", text)
		}
		if n := len(hooks.posts(t)); n != len(posts) {
			t.Errorf("%d posts, want %d", n, len(posts))
		}
	})
}

const hookKey = "e2e-webhook-key-0123456789"

// hookReceiver is a webhook that keeps the posts whose signature holds, and fails the
// test on one whose does not.
type hookReceiver struct {
	*httptest.Server
	mu   sync.Mutex
	got  []notify.Post
	errs []string
	seen map[string]bool // delivery IDs accepted
}

func newHookReceiver(t *testing.T) *hookReceiver {
	h := &hookReceiver{seen: map[string]bool{}}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		defer h.mu.Unlock()
		var p notify.Post
		accepted := func(id string) bool { was := h.seen[id]; h.seen[id] = true; return was }
		switch err := notify.Verify([]byte(hookKey), r.Header, body, time.Now(), 0, accepted); {
		case errors.Is(err, notify.ErrReplay):
			// A retry whose first answer was lost: kept already.
		case err != nil:
			h.errs = append(h.errs, "a post that does not verify: "+err.Error())
		case json.Unmarshal(body, &p) != nil || r.Header.Get(notify.EventHeader) != p.Event:
			h.errs = append(h.errs, "a post that is not one: "+string(body))
		default:
			h.got = append(h.got, p)
		}
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *hookReceiver) posts(t *testing.T) []notify.Post {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, e := range h.errs {
		t.Error(e)
	}
	return append([]notify.Post(nil), h.got...)
}

// mcpBadCalls: an unknown argument, a goal over its caps, a secret the workers do not
// grant get a tool error that says why; HTTP without the token is refused; a server
// beyond loopback without a token does not start; and no run starts.
func (s *stack) mcpBadCalls(t *testing.T, token string) {
	mc := s.mcpStdio(t)
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"unknown argument", map[string]any{"goal": demoGoal, "colour": "red"}, `unexpected additional properties ["colour"]`},
		{"over its caps", map[string]any{"goal": demoGoal, "limits": map[string]any{"maxSteps": 1_000_000}}, "maxSteps"},
		{"ungranted secret", map[string]any{"goal": `type "{{secret:password}}" into "Project name"`, "secrets": []string{"password"}}, `the workers grant no secret "password"`},
		{"bad duration", map[string]any{"goal": demoGoal, "limits": map[string]any{"deadline": "soon"}}, `"soon" is not a duration`},
	} {
		res, text := mc.call(t, "run_goal", tc.args, nil)
		if !res.IsError || !strings.Contains(text, tc.want) {
			t.Errorf("%s: error %v, %q; want a tool error with %q", tc.name, res.IsError, text, tc.want)
		}
	}
	endpoint := s.mcpHTTP(t, token)
	if _, err := mcp.NewClient(&mcp.Implementation{Name: "e2e"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1}, nil); err == nil || !strings.Contains(err.Error(), "Unauthorized") {
		t.Errorf("HTTP without the token: %v, want it refused", err)
	}
	if _, stderr, code := s.starter(t, "mcp", "--listen", "0.0.0.0:0"); code != 2 || !strings.Contains(stderr, "give a bearer token") {
		t.Errorf("mcp beyond loopback without a token: exit %d, %s", code, stderr)
	}
	time.Sleep(time.Second) // what a start would have written is listed by now
	resp, err := s.client.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{Query: "WorkflowType = 'Goal'"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(resp.GetExecutions()); n != 0 || s.app.Snapshot().CreateRequests != 0 {
		t.Errorf("bad calls started %d runs", n)
	}
}
