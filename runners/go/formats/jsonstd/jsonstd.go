// Package jsonstd is encoding/json, the study's baseline.
package jsonstd

import (
	"encoding/json"

	"shootout/codec"
)

var Info = codec.Info{
	Name: "json-std", Family: "JSON", Library: "std",
	Framing: codec.FramingU32LE,
	Labels:  codec.Labels{BufferReuse: true, Decode: "owned", Access: "validated", API: "reflection"},
	Notes:   "encoding/json: one json.Encoder (SetEscapeHTML(false): <, >, & as themselves) writing into the stream (its trailing newline is part of the record), json.Unmarshal into a reused, zeroed record; 4-byte LE length prefix",
}

// New is the codec of any record type that feeds sink S with feed.
func New[R, S any](feed func(*R, S)) codec.Codec[R, S] {
	out := &codec.Appender{}
	e := json.NewEncoder(out)
	// Text as written (no \u003c for <, >, &), as serde_json and sonic write it.
	e.SetEscapeHTML(false)
	return &codec.Owned[R, S]{
		Append: func(dst []byte, r *R) ([]byte, error) {
			out.B = dst
			err := e.Encode(r)
			return out.B, err
		},
		Unmarshal: func(b []byte, r *R) error { return json.Unmarshal(b, r) },
		Feed:      feed,
	}
}
