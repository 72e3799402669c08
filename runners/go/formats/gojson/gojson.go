// Package gojson is github.com/goccy/go-json, a drop-in encoding/json.
package gojson

import (
	json "github.com/goccy/go-json"

	"shootout/codec"
)

var Info = codec.Info{
	Name: "json-goccy", Family: "JSON", Library: "github.com/goccy/go-json",
	Framing: codec.FramingU32LE,
	Labels:  codec.Labels{BufferReuse: true, Decode: "owned", Access: "validated", API: "reflection"},
	Notes:   "one Encoder (SetEscapeHTML(false): <, >, & as themselves) writing into the stream (trailing newline included), Unmarshal into a reused, zeroed record; 4-byte LE length prefix",
}

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
