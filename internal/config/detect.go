package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentfix/agentfix/internal/verify"
)

// DetectVerify guesses the test command from the files at the root of repo,
// returning the command and the file that decided it, or "" when nothing
// fits.
func DetectVerify(repo string) (cmd, marker string) {
	exists := func(name string) bool {
		_, err := os.Stat(filepath.Join(repo, name))
		return err == nil
	}
	switch {
	case exists("go.mod"):
		return "go test ./...", "go.mod"
	case hasNpmTest(filepath.Join(repo, "package.json")):
		return "npm test", "package.json"
	case exists("Cargo.toml"):
		return "cargo test", "Cargo.toml"
	}
	for _, m := range []string{"pyproject.toml", "pytest.ini", "setup.cfg"} {
		if exists(m) {
			return "pytest", m
		}
	}
	return "", ""
}

// hasNpmTest reports whether package.json has a real test script (not the
// placeholder npm init writes).
func hasNpmTest(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return false
	}
	test := strings.TrimSpace(pkg.Scripts["test"])
	return test != "" && !strings.Contains(test, "no test specified")
}

// Below is a project DetectVerify finds one directory below a
// repository's root.
type Below struct {
	Dir, Marker, Cmd string // its directory, the file that decided, its command there
	// FromRoot is the command that tests it from the root, where
	// agentfix runs the commands; "" when the allowlist can take none
	// (npm --prefix and cargo --manifest-path are refused flags).
	FromRoot string
	// Allow is the verify.allow entry FromRoot needs; "" when the
	// built-in allowlist has it.
	Allow string
}

// DetectBelow lists up to three projects one directory below repo (a Go
// module in go/, a Python package in py/), in name order, leaving out
// the directories that hold none (verify.SkippedDir).
func DetectBelow(repo string) []Below {
	var out []Below
	entries, _ := os.ReadDir(repo)
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() || verify.SkippedDir(n) {
			continue
		}
		cmd, marker := DetectVerify(filepath.Join(repo, n))
		if cmd == "" {
			continue
		}
		b := Below{Dir: n, Marker: marker, Cmd: cmd}
		switch cmd {
		case "go test ./...":
			b.FromRoot, b.Allow = "go -C "+n+" test ./...", "go -C "+n+" test"
		case "pytest":
			b.FromRoot = "pytest " + n
		}
		if out = append(out, b); len(out) == 3 {
			break
		}
	}
	return out
}

// NoVerifyHint says why no test command was detected at the root of repo
// and what to do: set verify.commands where says. A project one directory
// down is named, with the command that tests it from the root when one
// can: agentfix runs the commands from the repository's root.
func NoVerifyHint(repo, where string) string {
	msg := "no test command could be detected (no go.mod, package.json test script, Cargo.toml or pytest config at the repository's root)"
	var below []string
	for _, b := range DetectBelow(repo) {
		switch {
		case b.Allow != "":
			below = append(below, fmt.Sprintf("%s/%s, which %q tests from the root (allow it with verify.allow: [%q])", b.Dir, b.Marker, b.FromRoot, b.Allow))
		case b.FromRoot != "":
			below = append(below, fmt.Sprintf("%s/%s, which %q tests from the root", b.Dir, b.Marker, b.FromRoot))
		default:
			below = append(below, fmt.Sprintf("%s/%s (%s there)", b.Dir, b.Marker, b.Cmd))
		}
	}
	if len(below) > 0 {
		msg += "; one directory down: " + strings.Join(below, "; ")
	}
	return msg + "; set verify.commands in " + where
}
