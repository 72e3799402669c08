// Package gob is encoding/gob.
package gob

import (
	"bytes"
	"encoding/gob"

	"shootout/codec"
	"shootout/workload"
)

var Info = codec.Info{
	Name: "gob", Family: "gob", Library: "std",
	Labels: codec.Labels{BufferReuse: false, Decode: "owned", Access: "validated", API: "reflection"},
	Notes: "every record is a self-contained gob stream (a new Encoder and Decoder each, so each record repeats its type description), " +
		"as independent messages must be; gob amortises that only over one long-lived stream. 4-byte LE length prefix",
}

func User() codec.Codec[workload.User, *workload.FieldSink] {
	return &codec.Owned[workload.User, *workload.FieldSink]{
		Append: func(dst []byte, u *workload.User) ([]byte, error) {
			out := &codec.Appender{B: dst}
			err := gob.NewEncoder(out).Encode(u)
			return out.B, err
		},
		Unmarshal: func(b []byte, u *workload.User) error { return gob.NewDecoder(bytes.NewReader(b)).Decode(u) },
		Feed:      (*workload.User).Visit,
	}
}
