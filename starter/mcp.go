package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webagent-dev/webagent/internal/config"
	"github.com/webagent-dev/webagent/starter/mcpserver"
	"github.com/webagent-dev/webagent/workflows"
)

// mcpCommand serves the runs to other agents over the Model Context Protocol: on the
// standard input and output (an MCP client starts `starter mcp` itself), or over
// streamable HTTP with --listen. Beyond loopback a bearer token is required
// (WEBAGENT_MCP_TOKEN or --token-file), since whoever reaches the server may start runs.
func mcpCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "", "serve streamable HTTP on this address (host:port), at /mcp; default: stdio")
	tokenFile := fs.String("token-file", "", "a file holding the bearer token HTTP callers must send (default: WEBAGENT_MCP_TOKEN)")
	by := fs.String("by", "mcp", "who answers runs through this server, for their record")
	if err := fs.Parse(args); err != nil {
		return exitBadInput
	}
	if fs.NArg() > 0 {
		return badInputf(stderr, "unexpected %q: starter mcp [--listen ADDR] [--token-file FILE]", strings.Join(fs.Args(), " "))
	}
	// Every answer the server sends carries --by: a name the runs would refuse is refused now.
	if err := workflows.CheckAnswer(*by, ""); err != nil {
		return badInputf(stderr, "--by: %v", err)
	}
	token := os.Getenv("WEBAGENT_MCP_TOKEN")
	if *tokenFile != "" {
		b, err := os.ReadFile(*tokenFile)
		if err != nil {
			return badInputf(stderr, "--token-file: %v", err)
		}
		token = strings.TrimSpace(string(b))
	}
	if *listen != "" && token == "" && !mcpserver.Loopback(*listen) {
		return badInputf(stderr, "--listen %s reaches beyond this machine: give a bearer token (WEBAGENT_MCP_TOKEN or --token-file), or listen on 127.0.0.1", *listen)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, err := dial(ctx)
	if err != nil {
		return exitFor(stderr, err)
	}
	defer c.Close()
	srv := mcpserver.New(c, mcpserver.Options{By: *by, StartURL: config.Get("WEBAGENT_START_URL", "http://127.0.0.1:8090/projects")})
	if *listen == "" {
		if err := srv.Run(ctx, &mcp.StdioTransport{}); err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return exitFailed
		}
		return exitOK
	}
	return serveMCP(ctx, srv, *listen, token, stdout, stderr)
}

// serveMCP serves srv over HTTP at /mcp until ctx ends.
func serveMCP(ctx context.Context, srv *mcp.Server, addr, token string, stdout, stderr io.Writer) int {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return badInputf(stderr, "--listen %s: %v", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcpserver.Handler(srv, token))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
	}()
	auth := "no token (loopback only)"
	if token != "" {
		auth = "bearer token required"
	}
	fmt.Fprintf(stdout, "MCP server on http://%s/mcp (%s)\n", l.Addr(), auth)
	if err := hs.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitFailed
	}
	return exitOK
}
