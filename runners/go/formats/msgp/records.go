package msgp

import (
	"github.com/tinylib/msgp/msgp"

	"shootout/codec"
	"shootout/workload"
)

type generated[M any] interface {
	*M
	msgp.Marshaler
	msgp.Unmarshaler
}

// fieldCodec serves every record type R whose fields a generated type M
// mirrors; to and from are the (free) pointer conversions.
type fieldCodec[R, M any, P generated[M]] struct {
	in   M
	to   func(*R) P
	from func(P) *R
	feed func(*R, *workload.FieldSink)
}

func (c *fieldCodec[R, M, P]) Encode(stream []byte, r *R) ([]byte, error) {
	return c.to(r).MarshalMsg(stream)
}

func (c *fieldCodec[R, M, P]) Decode(stream []byte, s *workload.FieldSink) (int, error) {
	// Walked first (msgp.Skip allocates nothing), so a corrupt array count
	// cannot size an allocation beyond the bytes there.
	rest, err := msgp.Skip(stream)
	if err != nil {
		return 0, err
	}
	var zero M
	c.in = zero
	if _, err := P(&c.in).UnmarshalMsg(stream[:len(stream)-len(rest)]); err != nil {
		return 0, err
	}
	c.feed(c.from(&c.in), s)
	return len(stream) - len(rest), nil
}

func Sql() codec.Codec[workload.SqlRequest, *workload.FieldSink] {
	return &fieldCodec[workload.SqlRequest, sqlMsg, *sqlMsg]{
		to:   func(r *workload.SqlRequest) *sqlMsg { return (*sqlMsg)(r) },
		from: func(m *sqlMsg) *workload.SqlRequest { return (*workload.SqlRequest)(m) },
		feed: (*workload.SqlRequest).Visit,
	}
}

func Primitives() codec.Codec[workload.Primitives, *workload.FieldSink] {
	return &fieldCodec[workload.Primitives, primitivesMsg, *primitivesMsg]{
		to:   func(r *workload.Primitives) *primitivesMsg { return (*primitivesMsg)(r) },
		from: func(m *primitivesMsg) *workload.Primitives { return (*workload.Primitives)(m) },
		feed: (*workload.Primitives).Visit,
	}
}

func Object() codec.Codec[workload.SmallObject, *workload.FieldSink] {
	return &fieldCodec[workload.SmallObject, objectMsg, *objectMsg]{
		to:   func(r *workload.SmallObject) *objectMsg { return (*objectMsg)(r) },
		from: func(m *objectMsg) *workload.SmallObject { return (*workload.SmallObject)(m) },
		feed: (*workload.SmallObject).Visit,
	}
}

func Mixed() codec.Codec[workload.MixedRow, *workload.FieldSink] {
	return &fieldCodec[workload.MixedRow, mixedMsg, *mixedMsg]{
		to:   func(r *workload.MixedRow) *mixedMsg { return (*mixedMsg)(r) },
		from: func(m *mixedMsg) *workload.MixedRow { return (*workload.MixedRow)(m) },
		feed: (*workload.MixedRow).Visit,
	}
}

func Strings() codec.Codec[workload.StringsRow, *workload.FieldSink] {
	return &fieldCodec[workload.StringsRow, stringsMsg, *stringsMsg]{
		to:   func(r *workload.StringsRow) *stringsMsg { return (*stringsMsg)(r) },
		from: func(m *stringsMsg) *workload.StringsRow { return (*workload.StringsRow)(m) },
		feed: (*workload.StringsRow).Visit,
	}
}

func Longs() codec.Codec[workload.LongsRow, *workload.FieldSink] {
	return &fieldCodec[workload.LongsRow, longsMsg, *longsMsg]{
		to:   func(r *workload.LongsRow) *longsMsg { return (*longsMsg)(r) },
		from: func(m *longsMsg) *workload.LongsRow { return (*workload.LongsRow)(m) },
		feed: (*workload.LongsRow).Visit,
	}
}
