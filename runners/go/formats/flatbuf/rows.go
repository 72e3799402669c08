package flatbuf

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"shootout/codec"
	"shootout/workload"
)

// The tabular rows: 20 optional cells, a string absent or an optional scalar
// (`= null`) written only when present. Built and read through the table
// API by slot, so one function serves all three row types and reading
// allocates nothing (the generated accessors return optional scalars through
// a pointer).

type cellKind uint8

const (
	cellString cellKind = iota
	cellF64
	cellI64
	cellI32
	cellF32
)

// cell is one present cell's value, whatever its kind.
type cell struct {
	present bool
	s       string
	i       int64
	f       float64
}

func rowFields(kinds []cellKind) []field {
	fields := make([]field, len(kinds))
	for i, k := range kinds {
		switch k {
		case cellString:
			fields[i] = field{kind: str}
		case cellF64, cellI64:
			fields[i] = field{kind: inline, size: 8}
		default:
			fields[i] = field{kind: inline, size: 4}
		}
	}
	return fields
}

type rowCodec[R any] struct {
	b       *flatbuffers.Builder
	kinds   []cellKind
	fields  []field
	cells   func(*R, []cell)
	scratch []cell
	offsets []flatbuffers.UOffsetT
}

func newRow[R any](kinds []cellKind, cells func(*R, []cell)) codec.Codec[R, *workload.FieldSink] {
	return &rowCodec[R]{b: flatbuffers.NewBuilder(1024), kinds: kinds, fields: rowFields(kinds), cells: cells,
		scratch: make([]cell, len(kinds)), offsets: make([]flatbuffers.UOffsetT, len(kinds))}
}

func (c *rowCodec[R]) Encode(stream []byte, r *R) ([]byte, error) {
	b := c.b
	b.Reset()
	c.cells(r, c.scratch)
	for i, v := range c.scratch {
		if v.present && c.kinds[i] == cellString {
			c.offsets[i] = b.CreateString(v.s)
		}
	}
	b.StartObject(len(c.kinds))
	for i, v := range c.scratch {
		if !v.present {
			continue
		}
		// Prepend then Slot, as the generated Add of an optional scalar
		// does: the value is written even when it equals the default.
		switch c.kinds[i] {
		case cellString:
			b.PrependUOffsetTSlot(i, c.offsets[i], 0)
			continue
		case cellF64:
			b.PrependFloat64(v.f)
		case cellI64:
			b.PrependInt64(v.i)
		case cellI32:
			b.PrependInt32(int32(v.i))
		case cellF32:
			b.PrependFloat32(float32(v.f))
		}
		b.Slot(i)
	}
	b.FinishSizePrefixed(b.EndObject())
	return append(stream, b.FinishedBytes()...), nil
}

func (c *rowCodec[R]) Decode(stream []byte, s *workload.FieldSink) (int, error) {
	buf, pos, used, err := root(stream)
	if err != nil {
		return 0, err
	}
	if err := verifyTable(buf, pos, c.fields); err != nil {
		return 0, err
	}
	t := flatbuffers.Table{Bytes: buf, Pos: flatbuffers.UOffsetT(pos)}
	s.Record()
	for i, k := range c.kinds {
		o := flatbuffers.UOffsetT(t.Offset(slot(i)))
		if o == 0 {
			continue
		}
		switch k {
		case cellString:
			s.Text(i, t.ByteVector(o+t.Pos))
		case cellF64:
			s.Float(i, t.GetFloat64(o+t.Pos))
		case cellI64:
			s.Int(i, t.GetInt64(o+t.Pos))
		case cellI32:
			s.Int(i, int64(t.GetInt32(o+t.Pos)))
		case cellF32:
			s.Float(i, float64(t.GetFloat32(o+t.Pos)))
		}
	}
	return used, nil
}

