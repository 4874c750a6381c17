// Command agentfix turns an issue or a failing test into a proven pull request,
// using a self-hosted Ollama model. See README.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/agentfix/agentfix/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], cli.OSEnv())
	stop()
	os.Exit(code)
}
