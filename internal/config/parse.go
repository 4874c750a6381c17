package config

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Problem is one thing wrong with the configuration, located where it was
// written when it comes from a file.
type Problem struct {
	File string // empty when the value did not come from a file
	Line int
	Col  int
	Key  string // dotted path, e.g. limits.max_rounds
	Msg  string
}

func (p Problem) String() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File)
		if p.Line > 0 {
			fmt.Fprintf(&b, ":%d", p.Line)
		}
		if p.Col > 0 {
			fmt.Fprintf(&b, ":%d", p.Col)
		}
		b.WriteString(": ")
	}
	if p.Key != "" {
		fmt.Fprintf(&b, "%s: ", p.Key)
	}
	b.WriteString(p.Msg)
	return b.String()
}

// Error is every problem found in the configuration, in file order.
type Error struct {
	Problems []Problem
}

func (e *Error) Error() string {
	if len(e.Problems) == 1 {
		return "config " + e.Problems[0].String()
	}
	lines := make([]string, 0, len(e.Problems)+1)
	lines = append(lines, fmt.Sprintf("config has %d problems:", len(e.Problems)))
	for _, p := range e.Problems {
		lines = append(lines, "  "+p.String())
	}
	return strings.Join(lines, "\n")
}

// Sources records where each effective value came from, by dotted key:
// "default", "FILE:LINE", "env NAME", "input NAME" or "flag --NAME".
type Sources map[string]string

// Parse decodes a config file strictly, over cfg: keys in the file replace
// the values already there, and src records their line. Every unknown key,
// wrong type and unparsable value is reported, not just the first.
func Parse(file string, data []byte, cfg *Config, src Sources) error {
	probs, syntax := parse(file, data, cfg, src)
	if syntax || len(probs) > 0 {
		return &Error{Problems: probs}
	}
	return nil
}

// parse is Parse returning the problems, and whether the file is not YAML
// at all (then nothing was decoded). A key with a problem keeps the value
// cfg had, so the rest of the configuration can still be validated.
func parse(file string, data []byte, cfg *Config, src Sources) (probs []Problem, syntax bool) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return []Problem{{File: file, Line: yamlErrLine(err), Msg: "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}}, true
	}
	if len(doc.Content) == 0 {
		return nil, false // empty file or comments only: all defaults
	}
	d := decoder{file: file, src: src}
	d.value(doc.Content[0], reflect.ValueOf(cfg).Elem(), "")
	return d.problems, false
}

type decoder struct {
	file     string
	src      Sources
	problems []Problem
}

func (d *decoder) fail(n *yaml.Node, key, format string, args ...any) {
	d.problems = append(d.problems, Problem{File: d.file, Line: n.Line, Col: n.Column, Key: key, Msg: fmt.Sprintf(format, args...)})
}

var durationType = reflect.TypeOf(Duration(0))

func (d *decoder) value(n *yaml.Node, v reflect.Value, key string) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		d.fail(n, key, "has no value (remove the key to keep the default)")
		return
	}
	switch {
	case v.Type() == durationType:
		if !d.scalar(n, key, "a duration such as 10m") {
			return
		}
		dur, err := ParseDuration(n.Value)
		if err != nil {
			d.fail(n, key, "%v", err)
			return
		}
		v.Set(reflect.ValueOf(dur))
	case v.Kind() == reflect.Struct:
		d.mapping(n, v, key)
		return
	case v.Kind() == reflect.String:
		if !d.scalar(n, key, "a string") {
			return
		}
		v.SetString(n.Value)
	case v.Kind() == reflect.Int:
		if !d.scalar(n, key, "a whole number") {
			return
		}
		i, err := strconv.Atoi(n.Value)
		if err != nil || n.Tag != "!!int" {
			d.fail(n, key, "%q is not a whole number", n.Value)
			return
		}
		if i < 0 {
			d.fail(n, key, "must not be negative (got %d)", i)
			return
		}
		v.SetInt(int64(i))
	case v.Kind() == reflect.Bool:
		if !d.scalar(n, key, "true or false") {
			return
		}
		if n.Tag != "!!bool" {
			d.fail(n, key, "%q is not true or false", n.Value)
			return
		}
		v.SetBool(n.Value == "true" || n.Value == "True" || n.Value == "TRUE")
	case v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.String:
		if n.Kind != yaml.SequenceNode {
			d.fail(n, key, "must be a list, like [a, b] or one '- item' per line")
			return
		}
		list := make([]string, 0, len(n.Content))
		ok := true
		for i, item := range n.Content {
			if item.Kind != yaml.ScalarNode || item.Tag == "!!null" {
				d.fail(item, fmt.Sprintf("%s[%d]", key, i), "must be a string")
				ok = false
				continue
			}
			list = append(list, item.Value)
			if d.src != nil {
				d.src[fmt.Sprintf("%s[%d]", key, i)] = fmt.Sprintf("%s:%d:%d", d.file, item.Line, item.Column)
			}
		}
		if !ok {
			return
		}
		v.Set(reflect.ValueOf(list))
	default:
		panic(fmt.Sprintf("config: no decoder for %s", v.Type()))
	}
	if d.src != nil {
		d.src[key] = fmt.Sprintf("%s:%d:%d", d.file, n.Line, n.Column)
	}
}

