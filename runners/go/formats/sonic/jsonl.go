package sonic

import (
	"github.com/bytedance/sonic"

	"shootout/codec"
	"shootout/formats/dynamic"
	"shootout/workload"
)

// numbers is sonic's default configuration with UseNumber: an any's numbers
// decode as json.Number, the documented way to keep them exact.
var numbers = sonic.Config{UseNumber: true}.Froze()

// Jsonl is sonic's dynamic model on the jsonl workload: an any tree of
// json.Number written as every json-sonic record is (EncodeInto, maps in
// Go's order: sonic sorts no keys by default), and read by Unmarshal of the
// configuration above.
func Jsonl() codec.Codec[workload.JSONRecord, *workload.JSONSink] {
	return dynamic.New(dynamic.Library{Model: dynamic.NumberTree, Append: New().Append,
		Read: func(body []byte, sink *workload.JSONSink) error {
			var v any
			if err := numbers.Unmarshal(body, &v); err != nil {
				return err
			}
			return dynamic.Walk(v, sink)
		}})
}
