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
	Notes: "encoding/json (since Go 1.27 its v1 API over encoding/json/v2's implementation): one json.Encoder (SetEscapeHTML(false): <, >, & as themselves) writing into the stream (its trailing newline is part of the record), json.Unmarshal into a reused, zeroed record; 4-byte LE length prefix. " +
		"On iex, serde's shape (the body an externally tagged enum) through the wire structs of formats/iexserde. " +
		"On jsonl, its dynamic model: an any tree of json.Number (made from each record before the timed loops), written by the same Encoder (map keys sorted), read by a new Decoder per record with UseNumber (json.Unmarshal has no way to keep numbers exact); map[string]any keeps one value per key",
}

// FlatInfo is json-std writing the iex record as Go holds it
// (workload.Message's JSON tags), the shape Go's JSON codecs wrote before
// they wrote serde's: one variant keeps it, so it can be measured against
// serde's. Its wire is its own, as no other language reads or writes it.
var FlatInfo = codec.Info{
	Name: "json-std-flat", Family: "JSON", Library: "std",
	Framing: codec.FramingU32LE, Wire: "json-go-flat", Labels: codec.OwnedReflection,
	Notes: "Go's flat iex shape, not serde's: each message one object {ts, symbol, kind, price, size, flags, side} holding both bodies' fields, kind and side as numbers (workload.Message as it is); " +
		"otherwise json-std (one json.Encoder writing into the stream, json.Unmarshal into a reused, zeroed record; 4-byte LE length prefix). iex only",
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
