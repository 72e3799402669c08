// Package msgpack is github.com/vmihailenco/msgpack/v5, structs as maps
// (field names on the wire, the library's default) or as arrays.
package msgpack

import (
	"github.com/vmihailenco/msgpack/v5"

	"shootout/codec"
	"shootout/workload"
)

var (
	MapInfo = codec.Info{
		Name: "msgpack-map", Family: "MessagePack", Library: "github.com/vmihailenco/msgpack/v5",
		Labels: codec.Labels{BufferReuse: true, Decode: "owned", Access: "validated", API: "reflection"},
		Notes:  "structs as maps keyed by field name; one Encoder writing into the stream, Unmarshal into a reused struct; 4-byte LE length prefix",
	}
	ArrayInfo = codec.Info{
		Name: "msgpack-array", Family: "MessagePack", Library: "github.com/vmihailenco/msgpack/v5",
		Labels: MapInfo.Labels,
		Notes:  "structs as arrays in field order (UseArrayEncodedStructs); one Encoder writing into the stream, Unmarshal into a reused struct; 4-byte LE length prefix",
	}
)

type enc struct {
	out *codec.Appender
	e   *msgpack.Encoder
}

func (e *enc) append(dst []byte, r *workload.User) ([]byte, error) {
	e.out.B = dst
	err := e.e.Encode(r)
	return e.out.B, err
}

func user(array bool) codec.Codec[workload.User, *workload.FieldSink] {
	out := &codec.Appender{}
	e := &enc{out: out, e: msgpack.NewEncoder(out)}
	e.e.UseArrayEncodedStructs(array)
	return &codec.Owned[workload.User, *workload.FieldSink]{Append: e.append,
		Unmarshal: func(b []byte, r *workload.User) error { return msgpack.Unmarshal(b, r) }, Feed: (*workload.User).Visit}
}

func UserMap() codec.Codec[workload.User, *workload.FieldSink]   { return user(false) }
func UserArray() codec.Codec[workload.User, *workload.FieldSink] { return user(true) }
