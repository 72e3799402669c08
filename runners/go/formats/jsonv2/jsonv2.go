// Package jsonv2 is encoding/json/v2 as the module github.com/go-json-experiment/json
// (its mirror: with the goexperiment.jsonv2 build tag it aliases the standard
// library's). Go 1.26 has encoding/json/v2 only under GOEXPERIMENT=jsonv2,
// which also rebuilds encoding/json (v1) on top of v2 and so would change
// json-std and every other user of it in the runner: the module leaves them as
// they are.
package jsonv2

import (
	"github.com/go-json-experiment/json"

	"shootout/codec"
)

var Info = codec.Info{
	Name: "json-v2", Family: "JSON", Library: "github.com/go-json-experiment/json",
	Framing: codec.FramingU32LE, Wire: "json", Labels: codec.OwnedReflection,
	Notes: "encoding/json/v2's API and default semantics (the same struct tags as json-std; invalid UTF-8 and duplicate names rejected, names matched case-sensitively, nil slices written as []): MarshalWrite into the stream, then a newline (as json-std's Encoder ends a record), Unmarshal into a reused, zeroed record; 4-byte LE length prefix." +
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
