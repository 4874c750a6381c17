// Command context benchmarks agentfix's context engine; see README.md in
// this directory.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	repoctx "github.com/agentfix/agentfix/internal/context"
)

func main() {
	repo := flag.String("repo", "", "pack one query against this repository and print it")
	query := flag.String("query", "", "the query for -repo")
	budget := flag.Int("budget", 4096, "token budget for -repo")
	flag.Parse()
	if *repo != "" {
		p, err := repoctx.Build(context.Background(), *repo, *query, repoctx.Options{Budget: *budget})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Print(p.Text())
		for _, f := range p.Files {
			fmt.Fprintf(os.Stderr, "%.3f %5d %s %v\n", f.Score, f.Tokens, f.Path, f.Chunks)
		}
		fmt.Fprintf(os.Stderr, "tokens %d files %d took %dms\n", p.TokensUsed, p.RepoFiles, p.TookMS)
	}
}
