package jsonv2

import (
	"encoding/json/v2"

	"shootout/codec"
	"shootout/formats/dynamic"
	"shootout/workload"
)

// Jsonl is encoding/json/v2's dynamic model on the jsonl workload: an any
// tree whose numbers are float64 (dynamic.FloatTree), as v2 unmarshals any
// number into an any; v2 has no number type for it (its v1 compatibility
// layer keeps the option UseNumber to itself). Written by MarshalWrite (maps
// in Go's order), read by Unmarshal with v2's defaults, which reject a
// duplicate key.
func Jsonl() codec.Codec[workload.JSONRecord, *workload.JSONSink] {
	return dynamic.New(dynamic.Library{Model: dynamic.FloatTree, Append: New().Append,
		Read: func(body []byte, sink *workload.JSONSink) error {
			var v any
			if err := json.Unmarshal(body, &v); err != nil {
				return err
			}
			return dynamic.Walk(v, sink)
		}})
}
