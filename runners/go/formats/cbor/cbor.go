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
	Notes: "structs as maps keyed by field name (default options, but for encoding.TextMarshaler as a text string); one Encoder writing into the stream, DecMode.Unmarshal into a reused, zeroed record; 4-byte LE length prefix." +
		" On iex, serde's shape as ciborium writes it (the body an externally tagged enum, side its variant's name) through the wire structs of formats/iexserde." +
		" On jsonl, its dynamic model: an any tree of int64, uint64, *big.Int (a bignum) and float64 (made before the timed loops), Unmarshal into an any with maps as map[string]any, nesting up to the spec's 512 levels (the default is 32) and arrays and maps of any length; map[string]any keeps one value per key",
}

// These options are always valid: the errors are nil. A TextMarshaler is
// text, as serde writes a unit enum variant (iexserde.Side): only it among
// the records has the methods.
var (
	encMode, _ = cbor.EncOptions{TextMarshaler: cbor.TextMarshalerTextString}.EncMode()
	decMode, _ = cbor.DecOptions{TextUnmarshaler: cbor.TextUnmarshalerTextString}.DecMode()
)

func New() codec.Library {
	return codec.Library{Append: codec.Streaming(func(w io.Writer) codec.Encoder { return encMode.NewEncoder(w) }), Unmarshal: decMode.Unmarshal}
}
