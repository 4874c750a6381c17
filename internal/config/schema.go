package config

import (
	"encoding/json"
	"reflect"
	"strings"
)

// descriptions document every key; the schema and the README reference
// (checked by a test) both draw on them.
var descriptions = map[string]string{
	"model":                    "Ollama model that plans and writes patches.",
	"ollama":                   "How to reach the Ollama server.",
	"ollama.host":              "Ollama server URL; host:port is accepted like OLLAMA_HOST.",
	"ollama.timeout":           "Longest time one model request may take (Go duration, e.g. 10m).",
	"ollama.num_ctx":           "Context window to request; 0 chooses it from the packed prompt and the model's context length.",
	"verify":                   "The commands that prove a fix.",
	"verify.commands":          "Commands that must all pass; empty means detected from the repository.",
	"verify.allow":             "Extra command prefixes for the allowlist, matched token by token.",
	"verify.timeout":           "Longest time one verify command may run; its process group is killed after it.",
	"verify.flaky_reruns":      "How often a failure is re-run to tell a flaky test from a broken one.",
	"verify.env_passthrough":   "Variables passed to the test commands by name, like NAME entries of verify.env.",
	"verify.env":               "Additions to the commands' allow-listed environment: NAME passes agentfix's variable, NAME=value sets one.",
	"verify.sandbox":           "How the commands are contained: auto (bubblewrap where it works, said plainly when not), required or off.",
	"verify.network":           "Let the commands reach the network; off by default, since they run the code the model wrote.",
	"verify.readable":          "Extra host paths the sandboxed commands may read (absolute, or ~/ for the home directory).",
	"verify.writable":          "Extra host paths the sandboxed commands may write (absolute, or ~/ for the home directory).",
	"verify.max_memory_mb":     "Most memory (MiB) a sandboxed command may use: the whole command, in a cgroup of its own, without swap; where no cgroup is writable, each process's data (RLIMIT_DATA).",
	"verify.max_processes":     "Most processes and threads of a sandboxed command: the whole command, in a cgroup of its own; where no cgroup is writable, those it may add (RLIMIT_NPROC, which does not bind root).",
	"verify.proof":             "What proves a fix of a task given as text while the commands pass: test (a test that fails without the fix and passes with it) or checks (the commands passing is enough).",
	"verify.test_paths":        "Globs of test files; empty means detected from the verify commands' test runners.",
	"limits":                   "Budgets of one run and one patch.",
	"limits.max_rounds":        "Rounds of patch and verify before giving up.",
	"limits.max_files":         "Most files one patch may touch.",
	"limits.max_changed_lines": "Most added plus removed lines in one patch.",
	"limits.wall_time":         "Longest time for the whole run (Go duration, e.g. 45m).",
	"limits.max_revisions":     "Most revisions agentfix makes to one of its pull requests in answer to reviews; counted from the branch's commits.",
	"paths":                    "Which files a patch may touch (doublestar globs relative to the repository root).",
	"paths.allow":              "Globs a patch may touch.",
	"paths.deny":               "Globs a patch may never touch; deny wins over allow.",
	"paths.allow_delete":       "Whether a patch may delete files.",
	"paths.allow_rename":       "Whether a patch may rename files.",
	"triggers":                 "Who and what may start agentfix in GitHub Actions.",
	"triggers.label":           "Issue label that starts a fix.",
	"triggers.command":         "Comment command prefix, e.g. /agent for /agent fix.",
	"triggers.allow_forks":     "Whether /agent check may run code from fork pull requests.",
	"triggers.allow_bots":      "Exact bot logins allowed to trigger, e.g. dependabot[bot].",
	"task":                     "What of an issue becomes the model's task.",
	"task.max_bytes":           "Most bytes of issue text (title, body, trusted comments) the model reads; longer text is cut and the status comment says so.",
	"task.comment_authors":     "Logins whose issue comments reach the model although they lack write permission.",
	"pr":                       "How pull requests are opened.",
	"pr.branch_prefix":         "Prefix of every branch agentfix pushes.",
	"pr.draft":                 "Open pull requests as drafts.",
	"pr.labels":                "Labels put on the pull requests.",
	"pr.on_unverified":         "What happens to a fix that did not pass verification: comment, draft or none.",
	"pr.on_unproven":           "What happens to a change that passes the checks when no test proves it: comment, draft or none.",
	"reviewer":                 "Optional second model that reads the final diff before the PR is opened.",
	"reviewer.model":           "Reviewer model; empty disables the review.",
}

// Schema returns the JSON Schema (draft 2020-12) of the config file.
func Schema() ([]byte, error) {
	root := schemaFor(reflect.ValueOf(*Default()), "")
	root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	root["title"] = "agentfix configuration (" + DefaultPath + ")"
	return json.MarshalIndent(root, "", "  ")
}

func schemaFor(v reflect.Value, key string) map[string]any {
	s := map[string]any{}
	if d := descriptions[key]; d != "" {
		s["description"] = d
	}
	switch {
	case v.Type() == durationType:
		s["type"] = "string"
		s["pattern"] = `^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`
		s["default"] = v.Interface().(Duration).String()
	case v.Kind() == reflect.Struct:
		s["type"] = "object"
		s["additionalProperties"] = false
		props := map[string]any{}
		for i := 0; i < v.NumField(); i++ {
			name := yamlName(v.Type().Field(i))
			props[name] = schemaFor(v.Field(i), join(key, name))
		}
		s["properties"] = props
	case v.Kind() == reflect.String:
		s["type"] = "string"
		s["default"] = v.String()
		switch key {
		case "pr.on_unverified", "pr.on_unproven":
			s["enum"] = []string{OnUnverifiedComment, OnUnverifiedDraft, OnUnverifiedNone}
		case "verify.proof":
			s["enum"] = []string{ProofTest, ProofChecks}
		}
		if key == "verify.sandbox" {
			s["enum"] = []string{SandboxAuto, SandboxRequired, SandboxOff}
		}
	case v.Kind() == reflect.Int:
		s["type"] = "integer"
		s["minimum"] = 0
		if strings.HasPrefix(key, "limits.") || strings.HasPrefix(key, "verify.max_") {
			s["minimum"] = 1
		}
		s["default"] = v.Int()
	case v.Kind() == reflect.Bool:
		s["type"] = "boolean"
		s["default"] = v.Bool()
	case v.Kind() == reflect.Slice:
		s["type"] = "array"
		s["items"] = map[string]any{"type": "string"}
		def := []string{}
		if !v.IsNil() {
			def = v.Interface().([]string)
		}
		s["default"] = def
	}
	return s
}
