package msgpack

import (
	"bytes"
	"fmt"

	"github.com/vmihailenco/msgpack/v5"

	"shootout/codec"
	"shootout/formats/dynamic"
	"shootout/workload"
)

// Jsonl is vmihailenco's dynamic model on the jsonl workload: an any tree
// with Go's number types (dynamic.GoTree), written by the same Encoder as
// every msgpack-map record (integers in their smallest form), read by
// DecodeInterface (maps as map[string]any, each integer in the type its
// MessagePack form names). The record is walked with Skip first: an any's
// arrays and maps are made at the length the bytes claim, so a corrupt
// length would size an allocation beyond the bytes there; Skip also checks
// that the value ends where the record does.
func Jsonl() codec.Codec[workload.JSONRecord, *workload.JSONSink] {
	var in bytes.Reader
	d := msgpack.NewDecoder(&in)
	return dynamic.New(dynamic.Library{Model: dynamic.GoTree, Append: Map().Append,
		Read: func(body []byte, sink *workload.JSONSink) error {
			in.Reset(body)
			d.Reset(&in)
			if err := d.Skip(); err != nil {
				return err
			}
			if in.Len() > 0 {
				return fmt.Errorf("%d bytes after the MessagePack value", in.Len())
			}
			in.Reset(body)
			d.Reset(&in)
			v, err := d.DecodeInterface()
			if err != nil {
				return err
			}
			return dynamic.Walk(v, sink)
		}})
}
