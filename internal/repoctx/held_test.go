package repoctx

import (
	"fmt"
	"strings"
	"testing"
)

// TestBuildFollowsATestsServerToItsHandler: a test that serves a router
// with httptest.NewServer reaches the router's ServeHTTP through the
// standard library, and the fault is two calls below it.
func TestBuildFollowsATestsServerToItsHandler(t *testing.T) {
	big := lookAlikes("web", "step", "// match finds the route of p.\nfunc match(routes map[string]string, p string) string {\n\treturn routes[p] // the bug\n}\n")
	repo := newRepo(t, map[string]string{
		"go.mod":     "module example.com/web\n",
		"web/big.go": big,
		"web/router.go": "package web\n\nimport (\n\t\"fmt\"\n\t\"net/http\"\n)\n\n// Router routes requests.\ntype Router struct{ routes map[string]string }\n\n" +
			"// New is a router.\nfunc New() *Router { return &Router{routes: map[string]string{\"a\": \"home\"}} }\n\n" +
			"func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {\n\tfmt.Fprint(w, r.lookup(req.URL.Path))\n}\n\n" +
			"func (r *Router) lookup(p string) string {\n\treturn match(r.routes, p)\n}\n",
		"web/router_test.go": "package web\n\nimport (\n\t\"io\"\n\t\"net/http\"\n\t\"net/http/httptest\"\n\t\"testing\"\n)\n\n" +
			"func TestServe(t *testing.T) {\n\tts := httptest.NewServer(New())\n\tdefer ts.Close()\n\tresp, err := http.Get(ts.URL + \"/a\")\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n\tb, _ := io.ReadAll(resp.Body)\n" +
			"\tif string(b) != \"home\" {\n\t\tt.Errorf(\"body = %q, want %q\", b, \"home\")\n\t}\n}\n",
	})
	failing := "--- FAIL: TestServe (0.00s)\n    router_test.go:19: body = \"\", want \"home\"\nFAIL\nFAIL\texample.com/web\t0.002s\n"
	mustPackFunc(t, build(t, repo, failing, 1500), "web/big.go", big, "match")
}

// TestBuildFollowsATestsValuesToTheMethodsCalledOnThem: the test builds a
// CSVFlag and hands it to the app, which calls Apply on every flag
// through an interface three calls down; of the package's 41 Apply
// methods, the one of the type the test built is the place.
func TestBuildFollowsATestsValuesToTheMethodsCalledOnThem(t *testing.T) {
	var flags strings.Builder
	flags.WriteString("package app\n\n")
	for k := range 41 {
		if k == 20 {
			flags.WriteString("// CSVFlag is a flag of comma-separated values.\ntype CSVFlag struct{ Name string }\n\n// Apply sets the flag's default.\nfunc (f *CSVFlag) Apply(set map[string]string) error {\n\tset[f.Name] = \"\" // the bug\n\treturn nil\n}\n\n")
			continue
		}
		fmt.Fprintf(&flags, "// IntFlag%d is a flag of ints.\ntype IntFlag%d struct{ Name string }\n\n// Apply sets the flag's default.\nfunc (f *IntFlag%d) Apply(set map[string]string) error {\n\tset[f.Name] = \"%d\"\n\treturn nil\n}\n\n", k, k, k, k)
	}
	repo := newRepo(t, map[string]string{
		"go.mod":       "module example.com/app\n",
		"app/flags.go": flags.String(),
		"app/app.go": "package app\n\n// Flag is a command-line flag.\ntype Flag interface{ Apply(set map[string]string) error }\n\n// App runs with its flags.\ntype App struct{ Flags []Flag }\n\n" +
			"// Run parses args with the app's flags.\nfunc (a *App) Run(args []string) (map[string]string, error) {\n\tset := map[string]string{}\n\treturn set, a.setup(set)\n}\n\n" +
			"func (a *App) setup(set map[string]string) error {\n\treturn applyFlags(a.Flags, set)\n}\n\n" +
			"func applyFlags(flags []Flag, set map[string]string) error {\n\tfor _, f := range flags {\n\t\tif err := f.Apply(set); err != nil {\n\t\t\treturn err\n\t\t}\n\t}\n\treturn nil\n}\n",
		"app/app_test.go": "package app\n\nimport \"testing\"\n\nfunc TestDefaults(t *testing.T) {\n\ta := &App{Flags: []Flag{&CSVFlag{Name: \"s\"}}}\n\tset, _ := a.Run([]string{\"-s\", \"1,2\"})\n" +
			"\tif set[\"s\"] != \"1,2\" {\n\t\tt.Errorf(\"s = %q, want %q\", set[\"s\"], \"1,2\")\n\t}\n}\n",
	})
	failing := "--- FAIL: TestDefaults (0.00s)\n    app_test.go:9: s = \"\", want \"1,2\"\nFAIL\nFAIL\texample.com/app\t0.002s\n"
	mustPackFunc(t, build(t, repo, failing, 1500), "app/flags.go", flags.String(), "(f *CSVFlag) Apply")
}

