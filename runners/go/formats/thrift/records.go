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
