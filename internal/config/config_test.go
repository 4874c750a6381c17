package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/agentfix/agentfix/internal/testing/golden"
)

// TestParseGolden decodes and validates each testdata/parse/*.yml and
// compares the outcome (the effective config, or every problem) with its
// golden file.
func TestParseGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/parse/*.yml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Base(file)
			cfg, src := Default(), Sources{}
			err = Parse(name, data, cfg, src)
			if err == nil {
				err = Validate(cfg, src)
			}
			var got string
			if err != nil {
				got = "error:\n" + err.Error() + "\n"
			} else {
				out, merr := yaml.Marshal(cfg)
				if merr != nil {
					t.Fatal(merr)
				}
				got = "ok:\n" + string(out)
			}
			golden.Assert(t, strings.TrimSuffix(file, ".yml")+".golden", got)
		})
	}
}

func TestParseReportsEveryProblemWithLocation(t *testing.T) {
	data := []byte("model: x\nlimits:\n  max_iteration: 3\n  max_files: -2\nollama:\n  timeout: soon\n")
	err := Parse("f.yml", data, Default(), Sources{})
	cerr, ok := err.(*Error)
	if !ok {
		t.Fatalf("err = %v (%T), want *Error", err, err)
	}
	want := []Problem{
		{File: "f.yml", Line: 3, Col: 3, Msg: `unknown key "limits.max_iteration" (did you mean "limits.max_rounds"?)`},
		{File: "f.yml", Line: 4, Col: 14, Key: "limits.max_files", Msg: "must not be negative (got -2)"},
		{File: "f.yml", Line: 6, Col: 12, Key: "ollama.timeout", Msg: `"soon" is not a duration (write it like 90s, 10m or 1h30m)`},
	}
	if len(cerr.Problems) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%v", len(cerr.Problems), len(want), err)
	}
	for i := range want {
		if cerr.Problems[i] != want[i] {
			t.Errorf("problem %d:\n got %+v\nwant %+v", i, cerr.Problems[i], want[i])
		}
	}
}

func TestSuggest(t *testing.T) {
	tests := []struct{ section, key, want string }{
		{"limits", "max_round", "limits.max_rounds"},
		{"", "max_rounds", "limits.max_rounds"}, // right key, wrong section
		{"", "verfy", "verify"},
		{"ollama", "hots", "ollama.host"},
		{"pr", "lables", "pr.labels"},
		{"pr", "completely_unrelated", ""},
	}
	for _, tt := range tests {
		got := suggest(tt.section, tt.key)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, `"`+tt.want+`"`) {
			t.Errorf("suggest(%q, %q) = %q, want a suggestion of %q", tt.section, tt.key, got, tt.want)
		}
	}
}

func TestNormalizeHost(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"127.0.0.1:11434", "http://127.0.0.1:11434", ""},
		{"gpu-box", "http://gpu-box:11434", ""},
		{"http://gpu-box", "http://gpu-box:80", ""},
		{"https://ollama.internal/", "https://ollama.internal:443", ""},
		{"http://[::1]:9000", "http://[::1]:9000", ""},
		{"", "", "is empty"},
		{"ftp://x", "", "not an http(s) URL"},
	}
	for _, tt := range tests {
		got, err := NormalizeHost(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("NormalizeHost(%q) err = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("NormalizeHost(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestKeysCoverEveryField(t *testing.T) {
	keys := strings.Join(Keys(), " ")
	for _, k := range []string{"model", "ollama.num_ctx", "verify.env_passthrough", "paths.allow_delete", "triggers.allow_bots", "pr.on_unverified", "reviewer.model"} {
		if !strings.Contains(" "+keys+" ", " "+k+" ") {
			t.Errorf("Keys() lacks %s: %s", k, keys)
		}
	}
}

// TestSchemaAndDocsCoverEveryKey fails when a config key is missing from the
// schema, from the descriptions, or from the README's reference table.
func TestSchemaAndDocsCoverEveryKey(t *testing.T) {
	data, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range Keys() {
		node := schema
		for _, part := range strings.Split(key, ".") {
			props, _ := node["properties"].(map[string]any)
			next, ok := props[part].(map[string]any)
			if !ok {
				t.Errorf("schema lacks %s", key)
				break
			}
			node = next
		}
		if descriptions[key] == "" {
			t.Errorf("no description for %s", key)
		}
		if !strings.Contains(string(readme), "| `"+key+"` |") {
			t.Errorf("README's configuration reference has no row for `%s`", key)
		}
	}
	for key := range descriptions {
		if _, ok := descriptions[strings.SplitN(key, ".", 2)[0]]; !ok {
			t.Errorf("description for unknown section of %s", key)
		}
	}
	if schema["additionalProperties"] != false {
		t.Error("schema must reject unknown top-level keys like the parser does")
	}
}
