// Package cbor is github.com/fxamacker/cbor/v2.
package cbor

import (
	"io"

	"github.com/fxamacker/cbor/v2"

	"shootout/codec"
)

var Info = codec.Info{
	Name: "cbor-fxamacker", Family: "CBOR", Library: "github.com/fxamacker/cbor/v2",
	Framing: codec.FramingU32LE, Wire: "cbor-map", Labels: codec.OwnedReflection,
	Notes: "structs as maps keyed by field name (default options); one Encoder writing into the stream, DecMode.Unmarshal into a reused, zeroed record; 4-byte LE length prefix",
}

// Default options are always valid: the errors are nil.
var (
	encMode, _ = cbor.EncOptions{}.EncMode()
	decMode, _ = cbor.DecOptions{}.DecMode()
)

func New() codec.Library {
	return codec.Library{Append: codec.Streaming(func(w io.Writer) codec.Encoder { return encMode.NewEncoder(w) }), Unmarshal: decMode.Unmarshal}
}