// TestBuildFollowsTheMethodsOfTheValueATestHolds: thirty file systems
// have a MkdirAll and a Mkdir; the failing test holds a MemFs (from
// NewMemFs) and calls fs.MkdirAll, whose Mkdir calls newDir, where the
// fault is. Only MemFs's methods are followed, so the room goes to
// newDir rather than to the other file systems' look-alikes.
func TestBuildFollowsTheMethodsOfTheValueATestHolds(t *testing.T) {
	files := map[string]string{
		"go.mod":    "module example.com/vfs\n",
		"vfs/fs.go": "package vfs\n\n// Fs is a file system.\ntype Fs interface {\n\tMkdir(name string) error\n\tMkdirAll(name string) error\n}\n",
		"vfs/mem.go": "package vfs\n\nimport \"strings\"\n\n// MemFs keeps its files in memory.\ntype MemFs struct{ dirs map[string]*dir }\n\n// NewMemFs is an empty MemFs.\nfunc NewMemFs() Fs {\n\treturn &MemFs{dirs: map[string]*dir{}}\n}\n\n" +
			"// MkdirAll makes name and its parents.\nfunc (m *MemFs) MkdirAll(name string) error {\n\tparts := strings.Split(name, \"/\")\n\tfor k := range parts {\n\t\tif err := m.Mkdir(strings.Join(parts[:k+1], \"/\")); err != nil {\n\t\t\treturn err\n\t\t}\n\t}\n\treturn nil\n}\n\n" +
			"// Mkdir makes name.\nfunc (m *MemFs) Mkdir(name string) error {\n\tm.dirs[name] = newDir(name)\n\treturn nil\n}\n\n" +
			"// Stat describes name.\nfunc (m *MemFs) Stat(name string) (*dir, bool) {\n\td, ok := m.dirs[name]\n\treturn d, ok\n}\n",
		"vfs/dir.go": "package vfs\n\nimport \"time\"\n\ntype dir struct {\n\tname    string\n\tmodTime time.Time\n}\n\nfunc newDir(name string) *dir {\n\treturn &dir{name: name} // the bug: no modTime\n}\n",
		"vfs/mem_test.go": "package vfs\n\nimport \"testing\"\n\nfunc TestMkdirAllModTime(t *testing.T) {\n\tfs := NewMemFs()\n\tif err := fs.MkdirAll(\"a/b\"); err != nil {\n\t\tt.Fatal(err)\n\t}\n" +
			"\td, _ := fs.(*MemFs).Stat(\"a\")\n\tif d.modTime.IsZero() {\n\t\tt.Errorf(\"a: mod time not set\")\n\t}\n}\n",
	}
	for k := range 30 {
		files[fmt.Sprintf("vfs/layer%d.go", k)] = fmt.Sprintf("package vfs\n\n// Layer%d is file system %d over a base.\ntype Layer%d struct{ base Fs }\n\n", k, k, k) +
			fmt.Sprintf("// MkdirAll makes name and its parents in layer %d.\nfunc (l *Layer%d) MkdirAll(name string) error {\n\tif name == \"\" {\n\t\treturn nil\n\t}\n\tfor k := 0; k < %d; k++ {\n\t\tname = \"layer%d/\" + name\n\t}\n\treturn l.base.MkdirAll(name)\n}\n\n", k, k, k, k) +
			fmt.Sprintf("// Mkdir makes name in layer %d.\nfunc (l *Layer%d) Mkdir(name string) error {\n\tif name == \"\" {\n\t\treturn nil\n\t}\n\tfor k := 0; k < %d; k++ {\n\t\tname = \"layer%d/\" + name\n\t}\n\treturn l.base.Mkdir(name)\n}\n", k, k, k, k)
	}
	repo := newRepo(t, files)
	failing := "--- FAIL: TestMkdirAllModTime (0.00s)\n    mem_test.go:11: a: mod time not set\nFAIL\nFAIL\texample.com/vfs\t0.002s\n"
	for _, budget := range []int{2000, 2500} {
		mustPackFunc(t, build(t, repo, failing, budget), "vfs/dir.go", files["vfs/dir.go"], "newDir")
	}
}

