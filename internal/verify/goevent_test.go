package verify

import (
	"encoding/json"
	"testing"
)

// FuzzDecodeEvent checks the hand-written decoder against encoding/json:
// whatever it accepts, encoding/json accepts too, with the same fields.
func FuzzDecodeEvent(f *testing.F) {
	for _, s := range []string{
		`{"Time":"2026-11-21T15:03:50.29Z","Action":"output","Package":"example.com/m/p","Test":"TestA","Output":"    a_test.go:3: got \"x\" \u00e9 \ud83d\ude00\n"}`,
		`{"ImportPath":"example.com/m/q [example.com/m/q.test]","Action":"build-fail"}`,
		`{"Action":"fail","Package":"p","Elapsed":0.008,"FailedBuild":"p [p.test]"}`,
		`{"Action":"pass","Elapsed":1e-3,"Test":"T","X":null,"Y":true}`,
		`{}`, `{"Action":1}`, `{"Output":"\ud800"}`, `{"A":[1]}`, `{"Action":"run",}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var fast rawEvent
		if !decodeEvent(line, &fast) {
			return
		}
		var slow goEvent
		if err := json.Unmarshal(line, &slow); err != nil {
			t.Fatalf("decodeEvent accepted %q, encoding/json did not: %v", line, err)
		}
		got := goEvent{string(fast.Action), string(fast.Package), string(fast.Test), string(fast.Output), string(fast.ImportPath), string(fast.FailedBuild)}
		if got != slow {
			t.Fatalf("decodeEvent(%q) = %+v, encoding/json %+v", line, got, slow)
		}
	})
}
