// Package sonic is github.com/bytedance/sonic, a JIT/SIMD JSON library.
package sonic

import (
	"github.com/bytedance/sonic"
	"github.com/bytedance/sonic/encoder"

	"shootout/codec"
)

var Info = codec.Info{
	Name: "json-sonic", Family: "JSON", Library: "github.com/bytedance/sonic",
	Framing: codec.FramingU32LE, Wire: "json", Labels: codec.OwnedReflection,
	Notes: "encoder.EncodeInto appends to the stream, then a newline (as encoding/json's Encoder and the Rust JSON codecs end a record); sonic.Unmarshal (ConfigDefault) into a reused, zeroed record; 4-byte LE length prefix. On a CPU or Go version sonic's JIT does not support it falls back to encoding/json." +
		" On iex, serde's shape (the body an externally tagged enum) through the wire structs of formats/iexserde." +
		" On jsonl, its dynamic model: an any tree of json.Number (made before the timed loops), read by Unmarshal of Config{UseNumber: true}; map[string]any keeps one value per key",
}

func New() codec.Library {
	return codec.Library{
		Append: func(dst []byte, v any) ([]byte, error) {
			// The newline makes the record's bytes those of json-std and of
			// Rust's JSON lines, which need it to end the record.
			err := encoder.EncodeInto(&dst, v, 0)
			return append(dst, '\n'), err
		},
		Unmarshal: sonic.Unmarshal,
	}
}
