package verify

// IsSecretName reports whether an environment variable of this name is kept
// from test commands by default (see ScrubEnv).
func IsSecretName(name string) bool { return isSecretName(name) }

// IsHeldName reports whether agentfix takes a variable of this name out of
// its own environment when it starts (procenv.Take), keeping the value for
// itself: secret by its name, and never passable to the tests by a
// verify.env entry (the token, INPUT_*, ACTIONS_*). A secret the user may
// pass to the tests stays in the environment for verify.env to find.
func IsHeldName(name string) bool { return isSecretName(name) && CheckEnvEntry(name) != "" }
