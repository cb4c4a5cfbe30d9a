// Package mcpserver serves the runs to other agents through the Model Context Protocol:
// tools that start a goal run and follow it, answer it as the person in the loop, and
// read what it left, each on the client package, so that a run started here is an
// ordinary run (the Web UI, the starter and schedules see it).
//
// A tool's error is a tool error (the result's isError) with the reason the starter
// would give on exit 2: the calling agent reads it and can act on it.
package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent-dev/webagent/client"
)

// Options say how the server answers.
type Options struct {
	// StartURL is the start URL of a goal that names none.
	StartURL string
	// By is who answers runs through the server, for the record ("mcp" when empty).
	By string
	// Version is the server's version as the client sees it.
	Version string
}

// server holds what every tool needs.
type server struct {
	c    *client.Client
	opts Options
}

// New is an MCP server whose tools act on the runs through c.
func New(c *client.Client, opts Options) *mcp.Server {
	if opts.By == "" {
		opts.By = "mcp"
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := &server{c: c, opts: opts}
	srv := mcp.NewServer(&mcp.Implementation{Name: "webagent", Title: "webagent: a durable web agent", Version: opts.Version},
		&mcp.ServerOptions{Instructions: instructions})
	s.addRunTools(srv)
	s.addPeopleTools(srv)
	s.addReadTools(srv)
	return srv
}

const instructions = `Runs goals in a real browser, durably (each run is a Temporal workflow). ` +
	`Start one with run_goal; a step may wait for you (get_run says so): answer with approve_step, reject_step, resolve_doubt or send_hint. ` +
	`Read an ended run with get_report and get_screenshot; get_timing says where any run's time went.`

// jsonResult is a tool's answer as indented JSON text, which any model reads.
func jsonResult(v any) (*mcp.CallToolResult, any, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, nil, fmt.Errorf("encode the answer: %w", err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil, nil
}

// outcome answers a person's Update: what the run did with it.
func outcome(id, what string) func(string, error) (*mcp.CallToolResult, any, error) {
	return func(out string, err error) (*mcp.CallToolResult, any, error) {
		if err != nil {
			return nil, nil, err
		}
		return jsonResult(map[string]string{"workflowId": id, "answer": what, "outcome": out})
	}
}

// addTool adds a tool whose input schema is inferred from In: a call with an argument
// the schema does not name is refused before the handler runs.
func addTool[In any](srv *mcp.Server, name, title, description string, readOnly bool, h func(context.Context, *mcp.CallToolRequest, In) (*mcp.CallToolResult, any, error)) {
	mcp.AddTool(srv, &mcp.Tool{Name: name, Title: title, Description: description,
		Annotations: &mcp.ToolAnnotations{Title: title, ReadOnlyHint: readOnly}}, h)
}
