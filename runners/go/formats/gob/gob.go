// Package gob is encoding/gob.
package gob

import (
	"bytes"
	"encoding/gob"

	"shootout/codec"
)

var Info = codec.Info{
	Name: "gob", Family: "gob", Library: "std",
	Framing: codec.FramingU32LE, Wire: "gob", Labels: codec.OwnedReflectionNoReuse,
	Notes: "every record is a self-contained gob stream (a new Encoder and Decoder each, so each record repeats its type description), " +
		"as independent messages must be; gob amortises that only over one long-lived stream. 4-byte LE length prefix. " +
		"On jsonl, an any tree of int64, uint64, *big.Int and float64 (made before the timed loops; its container types and *big.Int registered with gob.Register) encoded as one interface value, decoded into an any; map[string]any keeps one value per key",
}

func New() codec.Library {
	return codec.Library{
		Append: func(dst []byte, v any) ([]byte, error) {
			out := &codec.Appender{B: dst}
			err := gob.NewEncoder(out).Encode(v)
			return out.B, err
		},
		Unmarshal: func(b []byte, v any) error { return gob.NewDecoder(bytes.NewReader(b)).Decode(v) },
	}
}
