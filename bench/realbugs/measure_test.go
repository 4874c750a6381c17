package main

import "testing"

func TestShownName(t *testing.T) {
	prompt := "1005\tfunc (enc *Encoder) encodeSlice(b []byte) []byte {\n1013\t\treturn enc.encodeSliceAsArrayTable(b)\nTestParseDate fails\n"
	for _, c := range []struct {
		sym, want string
		ok        bool
	}{
		{"Encoder.encodeSlice", "encodeSlice", true},                         // a method as code shows it
		{"Encoder.encodeSliceAsArrayTable", "encodeSliceAsArrayTable", true}, // called on a value
		{"encodeSlice", "encodeSlice", true},
		{"Encoder.encodeSliceAsArray", "", false}, // only a longer name holds it
		{"ParseDate", "", false},                  // inside TestParseDate
		{"Encoder", "Encoder", true},
	} {
		got, ok := shownName(prompt, c.sym)
		if got != c.want || ok != c.ok {
			t.Errorf("shownName(%q) = %q, %v; want %q, %v", c.sym, got, ok, c.want, c.ok)
		}
	}
}
