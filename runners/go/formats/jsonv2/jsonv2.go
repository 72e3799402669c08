// Package jsonv2 is the standard library's encoding/json/v2. Go 1.27 builds
// it by default (the jsonv2 experiment is in the toolchain's baseline: its
// files still carry the goexperiment.jsonv2 build tag, and
// GOEXPERIMENT=nojsonv2 would take it out again). The module
// github.com/go-json-experiment/json that stood in for it under Go 1.26 is
// retired: under Go 1.27 it forwards each call to this package, and on every
// shared fixture both wrote the same records.
package jsonv2

import (
	"encoding/json/v2"

	"shootout/codec"
)

var Info = codec.Info{
	Name: "json-v2", Family: "JSON", Library: "std",
	Framing: codec.FramingU32LE, Wire: "json", Labels: codec.OwnedReflection,
	Notes: "encoding/json/v2 of the standard library (Go 1.27's, no GOEXPERIMENT), its default semantics (the same struct tags as json-std; invalid UTF-8 and duplicate names rejected, names matched case-sensitively, nil slices written as []): MarshalWrite into the stream, then a newline (as json-std's Encoder ends a record), Unmarshal into a reused, zeroed record; 4-byte LE length prefix." +
		" On iex, serde's shape (the body an externally tagged enum) through the wire structs of formats/iexserde." +
		" On jsonl, its dynamic model: an any tree whose numbers are float64, as v2 unmarshals them (it has no number type for an any), made before the timed loops; integers come back as floats, and map[string]any keeps one value per key",
}

func New() codec.Library {
	out := &codec.Appender{}
	return codec.Library{
		Append: func(dst []byte, v any) ([]byte, error) {
			out.B = dst
			err := json.MarshalWrite(out, v)
			return append(out.B, '\n'), err
		},
		Unmarshal: func(body []byte, v any) error { return json.Unmarshal(body, v) },
	}
}
