// Command demoapp serves the demo project tracker that `make demo` runs the agent against.
package main

import (
	"flag"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/webagent-dev/webagent/demoapp"
)

func main() {
	addr := flag.String("addr", envOr("DEMOAPP_ADDR", "127.0.0.1:8090"), "listen address")
	seed := flag.Bool("seed", true, "start with a few sample projects")
	check := flag.String("check", "", "only check that URL answers 200 (a container's health check) and exit")
	flag.Parse()
	if *check != "" {
		c := &http.Client{Timeout: 5 * time.Second}
		resp, err := c.Get(*check)
		if err != nil || resp.StatusCode != http.StatusOK {
			slog.Error("unhealthy", "url", *check, "err", err)
			os.Exit(1)
		}
		os.Exit(0)
	}

	var projects []demoapp.Project
	if *seed {
		projects = []demoapp.Project{
			{Name: "Website relaunch", Priority: "High"},
			{Name: "Q4-bugs", Priority: "Medium"},
		}
	}
	srv := &http.Server{Addr: *addr, Handler: demoapp.New(projects...), ReadHeaderTimeout: 10 * time.Second}
	slog.Info("demo app listening", "url", "http://"+*addr+"/projects")
	if err := srv.ListenAndServe(); err != nil {
		slog.Error("demo app stopped", "err", err)
		os.Exit(1)
	}
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
