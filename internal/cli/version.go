package cli

import (
	"context"
	"fmt"
	"runtime"
)

// Version is set at build time:
//
//	go build -ldflags "-X github.com/agentfix/agentfix/internal/cli.Version=v1.2.3"
var Version = "dev"

func runVersion(ctx context.Context, e *Env, args []string) error {
	fs := newFlagSet(e, "version", "", "Print the agentfix version and the Go version it was built with.")
	if err := parseFlags(e, fs, args); err != nil {
		return done(err)
	}
	fmt.Fprintf(e.Stdout, "agentfix %s (%s, %s/%s)\n", Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return nil
}
