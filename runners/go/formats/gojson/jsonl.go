package gojson

import (
	json "github.com/goccy/go-json"

	"shootout/codec"
	"shootout/formats/dynamic"
	"shootout/formats/jsonstd"
	"shootout/workload"
)

// Jsonl is goccy's dynamic model on the jsonl workload, as encoding/json's
// (formats/jsonstd): an any tree of json.Number written by the same Encoder
// as every json-goccy record, read by a Decoder with UseNumber. goccy's
// Unmarshal has no UseNumber option, and without it every number is a
// float64.
func Jsonl() codec.Codec[workload.JSONRecord, *workload.JSONSink] {
	return dynamic.New(dynamic.Library{Model: dynamic.NumberTree, Append: New().Append, Read: jsonstd.ReadNumbers(json.NewDecoder)})
}
