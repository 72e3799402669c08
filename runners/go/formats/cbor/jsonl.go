package cbor

import (
	"io"
	"math"
	"reflect"

	"github.com/fxamacker/cbor/v2"

	"shootout/codec"
	"shootout/formats/dynamic"
	"shootout/workload"
)

// The jsonl workload's modes: default encoding (a *big.Int as the shortest
// of an integer and a bignum), and decoding into an any with maps as
// map[string]any, as deep as the spec nests (the default is 32 levels) and
// as long as an array or map may be (the default is 131,072 elements);
// fxamacker checks that the whole item is well formed before it decodes, so
// no length it claims sizes an allocation beyond the bytes there. The
// options are valid: the errors are nil.
var (
	jsonlEnc, _ = cbor.EncOptions{}.EncMode()
	jsonlDec, _ = cbor.DecOptions{DefaultMapType: reflect.TypeOf(map[string]any(nil)), MaxNestedLevels: workload.MaxJSONDepth,
		MaxArrayElements: math.MaxInt32, MaxMapPairs: math.MaxInt32}.DecMode()
)

// Jsonl is fxamacker's dynamic model on the jsonl workload: an any tree with
// Go's number types (dynamic.GoTree) written by an Encoder into the stream,
// Unmarshal into an any (unsigned integers as uint64, negative ones int64,
// bignums big.Int, floats float64).
func Jsonl() codec.Codec[workload.JSONRecord, *workload.JSONSink] {
	return dynamic.New(dynamic.Library{Model: dynamic.GoTree,
		Append: codec.Streaming(func(w io.Writer) codec.Encoder { return jsonlEnc.NewEncoder(w) }),
		Read: func(body []byte, sink *workload.JSONSink) error {
			var v any
			if err := jsonlDec.Unmarshal(body, &v); err != nil {
				return err
			}
			return dynamic.Walk(v, sink)
		}})
}
