package repoctx

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
)

// naiveCounts tokenizes text the slow, obvious way (identifier runs split
// by splitIdent) and counts the sub-words and whole identifiers that are
// terms: what the matcher must find without tokenizing.
func naiveCounts(text []byte, terms []mterm) map[int]int {
	index := map[string][]int{}
	for i, t := range terms {
		index[string(t.text)] = append(index[string(t.text)], i)
	}
	out := map[int]int{}
	for i := 0; i < len(text); {
		if !identByte[text[i]] {
			i++
			continue
		}
		j := i
		for j < len(text) && identByte[text[j]] {
			j++
		}
		id := text[i:j]
		splitIdent(id, func(sub []byte) {
			for _, t := range index[lowerASCII(string(sub))] {
				if !terms[t].full {
					out[t]++
				}
			}
		})
		if c := class[id[0]]; c == clLower || c == clUpper {
			for _, t := range index[lowerASCII(string(id))] {
				if terms[t].full {
					out[t]++
				}
			}
		}
		i = j
	}
	return out
}

func matcherCounts(text []byte, terms []mterm) map[int]int {
	out := map[int]int{}
	newMatcher(terms, nil).each(text, func(pos, t int) { out[t]++ })
	return out
}

func TestMatcherAgreesWithTokenizing(t *testing.T) {
	edge := []byte("ParseDate parse_date parseDate PARSE_DATE HTTPServer ServeHTTP https http2 utf8Reader " +
		"Int64Value 0xDeadBeef _parse __init__ date_ x.Date()\nDATE dates update éParse parseé Parse\n" +
		"myHTTPServerFoo ioReader io.Reader IO")
	sources := append([][]byte{edge}, ownSources(t)...)
	terms := []mterm{
		{text: []byte("parse")}, {text: []byte("date")}, {text: []byte("http")}, {text: []byte("server")},
		{text: []byte("serve")}, {text: []byte("https")}, {text: []byte("http2")}, {text: []byte("utf8")},
		{text: []byte("reader")}, {text: []byte("int64")}, {text: []byte("value")}, {text: []byte("dead")},
		{text: []byte("init")}, {text: []byte("io")}, {text: []byte("err")}, {text: []byte("float")},
		{text: []byte("parsedate"), full: true}, {text: []byte("parse_date"), full: true},
		{text: []byte("servehttp"), full: true}, {text: []byte("atof64"), full: true},
		{text: []byte("handlerfunc"), full: true}, {text: []byte("readfrom"), full: true},
	}
	for k, src := range sources {
		want, got := naiveCounts(src, terms), matcherCounts(src, terms)
		for i, term := range terms {
			if got[i] != want[i] {
				t.Errorf("source %d, term %q (full %v): matcher counts %d, tokenizing counts %d", k, term.text, term.full, got[i], want[i])
			}
		}
	}
	// The edge cases above must actually occur, or the test proves little.
	got := matcherCounts(edge, terms)
	for i, want := range map[int]int{0: 7, 1: 7, 2: 3, 3: 2, 16: 2, 17: 2, 18: 1, 13: 3} {
		if got[i] != want {
			t.Errorf("edge text: term %q counted %d times, want %d", terms[i].text, got[i], want)
		}
	}
}

func FuzzMatcher(f *testing.F) {
	f.Add("ParseDate parse_date HTTPServer", "parse")
	f.Add("xIOReader io_reader", "io")
	f.Fuzz(func(t *testing.T, text, term string) {
		term = strings.ToLower(term)
		if len(term) < 2 || class[term[0]] != clLower || term[0] >= 0x80 {
			return
		}
		for i := 0; i < len(term); i++ {
			if c := class[term[i]]; c == clOther || c == clUnder || c == clUpper || term[i] >= 0x80 {
				return // sub-word terms are lower-case letters and digits
			}
		}
		terms := []mterm{{text: []byte(term)}}
		want, got := naiveCounts([]byte(text), terms), matcherCounts([]byte(text), terms)
		if got[0] != want[0] {
			t.Fatalf("text %q term %q: matcher %d, tokenizing %d", text, term, got[0], want[0])
		}
	})
}