func (d *decoder) scalar(n *yaml.Node, key, want string) bool {
	if n.Kind != yaml.ScalarNode {
		d.fail(n, key, "must be %s, not a %s", want, kindName(n.Kind))
		return false
	}
	return true
}

func (d *decoder) mapping(n *yaml.Node, v reflect.Value, key string) {
	if n.Kind != yaml.MappingNode {
		what := "must"
		if key == "" {
			what = "the file must"
		}
		d.fail(n, key, "%s be a mapping of keys to values, not a %s", what, kindName(n.Kind))
		return
	}
	fields := fieldsOf(v.Type())
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		path := join(key, k.Value)
		if seen[k.Value] {
			d.fail(k, path, "is set twice")
			continue
		}
		seen[k.Value] = true
		idx, ok := fields[k.Value]
		if !ok {
			d.fail(k, "", "unknown key %q%s", path, suggest(key, k.Value))
			continue
		}
		d.value(val, v.Field(idx), path)
	}
}

// fieldsOf maps yaml key names to field indexes.
func fieldsOf(t reflect.Type) map[string]int {
	m := make(map[string]int, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		if name := yamlName(t.Field(i)); name != "" {
			m[name] = i
		}
	}
	return m
}

func yamlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if name == "-" {
		return ""
	}
	return name
}

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		return "single value"
	}
	return "document"
}

// Keys returns every config key as a dotted path, sorted.
func Keys() []string {
	var keys []string
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name := join(prefix, yamlName(f))
			if f.Type.Kind() == reflect.Struct && f.Type != durationType {
				walk(f.Type, name)
				continue
			}
			keys = append(keys, name)
		}
	}
	walk(reflect.TypeOf(Config{}), "")
	sort.Strings(keys)
	return keys
}

// synonyms are keys other tools use for one of ours.
var synonyms = map[string]string{
	"max_iterations": "limits.max_rounds", "max_iteration": "limits.max_rounds", "iterations": "limits.max_rounds",
	"max_attempts": "limits.max_rounds", "max_retries": "limits.max_rounds", "retries": "limits.max_rounds",
	"test_command": "verify.commands", "test_commands": "verify.commands", "test": "verify.commands",
	"timeout": "verify.timeout", "context_length": "ollama.num_ctx", "context": "ollama.num_ctx",
}

// suggest finds what an unknown key under section was probably meant to be:
// a key of the same name in another section, a close spelling, or the key
// other tools use for the same thing.
func suggest(section, key string) string {
	if s, ok := synonyms[strings.ToLower(key)]; ok {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	best, bestDist := "", 1<<30
	for _, full := range Keys() {
		parent, leaf := "", full
		if i := strings.LastIndexByte(full, '.'); i >= 0 {
			parent, leaf = full[:i], full[i+1:]
		}
		if leaf == key && parent != section {
			return fmt.Sprintf(" (did you mean %q?)", full)
		}
		if parent != section {
			// Sections themselves are candidates at the top level.
			if section == "" && parent != "" && !strings.Contains(parent, ".") {
				leaf, full = parent, parent
			} else {
				continue
			}
		}
		if dist := levenshtein(strings.ToLower(key), leaf); dist < bestDist {
			best, bestDist = full, dist
		}
	}
	if best != "" && bestDist <= max(2, len(key)/3) {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return ""
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// yamlErrLine pulls the line number out of a yaml.v3 syntax error.
func yamlErrLine(err error) int {
	msg := err.Error()
	if i := strings.Index(msg, "line "); i >= 0 {
		rest := msg[i+5:]
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if n, err := strconv.Atoi(rest[:j]); err == nil {
			return n
		}
	}
	return 0
}
