package cli

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestDoctorHelpListsEveryFlag: the usage line names every flag doctor
// accepts, not only --repo and --json.
func TestDoctorHelpListsEveryFlag(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"doctor", "--help"}, MapEnv(nil, nil, &out, &errb)); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	usage, flags, ok := strings.Cut(out.String(), "\nFlags:")
	if !ok {
		t.Fatalf("no Flags section:\n%s", out.String())
	}
	synopsis, _, _ := strings.Cut(usage, "\n")
	names := regexp.MustCompile(`(?m)^  -(\S+)`).FindAllStringSubmatch(flags, -1)
	if len(names) < 3 {
		t.Fatalf("flags not found in:\n%s", flags)
	}
	for _, m := range names {
		if !strings.Contains(synopsis, "[--"+m[1]) {
			t.Errorf("usage %q does not name --%s", synopsis, m[1])
		}
	}
}
