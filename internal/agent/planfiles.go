package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Limits on showing the files a plan names that the context pack left out.
const (
	planFileMaxBytes  = 24 << 10 // larger files are named, not shown
	planFilesMaxBytes = 48 << 10 // all shown files together
)

// planFiles shows the model the files its plan will change that the
// context pack did not include, numbered like the pack, so that it does
// not write a diff against a file it has not seen. New files are skipped.
func (r *run) planFiles(p *Plan) string {
	var b strings.Builder
	total := 0
	for _, f := range p.Files {
		if r.packed[f] {
			continue
		}
		data, err := os.ReadFile(filepath.Join(r.repo.Root, filepath.FromSlash(f)))
		if err != nil {
			continue
		}
		if len(data) > planFileMaxBytes || total+len(data) > planFilesMaxBytes {
			fmt.Fprintf(&b, "## %s (not shown: too large; quote its lines exactly in your edit)\n\n", f)
			continue
		}
		total += len(data)
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		width := len(fmt.Sprint(len(lines)))
		fmt.Fprintf(&b, "## %s (lines 1-%d of %d)\n", f, len(lines), len(lines))
		for i, l := range lines {
			fmt.Fprintf(&b, "%*d\t%s\n", width, i+1, l)
		}
		b.WriteString("\n")
	}
	if b.Len() == 0 {
		return ""
	}
	return "Files your plan names that were not shown above:\n\n" + b.String()
}
