//go:build !unix

package ollamatest

import "os/exec"

func ownProcessGroup(*exec.Cmd) {}

func signalGroup(cmd *exec.Cmd, _ bool) { _ = cmd.Process.Kill() }

func alive(int) bool { return false }
