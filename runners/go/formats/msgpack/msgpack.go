// Package msgpack is github.com/vmihailenco/msgpack/v5, structs as maps
// (field names on the wire, the library's default) or as arrays.
package msgpack

import (
	"github.com/vmihailenco/msgpack/v5"

	"shootout/codec"
)

var (
	MapInfo = codec.Info{
		Name: "msgpack-map", Family: "MessagePack", Library: "github.com/vmihailenco/msgpack/v5",
		Framing: codec.FramingU32LE,
		Labels:  codec.Labels{BufferReuse: true, Decode: "owned", Access: "validated", API: "reflection"},
		Notes:   "structs as maps keyed by field name, integers in their smallest form (UseCompactInts); one Encoder writing into the stream, Unmarshal into a reused, zeroed record; 4-byte LE length prefix",
	}
	ArrayInfo = codec.Info{
		Name: "msgpack-array", Family: "MessagePack", Library: "github.com/vmihailenco/msgpack/v5",
		Framing: codec.FramingU32LE,
		Labels:  MapInfo.Labels,
		Notes:   "structs as arrays in field order (UseArrayEncodedStructs), integers in their smallest form (UseCompactInts); one Encoder writing into the stream, Unmarshal into a reused, zeroed record; 4-byte LE length prefix",
	}
)

// New is the codec of records R feeding S; array encodes structs as arrays.
func New[R, S any](array bool, feed func(*R, S)) codec.Codec[R, S] {
	out := &codec.Appender{}
	e := msgpack.NewEncoder(out)
	e.UseArrayEncodedStructs(array)
	// Each integer in its smallest MessagePack form (the library's default is
	// the Go type's width), as rmp-serde and msgp write them: on every
	// workload but iex, the bytes equal Rust's.
	e.UseCompactInts(true)
	return &codec.Owned[R, S]{
		Append: func(dst []byte, r *R) ([]byte, error) {
			out.B = dst
			err := e.Encode(r)
			return out.B, err
		},
		Unmarshal: func(b []byte, r *R) error { return msgpack.Unmarshal(b, r) },
		Feed:      feed,
	}
}

func Map[R, S any](feed func(*R, S)) codec.Codec[R, S]   { return New(false, feed) }
func Array[R, S any](feed func(*R, S)) codec.Codec[R, S] { return New(true, feed) }
