// Package packaging holds no code: its tests check how agentfix is shipped
// (Dockerfile, action.yml, release workflow) against each other and against
// the binary, since no Docker engine or Actions runner is at hand in CI.
package packaging
