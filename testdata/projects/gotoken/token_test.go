package gotoken

import (
	"fmt"
	"os"
	"sort"
	"testing"
)

// TestEnv prints its whole environment, as a hostile test would.
func TestEnv(t *testing.T) {
	env := os.Environ()
	sort.Strings(env)
	for _, kv := range env {
		fmt.Println(kv)
	}
	for _, k := range []string{"GITHUB_TOKEN", "GH_TOKEN", "ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "AWS_SECRET_ACCESS_KEY", "NPM_TOKEN", "INPUT_GITHUB-TOKEN"} {
		if v, ok := os.LookupEnv(k); ok {
			t.Errorf("%s is visible: %q", k, v)
		}
	}
}
