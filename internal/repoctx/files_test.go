package repoctx

import "testing"

func TestSkipByName(t *testing.T) {
	for p, want := range map[string]bool{
		"main.go":                          false,
		"vendor/x/y.go":                    true,
		"a/vendor/b.go":                    true,
		"a/b/node_modules/c/d.js":          true,
		"vendor.go":                        false,
		"a/vendored/b.go":                  false,
		"a/vendor":                         false, // a file named vendor
		"go.sum":                           true,
		"a/b/go.sum":                       true,
		"web/app.min.js":                   true,
		"img/logo.PNG":                     true,
		"internal/repoctx/files.go":        false,
		"Godeps/_workspace/src/x/y.go":     true,
		"bower_components/jquery/index.js": true,
	} {
		if got := skipByName(p); got != want {
			t.Errorf("skipByName(%q) = %v, want %v", p, got, want)
		}
	}
}
