package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Case is one real bug fix: a module's patch release whose test change
// fails on the release before it.
type Case struct {
	// ID names the case: the module's last path element and the fixed
	// release (toml@v1.4.1).
	ID     string `json:"id"`
	Module string `json:"module"`
	// Before is the release with the bug, After the one with the fix.
	Before string `json:"before"`
	After  string `json:"after"`
	// Package is the directory (in the module) of the failing tests, and
	// Tests their names: changed or added by the release, failing on
	// Before (with the release's test changes), passing on After.
	Package string   `json:"package"`
	Tests   []string `json:"tests"`
	// Issue is a bug report as a user would write it, from what the
	// release's test change shows (see README.md: how issue texts were
	// written); "" when none was written.
	Issue string `json:"issue,omitempty"`
	// Failing is the output of go test for Tests on Before, head and
	// tail kept (failingLimit).
	Failing string `json:"failing"`
}

// readCases reads the JSON arrays of cases of a comma-separated list of
// files, in order, as one list: the sets measured together. A case in
// two of them is an error, for it would count twice.
func readCases(list string) ([]Case, error) {
	var all []Case
	from := map[string]string{}
	for _, path := range strings.Split(list, ",") {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		var cs []Case
		if err := json.Unmarshal(b, &cs); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		for _, c := range cs {
			if f, ok := from[c.ID]; ok {
				return nil, fmt.Errorf("case %s is in %s and in %s: give each set once", c.ID, f, path)
			}
			from[c.ID] = path
		}
		all = append(all, cs...)
	}
	return all, nil
}
