package repoctx

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// parsed is what outlineFile finds in a file, without the fields the
// packer fills later.
func parsed(o *outline) any {
	if o == nil {
		return nil
	}
	return []any{o.pkg, o.lines, o.syms, o.importsFrom, o.importsTo}
}

// TestOutlineAllOutlinesAsOutlineOfDoes: the packer's parallel parse
// leaves every file outlined as the one-by-one parse would, a file that
// can no longer be read included, and a cancelled one outlines nothing.
func TestOutlineAllOutlinesAsOutlineOfDoes(t *testing.T) {
	repo := newRepo(t, fixtureFiles())
	if err := os.Remove(filepath.Join(repo, "big/big.go")); err != nil {
		t.Fatal(err)
	}
	query := "big: Normalize returns the key unchanged when it is lower case; ParseDate"
	one := rank(t, repo, query)
	all := rank(t, repo, query)
	var is []int
	for i := range all.ix.paths {
		is = append(is, i)
	}
	before := len(all.outline)
	all.outlineAll(context.Background(), is)
	if len(all.outline) != len(is) || before == len(is) {
		t.Fatalf("outlineAll outlined %d files of %d (%d before)", len(all.outline), len(is), before)
	}
	for _, i := range is {
		if got, want := parsed(all.outline[i]), parsed(one.outlineOf(i)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: outlineAll gave %v, outlineOf %v", all.ix.paths[i], got, want)
		}
	}

	cancelled := rank(t, repo, query)
	before = len(cancelled.outline)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cancelled.outlineAll(ctx, is)
	if len(cancelled.outline) != before {
		t.Errorf("a cancelled outlineAll outlined %d files", len(cancelled.outline)-before)
	}
}
