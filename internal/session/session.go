// Package session is the record of one agentfix run: JSON Lines, one event
// per line, written append-only and flushed per event so that a crash keeps
// everything up to it. The loop writes it; replay reads it back.
package session

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// Event is one line of a session record.
type Event struct {
	// Seq numbers events from 1 in the order they were written.
	Seq int `json:"seq"`
	// Time is when the event was written (UTC).
	Time time.Time `json:"time"`
	// Kind says what Data holds (start, transition, chat, patch, verify, result, ...).
	Kind string `json:"kind"`
	// Data is the event's payload, a JSON object chosen by the writer.
	Data json.RawMessage `json:"data,omitempty"`
}

// Recorder appends events to a writer. It is safe for concurrent use.
type Recorder struct {
	mu  sync.Mutex
	w   io.Writer
	seq int
	err error
	now func() time.Time
}

// flusher is a buffered writer.
type flusher interface{ Flush() error }

// NewRecorder returns a recorder that writes to w; a nil w records nothing.
func NewRecorder(w io.Writer) *Recorder {
	return &Recorder{w: w, now: time.Now}
}

// Record writes one event with data marshalled as JSON, as a single write
// followed by a flush. The first error sticks: later calls return it and
// write nothing, so a record never has a hole in the middle.
func (r *Recorder) Record(kind string, data any) error {
	if r == nil || r.w == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return r.err
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("session: encode %s event: %w", kind, err)
	}
	r.seq++
	line, err := json.Marshal(Event{Seq: r.seq, Time: r.now().UTC(), Kind: kind, Data: raw})
	if err != nil {
		return fmt.Errorf("session: encode %s event: %w", kind, err)
	}
	if _, err := r.w.Write(append(line, '\n')); err != nil {
		r.err = fmt.Errorf("session: write: %w", err)
		return r.err
	}
	// A write to a file reaches the kernel at once, so a crash of agentfix
	// loses nothing; fsync per event would guard against power loss at a
	// cost the loop cannot afford. Buffered writers are flushed.
	if f, ok := r.w.(flusher); ok {
		err = f.Flush()
	}
	if err != nil {
		r.err = fmt.Errorf("session: flush: %w", err)
	}
	return r.err
}

// Err returns the first error the recorder met, if any.
func (r *Recorder) Err() error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}
