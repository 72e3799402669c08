// Package cbor is github.com/fxamacker/cbor/v2.
package cbor

import (
	"github.com/fxamacker/cbor/v2"

	"shootout/codec"
)

var Info = codec.Info{
	Name: "cbor-fxamacker", Family: "CBOR", Library: "github.com/fxamacker/cbor/v2",
	Framing: codec.FramingU32LE,
	Labels:  codec.Labels{BufferReuse: true, Decode: "owned", Access: "validated", API: "reflection"},
	Notes:   "structs as maps keyed by field name (default options); one Encoder writing into the stream, DecMode.Unmarshal into a reused, zeroed record; 4-byte LE length prefix",
}

// Default options are always valid: the errors are nil.
var (
	encMode, _ = cbor.EncOptions{}.EncMode()
	decMode, _ = cbor.DecOptions{}.DecMode()
)

func New[R, S any](feed func(*R, S)) codec.Codec[R, S] {
	out := &codec.Appender{}
	e := encMode.NewEncoder(out)
	return &codec.Owned[R, S]{
		Append: func(dst []byte, r *R) ([]byte, error) {
			out.B = dst
			err := e.Encode(r)
			return out.B, err
		},
		Unmarshal: func(b []byte, r *R) error { return decMode.Unmarshal(b, r) },
		Feed:      feed,
	}
}