func TestSplitIdent(t *testing.T) {
	for in, want := range map[string]string{
		"ParseDate":      "Parse Date",
		"parse_date":     "parse date",
		"HTTPServer":     "HTTP Server",
		"ServeHTTP":      "Serve HTTP",
		"utf8Reader":     "utf8 Reader",
		"Int64Value":     "Int64 Value",
		"__init__":       "init",
		"myHTTPServer2x": "my HTTP Server2x",
	} {
		var got []string
		splitIdent([]byte(in), func(sub []byte) { got = append(got, string(sub)) })
		if strings.Join(got, " ") != want {
			t.Errorf("splitIdent(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDefName(t *testing.T) {
	for line, want := range map[string]string{
		"func ParseDate(s string) (Date, error) {":    "ParseDate",
		"func (d *Date) Format(layout string) string": "Format",
		"func (m Map[K, V]) Get(k K) V {":             "Get",
		"type Date struct {":                          "Date",
		"def parse_date(s):":                          "parse_date",
		"async def fetch(url):":                       "fetch",
		"class DateParser(Base):":                     "DateParser",
		"export default function render() {":          "render",
		"export class Store {":                        "Store",
		"pub fn parse(input: &str) -> Date {":         "parse",
		"pub(crate) fn helper() {":                    "helper",
		"function legacy(a, b) {":                     "legacy",
		"interface Shape {":                           "Shape",
		"export const routes = [":                     "routes",
		"const local = 1":                             "",
		"fmt.Println(x)":                              "",
		"type":                                        "",
		"function":                                    "",
		"func (broken":                                "",
		"define x":                                    "",
		"typed value":                                 "",
		"func 9lives()":                               "",
	} {
		got := string(defName([]byte(line)))
		if got != want {
			t.Errorf("defName(%q) = %q, want %q", line, got, want)
		}
	}
}

func TestIdentTermsMatchesMatcherRules(t *testing.T) {
	subs, full := identTerms("HTTPServerX")
	sort.Strings(subs)
	if strings.Join(subs, ",") != "http,server" || full != "httpserverx" {
		t.Errorf("identTerms(HTTPServerX) = %v, %q", subs, full)
	}
	if _, full := identTerms("parse"); full != "" {
		t.Errorf("a one-word identifier has no whole-identifier term, got %q", full)
	}
}

// eachPairwise is the matcher's first loop, kept as the reference: every
// pair of bytes, case folded, looked up in a bitset of the terms' first two
// bytes as written, then at.
func eachPairwise(m *matcher, data []byte, f func(pos, term int)) {
	var first [65536 / 64]uint64
	for _, t := range m.terms {
		if len(t.text) >= 2 {
			le := uint16(t.text[0]) | uint16(t.text[1])<<8
			first[le>>6] |= 1 << (le & 63)
		}
	}
	for i := 0; i+1 < len(data); i++ {
		p := foldedPair(data[i], data[i+1])
		if first[p>>6]&(1<<(p&63)) != 0 {
			m.at(data, i, f)
		}
	}
}

// TestMatcherAgreesWithPairwise holds the word-at-a-time pass to the plain
// one on random text made of the bytes the classes tell apart, at every
// length and alignment.
func TestMatcherAgreesWithPairwise(t *testing.T) {
	alphabet := []byte("aAbBzZ_09 .\n\xc3\xa9\x80\xffeEtTsS")
	terms := []mterm{
		{text: []byte("ab")}, {text: []byte("ba"), full: true}, {text: []byte("zab")}, {text: []byte("test")},
		{text: []byte("es")}, {text: []byte("set"), full: true}, {text: []byte("a9")}, {text: []byte("\xc3\xa9a")},
		{text: []byte("\xe3\xa9")}, {text: []byte("aa")}, {text: []byte("ee"), full: true},
	}
	m := newMatcher(terms, nil)
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 3000; round++ {
		data := make([]byte, rng.IntN(80))
		for k := range data {
			data[k] = alphabet[rng.IntN(len(alphabet))]
		}
		var want, got []int
		eachPairwise(m, data, func(pos, t int) { want = append(want, pos, t) })
		m.each(data, func(pos, t int) { got = append(got, pos, t) })
		if !slices.Equal(got, want) {
			t.Fatalf("%q: matches (pos, term) %v, want %v", data, got, want)
		}
	}
}
