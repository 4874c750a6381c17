package verify

// IsSecretName reports whether an environment variable of this name is kept
// from test commands by default (see ScrubEnv).
func IsSecretName(name string) bool { return isSecretName(name) }
