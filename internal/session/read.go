package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// Read parses a session record. A last line cut short (the run crashed
// while writing it) is dropped; a bad line anywhere else is an error naming
// its line number.
func Read(r io.Reader) ([]Event, error) {
	var (
		events []Event
		sc     = bufio.NewScanner(r)
		bad    error
	)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<30)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if bad != nil {
			return nil, bad
		}
		var e Event
		if err := json.Unmarshal(line, &e); err != nil {
			bad = fmt.Errorf("line %d: not a session event: %v", n, err)
			continue
		}
		events = append(events, e)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return events, nil
}

// ReadFile reads the session record at path.
func ReadFile(path string) ([]Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	events, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return events, nil
}

// Decode unmarshals e's payload into v.
func (e Event) Decode(v any) error {
	if err := json.Unmarshal(e.Data, v); err != nil {
		return fmt.Errorf("session event %d (%s): %w", e.Seq, e.Kind, err)
	}
	return nil
}
