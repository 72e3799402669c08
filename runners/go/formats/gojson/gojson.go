// Package gojson is github.com/goccy/go-json, a drop-in encoding/json.
package gojson

import (
	json "github.com/goccy/go-json"

	"shootout/codec"
	"shootout/formats/jsonstd"
)

var Info = codec.Info{
	Name: "json-goccy", Family: "JSON", Library: "github.com/goccy/go-json",
	Framing: codec.FramingU32LE, Wire: "json", Labels: codec.OwnedReflection,
	Notes: "one Encoder (SetEscapeHTML(false): <, >, & as themselves) writing into the stream (trailing newline included), Unmarshal into a reused, zeroed record; 4-byte LE length prefix." +
		" On iex, serde's shape (the body an externally tagged enum) through the wire structs of formats/iexserde." +
		" On jsonl, its dynamic model: an any tree of json.Number (made before the timed loops), read by a new Decoder per record with UseNumber (Unmarshal has no such option); map[string]any keeps one value per key",
}

func New() codec.Library { return jsonstd.Library(json.NewEncoder, json.Unmarshal) }
