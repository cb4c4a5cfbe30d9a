package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

// secretsCommand lists what the workers' operator grants runs: the secrets a goal may
// name, each with the sites it may be typed on, and the internal addresses the browsers
// may reach. Never a value, nor where a worker reads it.
func secretsCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("secrets", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the answer as JSON")
	if err := fs.Parse(args); err != nil {
		return exitBadInput
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := dial(ctx)
	if err != nil {
		return exitFor(stderr, err)
	}
	defer c.Close()
	res, err := c.Grants(ctx)
	if err != nil {
		return exitFor(stderr, err)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(res)
		return exitOK
	}
	if len(res.Secrets) == 0 {
		fmt.Fprintln(stdout, "the workers grant no secrets (their operator declares them in WEBAGENT_SECRETS)")
	}
	for _, s := range res.Secrets {
		use := "{{secret:" + s.Name + "}}"
		if s.TOTP {
			use = "{{totp:" + s.Name + "}}"
		}
		fmt.Fprintf(stdout, "%-32s on %s\n", use, strings.Join(s.Sites, ", "))
	}
	fmt.Fprintf(stdout, "internal addresses the browsers may reach: %s\n", res.Internal)
	return exitOK
}
