package patch

// opKind is one line of an edit script.
type opKind byte

const (
	opEqual  opKind = ' '
	opDelete opKind = '-'
	opInsert opKind = '+'
)

// diffOp is one step of an edit script from a to b: for opEqual and
// opDelete, a[ai] is the line; for opInsert, b[bi].
type diffOp struct {
	kind   opKind
	ai, bi int
}

// lineDiff returns a shortest edit script turning a into b (Myers, "An
// O(ND) Difference Algorithm"), after stripping the common prefix and
// suffix, which is all most patches differ by.
func lineDiff(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []diffOp
	for i := 0; i < pre; i++ {
		ops = append(ops, diffOp{opEqual, i, i})
	}
	for _, o := range myers(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		o.ai += pre
		o.bi += pre
		ops = append(ops, o)
	}
	for i := 0; i < suf; i++ {
		ops = append(ops, diffOp{opEqual, len(a) - suf + i, len(b) - suf + i})
	}
	return ops
}

// maxEdits bounds the edit distance myers searches for: its trace grows
// with its square. Beyond it the region is replaced wholesale, which is a
// correct diff, only not the shortest.
const maxEdits = 2000

// myers is the greedy forward algorithm with the trace kept for backtracking.
func myers(a, b []string) []diffOp {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return replaceAll(a, b)
	}
	max := min(n+m, maxEdits)
	off := max + 1
	v := make([]int, 2*max+3)
	var trace [][]int
	for d := 0; d <= max; d++ {
		// Only diagonals -d-1..d+1 are read when backtracking from round d.
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, a, b, d)
			}
		}
	}
	return replaceAll(a, b)
}

// replaceAll deletes all of a and inserts all of b.
func replaceAll(a, b []string) []diffOp {
	var ops []diffOp
	for i := range a {
		ops = append(ops, diffOp{opDelete, i, 0})
	}
	for j := range b {
		ops = append(ops, diffOp{opInsert, len(a), j})
	}
	return ops
}

func backtrack(trace [][]int, a, b []string, dEnd int) []diffOp {
	var rev []diffOp
	x, y := len(a), len(b)
	for d := dEnd; d > 0; d-- {
		v, off := trace[d], d+1
		k := x - y
		var pk int
		if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := v[off+pk]
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, diffOp{opEqual, x, y})
		}
		if x == px {
			y--
			rev = append(rev, diffOp{opInsert, x, y})
		} else {
			x--
			rev = append(rev, diffOp{opDelete, x, y})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, diffOp{opEqual, x, y})
	}
	ops := make([]diffOp, len(rev))
	for i, o := range rev {
		ops[len(rev)-1-i] = o
	}
	return ops
}
