package thrift

import (
	"context"

	"github.com/apache/thrift/lib/go/thrift"

	"shootout/codec"
	"shootout/generated/thrift/records"
	"shootout/workload"
)

// thriftStruct is a generated struct type whose pointer reads and writes itself.
type thriftStruct[M any] interface {
	*M
	Write(context.Context, thrift.TProtocol) error
	Read(context.Context, thrift.TProtocol) error
}

// fieldCodec serves a record-shaped workload: to fills the reused outgoing
// struct from a record, from feeds a decoded struct to the sink.
type fieldCodec[R, M any, P thriftStruct[M]] struct {
	t       *transport
	out, in M
	to      func(*R, P)
	from    func(P, *workload.FieldSink)
}

func (c *fieldCodec[R, M, P]) Encode(stream []byte, r *R) ([]byte, error) {
	c.to(r, &c.out)
	return c.t.write(stream, P(&c.out).Write)
}

func (c *fieldCodec[R, M, P]) Decode(stream []byte, s *workload.FieldSink) (int, error) {
	var zero M
	c.in = zero
	n, err := c.t.read(stream, P(&c.in).Read)
	if err != nil {
		return 0, err
	}
	c.from(&c.in, s)
	return n, nil
}

func fields[R, M any, P thriftStruct[M]](p newProtocol, to func(*R, P), from func(P, *workload.FieldSink)) codec.Codec[R, *workload.FieldSink] {
	return &fieldCodec[R, M, P]{t: newTransport(p), to: to, from: from}
}

func sql(p newProtocol) codec.Codec[workload.SqlRequest, *workload.FieldSink] {
	return fields(p, func(r *workload.SqlRequest, m *records.SqlRequest) { m.Query, m.Arguments = r.Query, r.Args },
		func(m *records.SqlRequest, s *workload.FieldSink) {
			r := workload.SqlRequest{Query: m.Query, Args: m.Arguments}
			r.Visit(s)
		})
}

func primitives(p newProtocol) codec.Codec[workload.Primitives, *workload.FieldSink] {
	return fields(p, func(r *workload.Primitives, m *records.Primitives) {
		m.Ints, m.Longs, m.Doubles, m.Booleans, m.Strings = r.Ints, r.Longs, r.Doubles, r.Booleans, r.Strings
	}, func(m *records.Primitives, s *workload.FieldSink) {
		r := workload.Primitives{Ints: m.Ints, Longs: m.Longs, Doubles: m.Doubles, Booleans: m.Booleans, Strings: m.Strings}
		r.Visit(s)
	})
}

// object widens ratio (f32) to Thrift's double, exactly, and bit-casts level (u8) to i8.
func object(p newProtocol) codec.Codec[workload.SmallObject, *workload.FieldSink] {
	return fields(p, func(r *workload.SmallObject, m *records.SmallObject) {
		m.ID, m.Name, m.Email, m.Age, m.Score, m.Ratio = r.ID, r.Name, r.Email, r.Age, r.Score, float64(r.Ratio)
		m.Active, m.Level, m.CreatedAt, m.Tags = r.Active, int8(r.Level), r.CreatedAt, r.Tags
	}, func(m *records.SmallObject, s *workload.FieldSink) {
		r := workload.SmallObject{ID: m.ID, Name: m.Name, Email: m.Email, Age: m.Age, Score: m.Score, Ratio: float32(m.Ratio),
			Active: m.Active, Level: uint8(m.Level), CreatedAt: m.CreatedAt, Tags: m.Tags}
		r.Visit(s)
	})
}

// mixed widens f11 (f32) to Thrift's double, exactly.
func mixed(p newProtocol) codec.Codec[workload.MixedRow, *workload.FieldSink] {
	return fields(p, func(r *workload.MixedRow, m *records.MixedRow) {
		m.F1 = r.F1
		m.F2 = r.F2
		m.F3 = r.F3
		m.F4 = r.F4
		m.F5 = r.F5
		m.F6 = r.F6
		m.F7 = r.F7
		m.F8 = r.F8
		m.F9 = r.F9
		m.F10 = r.F10
		m.F11 = nil
		if r.F11 != nil {
			v := float64(*r.F11)
			m.F11 = &v
		}
		m.F12 = r.F12
		m.F13 = r.F13
		m.F14 = r.F14
		m.F15 = r.F15
		m.F16 = r.F16
		m.F17 = r.F17
		m.F18 = r.F18
		m.F19 = r.F19
		m.F20 = r.F20
	}, func(m *records.MixedRow, s *workload.FieldSink) {
		var r workload.MixedRow
		r.F1 = m.F1
		r.F2 = m.F2
		r.F3 = m.F3
		r.F4 = m.F4
		r.F5 = m.F5
		r.F6 = m.F6
		r.F7 = m.F7
		r.F8 = m.F8
		r.F9 = m.F9
		r.F10 = m.F10
		if m.F11 != nil {
			v := float32(*m.F11)
			r.F11 = &v
		}
		r.F12 = m.F12
		r.F13 = m.F13
		r.F14 = m.F14
		r.F15 = m.F15
		r.F16 = m.F16
		r.F17 = m.F17
		r.F18 = m.F18
		r.F19 = m.F19
		r.F20 = m.F20
		r.Visit(s)
	})
}

