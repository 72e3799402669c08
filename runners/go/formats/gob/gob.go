// Package gob is encoding/gob.
package gob

import (
	"bytes"
	"encoding/gob"

	"shootout/codec"
)

var Info = codec.Info{
	Name: "gob", Family: "gob", Library: "std",
	Framing: codec.FramingU32LE,
	Labels:  codec.Labels{BufferReuse: false, Decode: "owned", Access: "validated", API: "reflection"},
	Notes: "every record is a self-contained gob stream (a new Encoder and Decoder each, so each record repeats its type description), " +
		"as independent messages must be; gob amortises that only over one long-lived stream. 4-byte LE length prefix",
}

func New[R, S any](feed func(*R, S)) codec.Codec[R, S] {
	return &codec.Owned[R, S]{
		Append: func(dst []byte, r *R) ([]byte, error) {
			out := &codec.Appender{B: dst}
			err := gob.NewEncoder(out).Encode(r)
			return out.B, err
		},
		Unmarshal: func(b []byte, r *R) error { return gob.NewDecoder(bytes.NewReader(b)).Decode(r) },
		Feed:      feed,
	}
}