func Mixed() codec.Codec[workload.MixedRow, *workload.FieldSink] {
	return newRow([]cellKind{cellString, cellF64, cellI64, cellI32, cellString, cellF64, cellI64, cellI32, cellI32, cellI64, cellF32, cellF64, cellString, cellString, cellI64, cellI32, cellI32, cellString, cellString, cellString}, func(r *workload.MixedRow, c []cell) {
		if r.F1 != nil {
			c[0] = cell{present: true, s: *r.F1}
		} else {
			c[0] = cell{}
		}
		if r.F2 != nil {
			c[1] = cell{present: true, f: *r.F2}
		} else {
			c[1] = cell{}
		}
		if r.F3 != nil {
			c[2] = cell{present: true, i: *r.F3}
		} else {
			c[2] = cell{}
		}
		if r.F4 != nil {
			c[3] = cell{present: true, i: int64(*r.F4)}
		} else {
			c[3] = cell{}
		}
		if r.F5 != nil {
			c[4] = cell{present: true, s: *r.F5}
		} else {
			c[4] = cell{}
		}
		if r.F6 != nil {
			c[5] = cell{present: true, f: *r.F6}
		} else {
			c[5] = cell{}
		}
		if r.F7 != nil {
			c[6] = cell{present: true, i: *r.F7}
		} else {
			c[6] = cell{}
		}
		if r.F8 != nil {
			c[7] = cell{present: true, i: int64(*r.F8)}
		} else {
			c[7] = cell{}
		}
		if r.F9 != nil {
			c[8] = cell{present: true, i: int64(*r.F9)}
		} else {
			c[8] = cell{}
		}
		if r.F10 != nil {
			c[9] = cell{present: true, i: *r.F10}
		} else {
			c[9] = cell{}
		}
		if r.F11 != nil {
			c[10] = cell{present: true, f: float64(*r.F11)}
		} else {
			c[10] = cell{}
		}
		if r.F12 != nil {
			c[11] = cell{present: true, f: *r.F12}
		} else {
			c[11] = cell{}
		}
		if r.F13 != nil {
			c[12] = cell{present: true, s: *r.F13}
		} else {
			c[12] = cell{}
		}
		if r.F14 != nil {
			c[13] = cell{present: true, s: *r.F14}
		} else {
			c[13] = cell{}
		}
		if r.F15 != nil {
			c[14] = cell{present: true, i: *r.F15}
		} else {
			c[14] = cell{}
		}
		if r.F16 != nil {
			c[15] = cell{present: true, i: int64(*r.F16)}
		} else {
			c[15] = cell{}
		}
		if r.F17 != nil {
			c[16] = cell{present: true, i: int64(*r.F17)}
		} else {
			c[16] = cell{}
		}
		if r.F18 != nil {
			c[17] = cell{present: true, s: *r.F18}
		} else {
			c[17] = cell{}
		}
		if r.F19 != nil {
			c[18] = cell{present: true, s: *r.F19}
		} else {
			c[18] = cell{}
		}
		if r.F20 != nil {
			c[19] = cell{present: true, s: *r.F20}
		} else {
			c[19] = cell{}
		}
	})
}

func Strings() codec.Codec[workload.StringsRow, *workload.FieldSink] {
	return newRow([]cellKind{cellString, cellString, cellString, cellString, cellString, cellString, cellString, cellString, cellString, cellString, cellString, cellString, cellString, cellString, cellString, cellString, cellString, cellString, cellString, cellString}, func(r *workload.StringsRow, c []cell) {
		if r.F1 != nil {
			c[0] = cell{present: true, s: *r.F1}
		} else {
			c[0] = cell{}
		}
		if r.F2 != nil {
			c[1] = cell{present: true, s: *r.F2}
		} else {
			c[1] = cell{}
		}
		if r.F3 != nil {
			c[2] = cell{present: true, s: *r.F3}
		} else {
			c[2] = cell{}
		}
		if r.F4 != nil {
			c[3] = cell{present: true, s: *r.F4}
		} else {
			c[3] = cell{}
		}
		if r.F5 != nil {
			c[4] = cell{present: true, s: *r.F5}
		} else {
			c[4] = cell{}
		}
		if r.F6 != nil {
			c[5] = cell{present: true, s: *r.F6}
		} else {
			c[5] = cell{}
		}
		if r.F7 != nil {
			c[6] = cell{present: true, s: *r.F7}
		} else {
			c[6] = cell{}
		}
		if r.F8 != nil {
			c[7] = cell{present: true, s: *r.F8}
		} else {
			c[7] = cell{}
		}
		if r.F9 != nil {
			c[8] = cell{present: true, s: *r.F9}
		} else {
			c[8] = cell{}
		}
		if r.F10 != nil {
			c[9] = cell{present: true, s: *r.F10}
		} else {
			c[9] = cell{}
		}
		if r.F11 != nil {
			c[10] = cell{present: true, s: *r.F11}
		} else {
			c[10] = cell{}
		}
		if r.F12 != nil {
			c[11] = cell{present: true, s: *r.F12}
		} else {
			c[11] = cell{}
		}
		if r.F13 != nil {
			c[12] = cell{present: true, s: *r.F13}
		} else {
			c[12] = cell{}
		}
		if r.F14 != nil {
			c[13] = cell{present: true, s: *r.F14}
		} else {
			c[13] = cell{}
		}
		if r.F15 != nil {
			c[14] = cell{present: true, s: *r.F15}
		} else {
			c[14] = cell{}
		}
		if r.F16 != nil {
			c[15] = cell{present: true, s: *r.F16}
		} else {
			c[15] = cell{}
		}
		if r.F17 != nil {
			c[16] = cell{present: true, s: *r.F17}
		} else {
			c[16] = cell{}
		}
		if r.F18 != nil {
			c[17] = cell{present: true, s: *r.F18}
		} else {
			c[17] = cell{}
		}
		if r.F19 != nil {
			c[18] = cell{present: true, s: *r.F19}
		} else {
			c[18] = cell{}
		}
		if r.F20 != nil {
			c[19] = cell{present: true, s: *r.F20}
		} else {
			c[19] = cell{}
		}
	})
}

