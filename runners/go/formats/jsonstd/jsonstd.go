// Package jsonstd is encoding/json, the study's baseline.
package jsonstd

import (
	"encoding/json"
	"io"

	"shootout/codec"
)

var Info = codec.Info{
	Name: "json-std", Family: "JSON", Library: "std",
	Framing: codec.FramingU32LE, Wire: "json", Labels: codec.OwnedReflection,
	Notes: "encoding/json: one json.Encoder (SetEscapeHTML(false): <, >, & as themselves) writing into the stream (its trailing newline is part of the record), json.Unmarshal into a reused, zeroed record; 4-byte LE length prefix",
}

// New is the library as one codec uses it.
func New() codec.Library { return Library(json.NewEncoder, json.Unmarshal) }

// Library is a JSON library with encoding/json's API (as goccy/go-json has),
// one Encoder writing into the stream.
func Library[E interface {
	codec.Encoder
	SetEscapeHTML(bool)
}](newEncoder func(io.Writer) E, unmarshal func([]byte, any) error) codec.Library {
	return codec.Library{Append: codec.Streaming(func(w io.Writer) codec.Encoder {
		e := newEncoder(w)
		// Text as written (no \u003c for <, >, &), as serde_json and sonic write it.
		e.SetEscapeHTML(false)
		return e
	}), Unmarshal: unmarshal}
}
