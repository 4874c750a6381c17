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

// TestTakeLeavesNothingForChildren: after Take, a child that inherits the
// process environment (no cmd.Env) finds no token, while the program still
// reads it through Getenv.
func TestTakeLeavesNothingForChildren(t *testing.T) {
	t.Setenv("INPUT_GITHUB_TOKEN", secretValue)
	t.Setenv("GITHUB_TOKEN", secretValue)
	t.Setenv("PROCENV_PLAIN", "visible")
	held := Take(func(name string) bool { return strings.HasSuffix(name, "_TOKEN") })
	t.Cleanup(func() {
		for k := range held {
			os.Unsetenv(k)
		}
	})
	if got := Getenv(held)("INPUT_GITHUB_TOKEN"); got != secretValue {
		t.Errorf("Getenv after Take = %q, want the token", got)
	}
	if got := Getenv(held)("PROCENV_PLAIN"); got != "visible" {
		t.Errorf("Getenv of a variable not taken = %q", got)
	}
	out, err := exec.Command("env").Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), secretValue) {
		t.Errorf("a child inherited the token after Take:\n%s", out)
	}
	if !strings.Contains(string(out), "PROCENV_PLAIN=visible") {
		t.Errorf("a child lost a variable that was not taken")
	}
}
