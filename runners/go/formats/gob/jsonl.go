package gob

import (
	"bytes"
	"encoding/gob"
	"math/big"

	"shootout/codec"
	"shootout/formats/dynamic"
	"shootout/workload"
)

// gob carries a value in an interface only as a concrete type registered
// by name, process-wide: the containers of an any tree and math/big's
// integer (a GobEncoder) are.
func init() {
	gob.Register(map[string]any{})
	gob.Register([]any{})
	gob.Register(&big.Int{})
}

// Jsonl is gob's take on the jsonl workload's dynamic value: an any tree
// with Go's number types (dynamic.GoTree), each record a self-contained gob
// stream of one interface value (its type names and descriptions
// included), as every gob record is; decoded into an any and walked.
func Jsonl() codec.Codec[workload.JSONRecord, *workload.JSONSink] {
	return dynamic.New(dynamic.Library{Model: dynamic.GoTree,
		Append: func(dst []byte, model any) ([]byte, error) {
			out := &codec.Appender{B: dst}
			err := gob.NewEncoder(out).Encode(&model)
			return out.B, err
		},
		Read: func(body []byte, sink *workload.JSONSink) error {
			var v any
			if err := gob.NewDecoder(bytes.NewReader(body)).Decode(&v); err != nil {
				return err
			}
			return dynamic.Walk(v, sink)
		}})
}
