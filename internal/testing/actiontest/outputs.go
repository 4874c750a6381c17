package actiontest

import (
	"bufio"
	"os"
	"strings"
)

// readOutputs parses GITHUB_OUTPUT: name=value lines and name<<delimiter
// blocks. A missing file has no outputs.
func readOutputs(path string) map[string]string {
	m := map[string]string{}
	f, err := os.Open(path)
	if err != nil {
		return m
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		name, delim, ok := strings.Cut(line, "<<")
		if !ok {
			if k, v, ok := strings.Cut(line, "="); ok {
				m[k] = v
			}
			continue
		}
		var val []string
		for sc.Scan() && sc.Text() != delim {
			val = append(val, sc.Text())
		}
		m[name] = strings.Join(val, "\n")
	}
	return m
}
