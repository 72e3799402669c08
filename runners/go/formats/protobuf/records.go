package protobuf

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	"shootout/codec"
	"shootout/generated/protobuf/records"
	"shootout/workload"
)

// message is a generated message type whose pointer is a proto.Message.
type message[M any] interface {
	*M
	proto.Message
}

// Marshaller turns a codec's generated messages into bytes and back:
// protobuf-go's proto package (ProtoGo), or the methods vtprotobuf generates
// for each message (package vtprotobuf), over the same messages and mappings.
type Marshaller interface {
	// Append writes m's encoding at the end of dst.
	Append(dst []byte, m proto.Message) ([]byte, error)
	// Unmarshal replaces m with the message in body.
	Unmarshal(body []byte, m proto.Message) error
}

// ProtoGo is protobuf-go's proto package: MarshalAppend into the stream and
// Unmarshal, both driven by the message's descriptor.
type ProtoGo struct{}

func (ProtoGo) Append(dst []byte, m proto.Message) ([]byte, error) {
	return proto.MarshalOptions{}.MarshalAppend(dst, m)
}

func (ProtoGo) Unmarshal(body []byte, m proto.Message) error { return proto.Unmarshal(body, m) }

// The codecs of the protobuf format, with protobuf-go's proto package.
var (
	User       = UserWith[ProtoGo]
	Iex        = IexWith[ProtoGo]
	Sql        = SqlWith[ProtoGo]
	Primitives = PrimitivesWith[ProtoGo]
	Object     = ObjectWith[ProtoGo]
	Mixed      = MixedWith[ProtoGo]
	Strings    = StringsWith[ProtoGo]
	Longs      = LongsWith[ProtoGo]
)

// fieldCodec frames any record-shaped workload's message: to turns a record
// into the reused outgoing message, from feeds a decoded one to the sink.
type fieldCodec[R, M any, P message[M], X Marshaller] struct {
	out, in M
	to      func(*R, P)
	from    func(P, *workload.FieldSink) error
}

func (c *fieldCodec[R, M, P, X]) Encode(stream []byte, r *R) ([]byte, error) {
	c.to(r, &c.out)
	stream, at := codec.Reserve(stream)
	var x X
	stream, err := x.Append(stream, P(&c.out))
	if err != nil {
		return stream[:at], err
	}
	return codec.Seal(stream, at)
}

func (c *fieldCodec[R, M, P, X]) Decode(stream []byte, s *workload.FieldSink) (int, error) {
	body, n, err := codec.Frame(stream)
	if err != nil {
		return 0, err
	}
	var x X
	if err := x.Unmarshal(body, P(&c.in)); err != nil {
		return 0, err
	}
	if err := c.from(&c.in, s); err != nil {
		return 0, err
	}
	return n, nil
}

func SqlWith[X Marshaller]() codec.Codec[workload.SqlRequest, *workload.FieldSink] {
	return &fieldCodec[workload.SqlRequest, records.SqlRequest, *records.SqlRequest, X]{
		to: func(r *workload.SqlRequest, m *records.SqlRequest) { m.Query, m.Args = r.Query, r.Args },
		from: func(m *records.SqlRequest, s *workload.FieldSink) error {
			r := workload.SqlRequest{Query: m.Query, Args: m.Args}
			r.Visit(s)
			return nil
		},
	}
}

func PrimitivesWith[X Marshaller]() codec.Codec[workload.Primitives, *workload.FieldSink] {
	return &fieldCodec[workload.Primitives, records.Primitives, *records.Primitives, X]{
		to: func(r *workload.Primitives, m *records.Primitives) {
			m.Ints, m.Longs, m.Doubles, m.Booleans, m.Strings = r.Ints, r.Longs, r.Doubles, r.Booleans, r.Strings
		},
		from: func(m *records.Primitives, s *workload.FieldSink) error {
			r := workload.Primitives{Ints: m.Ints, Longs: m.Longs, Doubles: m.Doubles, Booleans: m.Booleans, Strings: m.Strings}
			r.Visit(s)
			return nil
		},
	}
}

func ObjectWith[X Marshaller]() codec.Codec[workload.SmallObject, *workload.FieldSink] {
	return &fieldCodec[workload.SmallObject, records.SmallObject, *records.SmallObject, X]{
		to: func(r *workload.SmallObject, m *records.SmallObject) {
			m.Id, m.Name, m.Email, m.Age, m.Score, m.Ratio = r.ID, r.Name, r.Email, r.Age, r.Score, r.Ratio
			m.Active, m.Level, m.CreatedAt, m.Tags = r.Active, uint32(r.Level), r.CreatedAt, r.Tags
		},
		from: func(m *records.SmallObject, s *workload.FieldSink) error {
			if m.Level > 0xff {
				return fmt.Errorf("protobuf: level %d does not fit a byte", m.Level)
			}
			r := workload.SmallObject{ID: m.Id, Name: m.Name, Email: m.Email, Age: m.Age, Score: m.Score, Ratio: m.Ratio,
				Active: m.Active, Level: uint8(m.Level), CreatedAt: m.CreatedAt, Tags: m.Tags}
			r.Visit(s)
			return nil
		},
	}
}
