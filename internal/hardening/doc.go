// Package hardening holds agentfix's fault and attack matrices: each row is
// a test that runs agentfix the way GitHub Actions does (in-process through
// the command entry point, or the built binary where a real process
// matters: signals, /proc, memory), against
// the fake GitHub API (internal/testing/githubfake) and the fake Ollama
// server (internal/testing/ollamafake), injects one fault or one attack,
// and checks what a user would see: a clear report, the best diff and the
// session record kept, no partial push, no duplicate pull request, no
// leaked token, and every attack refused with its reason.
//
//	go test ./internal/hardening -run 'Fault|Attack' -v   # the table and the totals
//	go test ./internal/hardening -update-readme          # rewrite the README's figures
//
// The totals in README.md (between the hardening markers) are generated
// from a run; a run of every row fails when they disagree with it. The
// package has no non-test code.
package hardening
