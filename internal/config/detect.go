package config

import (
	"encoding/json"
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
