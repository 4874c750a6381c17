package repoctx

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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
	all.outlineAll(context.Background(), is, true)
	if len(all.outline) != len(is) || before == len(is) {
		t.Fatalf("outlineAll outlined %d files of %d (%d before)", len(all.outline), len(is), before)
	}
	for _, i := range is {
		if got, want := parsed(all.outline[i]), parsed(one.outlineOf(i)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: outlineAll gave %v, outlineOf %v", all.ix.paths[i], got, want)
		}
	}
	// Without facts: the same definitions at the same lines, and, once
	// factsOf has made them, the same facts.
	light := rank(t, repo, query)
	light.outlineAll(context.Background(), is, false)
	spans := func(o *outline) (out [][4]any) {
		if o != nil {
			for _, s := range o.syms {
				out = append(out, [4]any{s.name, s.recv, s.start, s.end})
			}
		}
		return out
	}
	facts := 0
	for _, i := range is {
		want := one.outlineOf(i)
		if got := light.outline[i]; !reflect.DeepEqual(spans(got), spans(want)) {
			t.Errorf("%s: outlineAll without facts gave %v, outlineOf %v", light.ix.paths[i], spans(got), spans(want))
		}
		if got := light.factsOf(i); !reflect.DeepEqual(parsed(got), parsed(want)) {
			t.Errorf("%s: factsOf gave %v, outlineOf %v", light.ix.paths[i], parsed(got), parsed(want))
		}
		if want != nil {
			for _, s := range want.syms {
				facts += len(s.callees)
			}
		}
	}
	if facts == 0 {
		t.Fatal("no definition of the fixture calls anything: factsOf is not tested")
	}

	cancelled := rank(t, repo, query)
	before = len(cancelled.outline)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cancelled.outlineAll(ctx, is, true)
	if len(cancelled.outline) != before {
		t.Errorf("a cancelled outlineAll outlined %d files", len(cancelled.outline)-before)
	}
}