func strings(p newProtocol) codec.Codec[workload.StringsRow, *workload.FieldSink] {
	return fields(p, func(r *workload.StringsRow, m *records.StringsRow) {
		m.F1 = r.F1
		m.F2 = r.F2
		m.F3 = r.F3
		m.F4 = r.F4
		m.F5 = r.F5
		m.F6 = r.F6
		m.F7 = r.F7
		m.F8 = r.F8
		m.F9 = r.F9
		m.F10 = r.F10
		m.F11 = r.F11
		m.F12 = r.F12
		m.F13 = r.F13
		m.F14 = r.F14
		m.F15 = r.F15
		m.F16 = r.F16
		m.F17 = r.F17
		m.F18 = r.F18
		m.F19 = r.F19
		m.F20 = r.F20
	}, func(m *records.StringsRow, s *workload.FieldSink) {
		var r workload.StringsRow
		r.F1 = m.F1
		r.F2 = m.F2
		r.F3 = m.F3
		r.F4 = m.F4
		r.F5 = m.F5
		r.F6 = m.F6
		r.F7 = m.F7
		r.F8 = m.F8
		r.F9 = m.F9
		r.F10 = m.F10
		r.F11 = m.F11
		r.F12 = m.F12
		r.F13 = m.F13
		r.F14 = m.F14
		r.F15 = m.F15
		r.F16 = m.F16
		r.F17 = m.F17
		r.F18 = m.F18
		r.F19 = m.F19
		r.F20 = m.F20
		r.Visit(s)
	})
}

func longs(p newProtocol) codec.Codec[workload.LongsRow, *workload.FieldSink] {
	return fields(p, func(r *workload.LongsRow, m *records.LongsRow) {
		m.F1 = r.F1
		m.F2 = r.F2
		m.F3 = r.F3
		m.F4 = r.F4
		m.F5 = r.F5
		m.F6 = r.F6
		m.F7 = r.F7
		m.F8 = r.F8
		m.F9 = r.F9
		m.F10 = r.F10
		m.F11 = r.F11
		m.F12 = r.F12
		m.F13 = r.F13
		m.F14 = r.F14
		m.F15 = r.F15
		m.F16 = r.F16
		m.F17 = r.F17
		m.F18 = r.F18
		m.F19 = r.F19
		m.F20 = r.F20
	}, func(m *records.LongsRow, s *workload.FieldSink) {
		var r workload.LongsRow
		r.F1 = m.F1
		r.F2 = m.F2
		r.F3 = m.F3
		r.F4 = m.F4
		r.F5 = m.F5
		r.F6 = m.F6
		r.F7 = m.F7
		r.F8 = m.F8
		r.F9 = m.F9
		r.F10 = m.F10
		r.F11 = m.F11
		r.F12 = m.F12
		r.F13 = m.F13
		r.F14 = m.F14
		r.F15 = m.F15
		r.F16 = m.F16
		r.F17 = m.F17
		r.F18 = m.F18
		r.F19 = m.F19
		r.F20 = m.F20
		r.Visit(s)
	})
}

func SqlBinary() codec.Codec[workload.SqlRequest, *workload.FieldSink]  { return sql(binary) }
func SqlCompact() codec.Codec[workload.SqlRequest, *workload.FieldSink] { return sql(compact) }

func PrimitivesBinary() codec.Codec[workload.Primitives, *workload.FieldSink] {
	return primitives(binary)
}
func PrimitivesCompact() codec.Codec[workload.Primitives, *workload.FieldSink] {
	return primitives(compact)
}

func ObjectBinary() codec.Codec[workload.SmallObject, *workload.FieldSink]  { return object(binary) }
func ObjectCompact() codec.Codec[workload.SmallObject, *workload.FieldSink] { return object(compact) }

func MixedBinary() codec.Codec[workload.MixedRow, *workload.FieldSink]  { return mixed(binary) }
func MixedCompact() codec.Codec[workload.MixedRow, *workload.FieldSink] { return mixed(compact) }

func StringsBinary() codec.Codec[workload.StringsRow, *workload.FieldSink]  { return strings(binary) }
func StringsCompact() codec.Codec[workload.StringsRow, *workload.FieldSink] { return strings(compact) }

func LongsBinary() codec.Codec[workload.LongsRow, *workload.FieldSink]  { return longs(binary) }
func LongsCompact() codec.Codec[workload.LongsRow, *workload.FieldSink] { return longs(compact) }
