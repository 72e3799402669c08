// Package mus is github.com/mus-format/mus-go, the MUS format: mus-go has
// no struct support of its own, so each record's serializer is written by
// hand from the library's per-type serializers, as its documentation shows
// (fields.go says which encoding each Go type gets).
package mus

import (
	"slices"

	"shootout/codec"
	"shootout/workload"
)

var Info = codec.Info{
	Name: "mus", Family: "MUS", Library: "github.com/mus-format/mus-go",
	Framing: codec.FramingNone, Wire: "mus", Labels: codec.OwnedManual,
	Notes: "hand-written serializers over mus-go's own (its documentation's way: the library has no struct support): integers as varints (signed ZigZag), floats raw, " +
		"strings copied (ord, with a length validator), a list's length bounded by the bytes left, an iex message's body after a kind byte; " +
		"each record sized (Size) then marshalled into the stream, decoded into a reused record. A record delimits itself given its type, so there is no length prefix",
}

// fieldCodec encodes records R with write (their fields in order) and
// decodes them with read into one reused record, fed to sinks S.
type fieldCodec[R, S any] struct {
	write  func(*out, *R)
	read   func(*in, *R)
	feed   func(*R, S)
	record R
}

func (c *fieldCodec[R, S]) Encode(stream []byte, r *R) ([]byte, error) {
	size := out{sizing: true}
	c.write(&size, r)
	stream = slices.Grow(stream, size.n)
	o := out{bs: stream[len(stream) : len(stream)+size.n]}
	c.write(&o, r)
	return stream[:len(stream)+size.n], nil
}

func (c *fieldCodec[R, S]) Decode(stream []byte, s S) (int, error) {
	f := in{bs: stream}
	c.read(&f, &c.record)
	if f.err != nil {
		return 0, f.err
	}
	c.feed(&c.record, s)
	return f.n, nil
}

// fields is the codec of a record-shaped workload.
func fields[R any](write func(*out, *R), read func(*in, *R), visit func(*R, *workload.FieldSink)) codec.Codec[R, *workload.FieldSink] {
	return &fieldCodec[R, *workload.FieldSink]{write: write, read: read, feed: visit}
}

func User() codec.Codec[workload.User, *workload.FieldSink] {
	return fields(writeUser, readUser, (*workload.User).Visit)
}

func Sql() codec.Codec[workload.SqlRequest, *workload.FieldSink] {
	return fields(writeSql, readSql, (*workload.SqlRequest).Visit)
}

func Primitives() codec.Codec[workload.Primitives, *workload.FieldSink] {
	return fields(writePrimitives, readPrimitives, (*workload.Primitives).Visit)
}

func Object() codec.Codec[workload.SmallObject, *workload.FieldSink] {
	return fields(writeObject, readObject, (*workload.SmallObject).Visit)
}

func Iex() codec.Codec[workload.MultiMessage, *workload.IexSink] {
	return &fieldCodec[workload.MultiMessage, *workload.IexSink]{write: writeIex, read: readIex, feed: (*workload.MultiMessage).Feed}
}
