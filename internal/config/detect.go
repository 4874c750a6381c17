package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// NoVerifyHint says why no test command was detected at the root of repo
// and what to do: set verify.commands where says. A project one directory
// down (a Go module in go/, a Python package in py/) is named, with the
// command that tests it from the root when one can: agentfix runs the
// commands from the repository's root.
func NoVerifyHint(repo, where string) string {
	msg := "no test command could be detected (no go.mod, package.json test script, Cargo.toml or pytest config at the repository's root)"
	var below []string
	entries, _ := os.ReadDir(repo)
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") || n == "testdata" || n == "vendor" || n == "node_modules" {
			continue
		}
		cmd, marker := DetectVerify(filepath.Join(repo, n))
		switch {
		case cmd == "" || len(below) == 3:
		case cmd == "go test ./...":
			below = append(below, fmt.Sprintf("%s/%s, which %q tests from the root (allow it with verify.allow: [\"go -C %s test\"])", n, marker, "go -C "+n+" test ./...", n))
		case cmd == "pytest":
			below = append(below, fmt.Sprintf("%s/%s, which %q tests from the root", n, marker, "pytest "+n))
		default:
			below = append(below, fmt.Sprintf("%s/%s (%s there)", n, marker, cmd))
		}
	}
	if len(below) > 0 {
		msg += "; one directory down: " + strings.Join(below, "; ")
	}
	return msg + "; set verify.commands in " + where
}
