package procenv

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

const secretValue = "ghs_procenvTestSecret0123456789"

// TestMain lets the test binary play the hardened process: it hardens
// itself, then has a child read its /proc environ, as a malicious test
// would read agentfix's.
func TestMain(m *testing.M) {
	if os.Getenv("PROCENV_CHILD") == "1" {
		err := Harden(func(name string) bool { return strings.HasSuffix(name, "_TOKEN") })
		out, rerr := exec.Command("cat", fmt.Sprintf("/proc/%d/environ", os.Getpid())).Output()
		fmt.Printf("harden=%v\nread=%v\nstill-readable=%v\ngetenv-kept=%v\n",
			err, rerr, strings.Contains(string(out), secretValue), os.Getenv("INPUT_GITHUB_TOKEN") == secretValue)
		fmt.Printf("other-kept=%v\n", rerr != nil || strings.Contains(string(out), "PROCENV_PLAIN=visible"))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestHardenHidesSecretsFromChildren(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PROCENV_CHILD=1", "INPUT_GITHUB_TOKEN="+secretValue, "PROCENV_PLAIN=visible")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	got := string(out)
	for _, want := range []string{"harden=<nil>", "still-readable=false", "getenv-kept=true", "other-kept=true"} {
		if !strings.Contains(got, want) {
			t.Errorf("child reports\n%s\nwant %s", got, want)
		}
	}
}

// TestEnvironIsReadableWithoutHarden shows the attack the package exists
// for: without Harden, a child reads its parent's secret.
func TestEnvironIsReadableWithoutHarden(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	out, err := exec.Command("sh", "-c", `cat /proc/$PPID/environ`).Output()
	if err != nil {
		t.Skipf("cannot read the parent's environ here: %v", err)
	}
	if !strings.Contains(string(out), "PATH=") {
		t.Fatalf("parent's environ does not even show PATH: %q", out)
	}
}
