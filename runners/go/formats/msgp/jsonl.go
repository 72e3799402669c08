package msgp

import (
	"fmt"

	"github.com/tinylib/msgp/msgp"

	"shootout/codec"
	"shootout/formats/dynamic"
	"shootout/workload"
)

// Jsonl is msgp's dynamic API on the jsonl workload (it generates no code
// for an any): an any tree with Go's number types (dynamic.GoTree) appended
// by AppendIntf, read back by ReadIntfBytes (maps as map[string]any, signed
// integers int64, unsigned uint64). A MessagePack value delimits itself:
// msgp.Skip finds the record's end, walking it before ReadIntfBytes sizes
// anything by the lengths it claims.
func Jsonl() codec.Codec[workload.JSONRecord, *workload.JSONSink] {
	return dynamic.New(dynamic.Library{Model: dynamic.GoTree, Append: msgp.AppendIntf,
		Delimit: func(stream []byte) (int, error) {
			rest, err := msgp.Skip(stream)
			if err != nil {
				return 0, err
			}
			return len(stream) - len(rest), nil
		},
		Read: func(body []byte, sink *workload.JSONSink) error {
			v, rest, err := msgp.ReadIntfBytes(body)
			if err != nil {
				return err
			}
			if len(rest) > 0 {
				return fmt.Errorf("%d bytes after the MessagePack value", len(rest))
			}
			return dynamic.Walk(v, sink)
		}})
}