// TestBuildKeepsTheMethodOfTheTypeTheOutputNames: the failing test builds
// a JSONFormatter and gets its other value from a table, and its output
// says TextFormatter.Format: that method is still followed and a focus,
// though the only type the test is seen to hold is another.
func TestBuildKeepsTheMethodOfTheTypeTheOutputNames(t *testing.T) {
	files := map[string]string{
		"go.mod":       "module example.com/logx\n",
		"logx/json.go": "package logx\n\n// JSONFormatter writes entries as JSON.\ntype JSONFormatter struct{}\n\n// Format writes e as JSON.\nfunc (f *JSONFormatter) Format(e map[string]string) string {\n\treturn \"{}\"\n}\n",
		"logx/text.go": "package logx\n\n// TextFormatter writes entries as text.\ntype TextFormatter struct{}\n\n// Format writes e as key=value pairs.\nfunc (f *TextFormatter) Format(e map[string]string) string {\n\treturn \"\" // the bug\n}\n",
		"logx/fmt_test.go": "package logx\n\nimport \"testing\"\n\nfunc TestFormatters(t *testing.T) {\n\tj := &JSONFormatter{}\n\tif got := j.Format(nil); got != \"{}\" {\n\t\tt.Errorf(\"JSONFormatter.Format = %q\", got)\n\t}\n" +
			"\tif got := byName(\"text\").Format(map[string]string{\"a\": \"1\"}); got != \"a=1\" {\n\t\tt.Errorf(\"TextFormatter.Format = %q, want a=1\", got)\n\t}\n}\n",
		"logx/logx.go": "package logx\n\n// Formatter formats entries.\ntype Formatter interface{ Format(e map[string]string) string }\n\nvar formatters = map[string]Formatter{\"text\": &TextFormatter{}, \"json\": &JSONFormatter{}}\n\nfunc byName(name string) Formatter {\n\treturn formatters[name]\n}\n",
	}
	for k := range 30 {
		files[fmt.Sprintf("logx/sink%d.go", k)] = fmt.Sprintf("package logx\n\n// Sink%d keeps formatted entries.\ntype Sink%d struct{ lines []string }\n\n// Write keeps the entry as text formatted by the text formatter %d.\nfunc (s *Sink%d) Write(e map[string]string) {\n\tfor k, v := range e {\n\t\ts.lines = append(s.lines, k+\"=\"+v+\"%d\")\n\t}\n}\n", k, k, k, k, k)
	}
	repo := newRepo(t, files)
	failing := "--- FAIL: TestFormatters (0.00s)\n    fmt_test.go:11: TextFormatter.Format = \"\", want a=1\nFAIL\nFAIL\texample.com/logx\t0.002s\n"
	mustPackFunc(t, build(t, repo, failing, 600), "logx/text.go", files["logx/text.go"], "(f *TextFormatter) Format")
}