// TestCalleesLeaveOutTheFunctionsOwnValues: a plain call of a value the
// function holds (a hook it ranges over, a parameter, a closure it
// declares) calls no function of that name; a name also called another
// way, or called before the function declares it (in the value that
// declares it too), is still a callee.
func TestCalleesLeaveOutTheFunctionsOwnValues(t *testing.T) {
	src := `package p

func run(c *client, hooks []func(*client), fn func() error) (done func()) {
	for _, h := range hooks {
		h(c)
	}
	_ = fn()
	var cb func()
	cb()
	check := func(next func()) { next() }
	check(nil)
	done()
	return finish(c)
}

func mixed(c *client) {
	h := c.h
	h()
	c.h()
	send(c)
}

func later() {
	helper()
	helper := func() {}
	helper()
}

func shadow() {
	open := open()
	for _, next := range next() {
		next()
	}
	var load = load()
	open()
	load()
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"run": {"finish"}, "mixed": {"h", "send"}, "later": {"helper"}, "shadow": {"load", "next", "open"}}
	for _, d := range f.Decls {
		fn := d.(*ast.FuncDecl)
		got := callees(fn)
		slices.Sort(got)
		if !slices.Equal(got, want[fn.Name.Name]) {
			t.Errorf("callees(%s) = %v, want %v", fn.Name.Name, got, want[fn.Name.Name])
		}
	}
}

// TestOtherNamesAreTheValuesNeitherTheFunctionNorItsFileDefine: of the
// names a function uses, only those that may be its package's variables
// and constants in other files are left: not its parameters, receiver,
// results or locals (a range's, a closure's, a label), not what its file
// declares, not a call's function, a type, a struct literal's field name,
// an import or anything predeclared.
func TestOtherNamesAreTheValuesNeitherTheFunctionNorItsFileDefine(t *testing.T) {
	src := `package p

import (
	"errors"
	str "strings"
)

var local = 1

func (d *decoder) decode(in string, opts Options) (out []item, err error) {
	var buf []byte
	const limit = 8
	for i, r := range in {
		if r == sep && i < maxDepth {
			out = append(out, item{key: str.TrimSpace(in), depth: i})
		}
	}
	check := func(n int) bool { return n > local }
	if !check(len(buf)) || errors.Is(err, ErrShort) {
		return nil, ErrBadKey
	}
	v, ok := opts.hook.(Hook)
	_ = v
	_ = ok
	m := map[string]int{defaultKey: 1}
	_ = m
	n := new(item)
	_ = n
	_ = Kinds[limit]
loop:
	for {
		break loop
	}
	return out, nil
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	fn := f.Decls[len(f.Decls)-1].(*ast.FuncDecl)
	got := otherNames(fn, map[string]bool{"local": true}, importNames(f))
	// item is new's type argument: the syntax does not tell it from a
	// value, and the packer shows only what is a variable or constant.
	want := []string{"sep", "maxDepth", "ErrShort", "ErrBadKey", "defaultKey", "item", "Kinds"}
	if !slices.Equal(got, want) {
		t.Errorf("otherNames = %v, want %v", got, want)
	}
}

// TestLightOutlineFindsMethodsWithoutAKeyword: a TypeScript class's
// methods and the functions a name holds, a Java or C# method, Kotlin's
// fun and a C or C++ function are definitions, also with parameters on
// lines of their own or the brace on the next line, each ending where its
// brace closes; the statements that look like them (if, catch, a call
// whose arguments span lines, new T() {, C's struct T *p =, a
// declaration) are not.
func TestLightOutlineFindsMethodsWithoutAKeyword(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string // name start-end
	}{
		{"cart.ts", `import { Item } from "./item";

export class Cart {
  private items: Item[] = [];

  constructor(private readonly owner: string) {
    this.items = [];
  }

  total(): number {
    if (this.items.length === 0) {
      return 0;
    }
    return this.items.reduce((a, b) => a + b.price, 0);
  }

  async load<T>(id: string): Promise<T> {
    try {
      return await fetchItem(id);
    } catch (e) {
      throw new Error("load");
    }
  }

  get size() {
    return this.items.length;
  }
}

const handler = async (req: Request) => {
  return new Response("ok");
};

export const add = (a: number, b: number): number => {
  return a + b;
};

function helper(x) {
  while (x > 0) {
    x--;
  }
  return x;
}

describe("cart", function () {
  it("adds", function () {
    expect(add(1, 2)).toBe(3);
  });
});
$(document).ready(function() {
  init();
});
`, []string{"Cart 3-28", "constructor 6-8", "total 10-15", "load 17-23", "size 25-27", "handler 30-32", "add 34-36", "helper 38-43"}},
		{"Cart.java", `package shop;

public class Cart {
    private final List<Item> items = new ArrayList<>();

    public int total() {
        int sum = 0;
        for (Item i : items) {
            sum += i.price();
        }
        return sum;
    }

    private static Map<String, List<Item>> byOwner(List<Item> all) throws IOException {
        Runnable r = new Runnable() {
            public void run() {
                log("x");
            }
        };
        return null;
    }
}
`, []string{"Cart 3-22", "total 6-12", "byOwner 14-21", "run 16-18"}},
		{"Cart.kt", `class Cart {
    fun total(): Int {
        return 0
    }

    private suspend fun <T> load(id: String): T {
        TODO()
    }
}
`, []string{"Cart 1-9", "total 2-4", "load 6-8"}},
		// Parameters on lines of their own; calls whose arguments span
		// lines are no definitions.
		{"cart.ts", `export class Cart {
  async load(
    id: string,
    opts: Options,
  ): Promise<Item> {
    const item = await this.fetch(
      id,
      opts,
    );
    return this.items.reduce(
      (a, b) => a + b.price,
      0,
    );
  }
}
`, []string{"Cart 1-15", "load 2-14"}},
		{"Cart.cs", `public class Cart
{
    public decimal Total(
        decimal tax,
        bool round)
    {
        var sum = Sum(
            tax,
            round);
        return sum;
    }
}
`, []string{"Cart 1-12", "Total 3-11"}},
		{"cart.c", `#include "cart.h"

static int sum_items(const struct item *items, size_t n);

struct cart *cart_new(size_t cap) {
    struct cart *c = malloc(sizeof *c);
    if (c == NULL) {
        return NULL;
    }
    return c;
}

static int
sum_items(const struct item *items,
          size_t n)
{
    int total = 0;
    for (size_t i = 0; i < n; i++) {
        total += items[i].price;
    }
    return total;
}

int main(int argc, char **argv) {
    printf("%d\n", sum_items(NULL, 0));
    return 0;
}
`, []string{"cart_new 5-11", "sum_items 13-22", "main 24-27"}},
		{"cart.cpp", `namespace shop {

int Cart::total() const {
    int sum = 0;
    for (const auto &i : items_) {
        sum += i.price();
    }
    return sum;
}

Cart::Cart(int cap)
    : items_(cap),
      owner_("") {
}

Cart::~Cart() {
}

std::vector<Item> Cart::byOwner(const std::string &owner,
                                bool all) {
    std::vector<Item> out;
    if (all) {
        out = items_;
    } else if (owner.empty()) {
        throw std::runtime_error("owner");
    }
    return out;
}

}
`, []string{"total 3-9", "Cart 11-14", "~Cart 16-17", "byOwner 19-28"}},
	} {
		o := outlineFile(c.name, []byte(c.src))
		var got []string
		for _, s := range o.syms {
			got = append(got, fmt.Sprintf("%s %d-%d", s.name, s.start, s.end))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: definitions\n%q\nwant\n%q", c.name, got, c.want)
		}
	}
}
