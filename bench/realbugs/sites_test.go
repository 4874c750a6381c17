package main

import "testing"

func TestIncidental(t *testing.T) {
	for _, c := range []struct {
		hunk string
		want bool
	}{
		{" func Version() string\n-\treturn \"5.4.0\"\n+\treturn \"5.4.1\"\n", true},
		{"\n-const Version = \"1.2.3\"\n+const Version = \"1.2.4\"\n", true},
		{" func (p *Parser) Parse() {\n-\t// old comment\n+\t// new comment\n\n", true},
		// A version-like string returned outside a version function is code.
		{" func defaultTag() string\n-\treturn \"1.0\"\n+\treturn \"2.0\"\n", false},
		{" func Version() string\n-\treturn v.String()\n+\treturn v.Original()\n", false},
		{" func Parse(s string) error {\n-\tif s == \"\" {\n+\tif len(s) == 0 {\n", false},
	} {
		if got := incidental(c.hunk); got != c.want {
			t.Errorf("incidental(%q) = %v, want %v", c.hunk, got, c.want)
		}
	}
}