func Longs() codec.Codec[workload.LongsRow, *workload.FieldSink] {
	return newRow([]cellKind{cellI64, cellI64, cellI64, cellI64, cellI64, cellI64, cellI64, cellI64, cellI64, cellI64, cellI64, cellI64, cellI64, cellI64, cellI64, cellI64, cellI64, cellI64, cellI64, cellI64}, func(r *workload.LongsRow, c []cell) {
		if r.F1 != nil {
			c[0] = cell{present: true, i: *r.F1}
		} else {
			c[0] = cell{}
		}
		if r.F2 != nil {
			c[1] = cell{present: true, i: *r.F2}
		} else {
			c[1] = cell{}
		}
		if r.F3 != nil {
			c[2] = cell{present: true, i: *r.F3}
		} else {
			c[2] = cell{}
		}
		if r.F4 != nil {
			c[3] = cell{present: true, i: *r.F4}
		} else {
			c[3] = cell{}
		}
		if r.F5 != nil {
			c[4] = cell{present: true, i: *r.F5}
		} else {
			c[4] = cell{}
		}
		if r.F6 != nil {
			c[5] = cell{present: true, i: *r.F6}
		} else {
			c[5] = cell{}
		}
		if r.F7 != nil {
			c[6] = cell{present: true, i: *r.F7}
		} else {
			c[6] = cell{}
		}
		if r.F8 != nil {
			c[7] = cell{present: true, i: *r.F8}
		} else {
			c[7] = cell{}
		}
		if r.F9 != nil {
			c[8] = cell{present: true, i: *r.F9}
		} else {
			c[8] = cell{}
		}
		if r.F10 != nil {
			c[9] = cell{present: true, i: *r.F10}
		} else {
			c[9] = cell{}
		}
		if r.F11 != nil {
			c[10] = cell{present: true, i: *r.F11}
		} else {
			c[10] = cell{}
		}
		if r.F12 != nil {
			c[11] = cell{present: true, i: *r.F12}
		} else {
			c[11] = cell{}
		}
		if r.F13 != nil {
			c[12] = cell{present: true, i: *r.F13}
		} else {
			c[12] = cell{}
		}
		if r.F14 != nil {
			c[13] = cell{present: true, i: *r.F14}
		} else {
			c[13] = cell{}
		}
		if r.F15 != nil {
			c[14] = cell{present: true, i: *r.F15}
		} else {
			c[14] = cell{}
		}
		if r.F16 != nil {
			c[15] = cell{present: true, i: *r.F16}
		} else {
			c[15] = cell{}
		}
		if r.F17 != nil {
			c[16] = cell{present: true, i: *r.F17}
		} else {
			c[16] = cell{}
		}
		if r.F18 != nil {
			c[17] = cell{present: true, i: *r.F18}
		} else {
			c[17] = cell{}
		}
		if r.F19 != nil {
			c[18] = cell{present: true, i: *r.F19}
		} else {
			c[18] = cell{}
		}
		if r.F20 != nil {
			c[19] = cell{present: true, i: *r.F20}
		} else {
			c[19] = cell{}
		}
	})
}
