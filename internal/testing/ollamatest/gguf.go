package ollamatest

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// The GGUF container, version 3, as llama.cpp documents it in
// ggml/docs/gguf.md: a header, typed key/value metadata, tensor descriptors,
// then the tensor data, each tensor aligned to general.alignment (32 bytes
// by default). Everything is little-endian.

// GGUF metadata value types (gguf.md, "gguf_metadata_value_type").
const (
	ggufUint32  uint32 = 4
	ggufInt32   uint32 = 5
	ggufFloat32 uint32 = 6
	ggufBool    uint32 = 7
	ggufString  uint32 = 8
	ggufArray   uint32 = 9
)

// ggmlTypeF32 is the tensor type of plain float32 data (ggml_type GGML_TYPE_F32).
const ggmlTypeF32 uint32 = 0

const ggufAlignment = 32

// kv is one metadata entry. Value is a uint32, int32, float32, bool, string,
// []int32 or []string.
type kv struct {
	Key   string
	Value any
}

// tensor is one F32 tensor. Shape lists ggml's ne[0], ne[1]...: the first
// dimension is the innermost (a row), so a [64, 300] matrix is 300 rows of 64.
type tensor struct {
	Name  string
	Shape []uint64
	Data  []float32
}

// writeGGUF writes a GGUF v3 file holding kvs and tensors, in that order.
func writeGGUF(w io.Writer, kvs []kv, tensors []tensor) error {
	bw := bufio.NewWriter(w)
	g := ggufWriter{w: bw}
	g.raw([]byte("GGUF"))
	g.u32(3)
	g.u64(uint64(len(tensors)))
	g.u64(uint64(len(kvs)))
	for _, e := range kvs {
		g.str(e.Key)
		g.value(e.Value)
	}

	var offset uint64
	for _, t := range tensors {
		n := uint64(1)
		for _, d := range t.Shape {
			n *= d
		}
		if n != uint64(len(t.Data)) {
			return fmt.Errorf("gguf: tensor %s: shape %v holds %d values, data has %d", t.Name, t.Shape, n, len(t.Data))
		}
		g.str(t.Name)
		g.u32(uint32(len(t.Shape)))
		for _, d := range t.Shape {
			g.u64(d)
		}
		g.u32(ggmlTypeF32)
		g.u64(offset)
		offset = align(offset + 4*n)
	}

	g.pad()
	for _, t := range tensors {
		for _, f := range t.Data {
			g.u32(math.Float32bits(f))
		}
		g.pad()
	}
	if g.err != nil {
		return fmt.Errorf("gguf: %w", g.err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("gguf: %w", err)
	}
	return nil
}

func align(n uint64) uint64 {
	return (n + ggufAlignment - 1) / ggufAlignment * ggufAlignment
}

// ggufWriter keeps the first write error and the byte count, so the writing
// code above reads as the format does.
type ggufWriter struct {
	w       io.Writer
	n       uint64
	err     error
	scratch [8]byte
}

func (g *ggufWriter) raw(b []byte) {
	if g.err != nil {
		return
	}
	n, err := g.w.Write(b)
	g.n += uint64(n)
	g.err = err
}

func (g *ggufWriter) u32(v uint32) {
	binary.LittleEndian.PutUint32(g.scratch[:], v)
	g.raw(g.scratch[:4])
}

func (g *ggufWriter) u64(v uint64) {
	binary.LittleEndian.PutUint64(g.scratch[:], v)
	g.raw(g.scratch[:8])
}

func (g *ggufWriter) str(s string) {
	g.u64(uint64(len(s)))
	g.raw([]byte(s))
}

func (g *ggufWriter) pad() {
	g.raw(make([]byte, align(g.n)-g.n))
}

func (g *ggufWriter) value(v any) {
	switch v := v.(type) {
	case uint32:
		g.u32(ggufUint32)
		g.u32(v)
	case int32:
		g.u32(ggufInt32)
		g.u32(uint32(v))
	case float32:
		g.u32(ggufFloat32)
		g.u32(math.Float32bits(v))
	case bool:
		g.u32(ggufBool)
		b := byte(0)
		if v {
			b = 1
		}
		g.raw([]byte{b})
	case string:
		g.u32(ggufString)
		g.str(v)
	case []int32:
		g.u32(ggufArray)
		g.u32(ggufInt32)
		g.u64(uint64(len(v)))
		for _, e := range v {
			g.u32(uint32(e))
		}
	case []string:
		g.u32(ggufArray)
		g.u32(ggufString)
		g.u64(uint64(len(v)))
		for _, e := range v {
			g.str(e)
		}
	default:
		if g.err == nil {
			g.err = fmt.Errorf("unsupported metadata value %T", v)
		}
	}
}
