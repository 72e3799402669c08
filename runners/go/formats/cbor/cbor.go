// Package cbor is github.com/fxamacker/cbor/v2.
package cbor

import (
	"github.com/fxamacker/cbor/v2"

	"shootout/codec"
	"shootout/workload"
)

var Info = codec.Info{
	Name: "cbor-fxamacker", Family: "CBOR", Library: "github.com/fxamacker/cbor/v2",
	Labels: codec.Labels{BufferReuse: true, Decode: "owned", Access: "validated", API: "reflection"},
	Notes:  "structs as maps keyed by field name (default options); one Encoder writing into the stream, DecMode.Unmarshal into a reused struct; 4-byte LE length prefix",
}

type enc struct {
	out *codec.Appender
	e   *cbor.Encoder
}

func (e *enc) append(dst []byte, r *workload.User) ([]byte, error) {
	e.out.B = dst
	err := e.e.Encode(r)
	return e.out.B, err
}

func User() codec.Codec[workload.User, *workload.FieldSink] {
	em, err := cbor.EncOptions{}.EncMode()
	if err != nil {
		panic(err) // default options are valid
	}
	dm, err := cbor.DecOptions{}.DecMode()
	if err != nil {
		panic(err)
	}
	out := &codec.Appender{}
	e := &enc{out: out, e: em.NewEncoder(out)}
	return &codec.Owned[workload.User, *workload.FieldSink]{Append: e.append,
		Unmarshal: func(b []byte, r *workload.User) error { return dm.Unmarshal(b, r) }, Feed: (*workload.User).Visit}
}
