// Command agentfix turns an issue or a failing test into a proven pull request,
// using a self-hosted Ollama model. See README.md.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/agentfix/agentfix/internal/cli"
	"github.com/agentfix/agentfix/internal/procenv"
	"github.com/agentfix/agentfix/internal/repoctx"
	"github.com/agentfix/agentfix/internal/verify"
)

func main() {
	// Before anything runs: the tests agentfix starts must not find the
	// token in /proc/<agentfix>/environ.
	if err := procenv.Harden(verify.IsSecretName); err != nil {
		fmt.Fprintf(os.Stderr, "agentfix: warning: secrets may be readable by child processes: %v\n", err)
	}
	// Packing context reads every file of the repository (see
	// repoctx.TuneGC).
	repoctx.TuneGC()
	// The token is read once, here, and leaves the environment Go holds:
	// no program agentfix starts inherits it, even by mistake.
	env := cli.OSEnv()
	env.Getenv = procenv.Getenv(procenv.Take(verify.IsHeldName))
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		s, ok := <-sigs
		if ok {
			// A second signal kills at once, as it would without agentfix.
			signal.Stop(sigs)
			cancel(cli.Interrupted{Signal: s})
		}
	}()
	code := cli.Main(ctx, os.Args[1:], env)
	signal.Stop(sigs)
	os.Exit(code)
}
