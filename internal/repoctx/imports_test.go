package repoctx

import (
	"strings"
	"testing"
)

// TestLightImports: the import statements at the head of a file, with the
// lines they continue on, past its comments, docstring, package clause and
// guards, up to the first line of code; none in a file without them, or
// of a language it does not know.
func TestLightImports(t *testing.T) {
	for _, c := range []struct {
		name, src string
		from, to  int
	}{
		{"a.py", "#!/usr/bin/env python3\n\"\"\"Prices.\n\nRounding rules.\n\"\"\"\nfrom __future__ import annotations\n\nimport os\nfrom decimal import (\n    Decimal,\n    ROUND_HALF_UP,\n)\n\n\ndef total(x):\n    import json\n    return x\n", 6, 12},
		{"b.py", "import os, \\\n    sys\n# done\nVALUE = 1\nimport late\n", 1, 2},
		{"c.py", "def f():\n    import os\n", 0, 0},
		{"d.ts", "// Copyright the authors.\n/*\n * Prices.\n */\n'use strict';\nimport { a,\n  b } from './a';\nimport c from \"c\"\nconst fs = require('fs');\n\nexport function total() {}\n", 6, 9},
		{"e.rs", "//! Prices.\n#![allow(dead_code)]\nuse std::io;\nuse crate::{\n    a,\n    b,\n};\n\npub fn total() {}\n", 3, 7},
		{"f.java", "package shop;\n\nimport java.util.List;\nimport static java.lang.Math.max;\n\npublic class Cart {}\n", 3, 4},
		{"g.kt", "package shop\n\nimport kotlin.math.max\n\nfun total() = 1\n", 3, 3},
		{"h.hpp", "#ifndef CART_H\n#define CART_H\n\n#include <vector>\n#include \"price.h\"\n\nint total();\n#endif\n", 4, 5},
		{"i.rb", "require 'json'\n\ndef total; end\n", 0, 0},
		{"j.js", "export const x = 1;\nimport y from 'y';\n", 0, 0},
	} {
		from, to := lightImports(c.name, strings.Split(c.src, "\n"))
		if from != c.from || to != c.to {
			t.Errorf("lightImports(%s) = %d-%d, want %d-%d", c.name, from, to, c.from, c.to)
		}
	}
}
