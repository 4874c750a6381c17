// Package actiontest is test support for end-to-end runs of agentfix the
// way GitHub Actions runs it: a World per test (a bare origin seeded with a
// small Go project whose Add subtracts, a depth-1 workspace cloned from it
// without credentials or git identity, the fake GitHub API of
// internal/testing/githubfake and the fake Ollama server of
// internal/testing/ollamafake), the Actions environment and event payload
// of a run, and its Result: exit code, output, GITHUB_OUTPUT outputs and
// step summary. World.Run runs agentfix in-process through the command
// entry point; World.RunBinary and World.Start run the binary Main built,
// for the rows where a real process matters (signals, /proc, memory).
//
// It is imported only by tests (internal/e2e, internal/hardening); it
// imports testing.
package actiontest
