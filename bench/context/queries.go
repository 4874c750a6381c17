package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// writeQueries writes each labelled query to dir, named by its kind and
// position (test-000.txt, issue-001.txt ...).
func writeQueries(dir string, qs []labelled) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for n, q := range qs {
		name := filepath.Join(dir, fmt.Sprintf("%s-%03d.txt", q.kind, n))
		if err := os.WriteFile(name, []byte(q.query), 0o644); err != nil {
			return err
		}
	}
	return nil
}
