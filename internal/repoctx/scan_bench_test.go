package repoctx

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkScan measures the lexical pass of Rank (read, skip, count the
// query's terms per window, record definitions) over this package's own
// files, read from disk as Build reads a repository, with a typical
// failing-test query. bench/context measures the whole Build on 20k files.
func BenchmarkScan(b *testing.B) {
	var paths []string
	var size int64
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		paths = append(paths, filepath.ToSlash(p))
		size += info.Size()
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	ix := &Index{root: ".", paths: paths}
	m := parseQuery("--- FAIL: TestServeMux (0.00s)\n    server_test.go:42: ServeMux.Handle(\"/x\") = nil, want handler\nFAIL\tnet/http\t0.01s\n").matcher()
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ix.scanAll(context.Background(), m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLookSeveralNames measures a look request for several names of
// one file, five of which other files define: each is looked for in every
// file of this package (read from disk, as a look reads a repository).
func BenchmarkLookSeveralNames(b *testing.B) {
	var paths []string
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			paths = append(paths, filepath.ToSlash(p))
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	ix := &Index{root: ".", paths: paths}
	req := []string{"look.go:Look, Rank, newMatcher, scanAll, outlineFile, parseQuery"}
	if l := ix.Look(req, map[string][]Chunk{}, 1<<20); len(l.Items) != 6 {
		b.Fatalf("%d items, want the request's and 5 more: %+v", len(l.Items), l.Items)
	}
	b.ReportAllocs()
	for b.Loop() {
		ix.Look(req, map[string][]Chunk{}, 1<<20)
	}
}
