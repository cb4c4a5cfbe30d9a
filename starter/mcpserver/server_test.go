package mcpserver_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent-dev/webagent/client"
	"github.com/webagent-dev/webagent/starter/mcpserver"
)

// TestRefusedBeforeTemporal: an input the workflow would refuse is a tool error with the
// reason, found before the server asks Temporal anything (its client has none here).
func TestRefusedBeforeTemporal(t *testing.T) {
	ctx := context.Background()
	srv := mcpserver.New(client.New(nil, "default", ""), mcpserver.Options{StartURL: "http://127.0.0.1:8090/projects"})
	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"unknown argument", map[string]any{"goal": `click "A"`, "url": "http://x"}, `unexpected additional properties ["url"]`},
		{"no goal", map[string]any{"goal": " "}, "the goal is empty"},
		{"missing parameter", map[string]any{"goal": `type "{{name}}" into "Name"`}, "parameters that were not given: name"},
		{"over its caps", map[string]any{"goal": `click "A"`, "limits": map[string]any{"replans": 1000}}, "replans"},
		{"bad duration", map[string]any{"goal": `click "A"`, "limits": map[string]any{"deadline": "soon"}}, `"soon" is not a duration`},
		{"bad approval policy", map[string]any{"goal": `click "A"`, "approve": "all"}, `approve is "all"`},
		{"bad webhook", map[string]any{"goal": `click "A"`, "notify": "ftp://x"}, "not an absolute http(s) URL"},
	} {
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "run_goal", Arguments: tc.args})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		text := ""
		if len(res.Content) > 0 {
			text = res.Content[0].(*mcp.TextContent).Text
		}
		if !res.IsError || !strings.Contains(text, tc.want) {
			t.Errorf("%s: error %v, %q; want %q", tc.name, res.IsError, text, tc.want)
		}
	}
}

// TestToken: with a token, a request without it is refused before the MCP handler.
func TestToken(t *testing.T) {
	srv := httptest.NewServer(mcpserver.Handler(mcp.NewServer(&mcp.Implementation{Name: "t"}, nil), "secret-token"))
	defer srv.Close()
	for _, auth := range []string{"", "Bearer wrong", "secret-token"} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader("{}"))
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("Authorization %q: %s, want 401", auth, resp.Status)
		}
	}
	for addr, want := range map[string]bool{"127.0.0.1:8765": true, "localhost:1": true, "[::1]:1": true, "0.0.0.0:8765": false, "10.0.0.2:1": false, ":8765": false} {
		if mcpserver.Loopback(addr) != want {
			t.Errorf("Loopback(%q) = %v", addr, !want)
		}
	}
}
