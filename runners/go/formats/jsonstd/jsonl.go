package jsonstd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"shootout/codec"
	"shootout/formats/dynamic"
	"shootout/workload"
)

// Jsonl is encoding/json's dynamic model on the jsonl workload: an any tree
// whose numbers are json.Number (dynamic.NumberTree), written by the same
// Encoder as every json-std record (maps with their keys sorted, as
// encoding/json writes them) and read by a Decoder with UseNumber, the
// documented way to keep every number exact: json.Unmarshal has no such
// option and would read each number as a float64.
func Jsonl() codec.Codec[workload.JSONRecord, *workload.JSONSink] {
	return dynamic.New(dynamic.Library{Model: dynamic.NumberTree, Append: New().Append, Read: ReadNumbers(json.NewDecoder)})
}

// NumberDecoder is a Decoder with encoding/json's API (goccy's has it).
type NumberDecoder interface {
	UseNumber()
	Decode(v any) error
	InputOffset() int64
}

// ReadNumbers reads a record with a new Decoder (the API makes one per
// input) that keeps numbers as json.Number, and walks the any tree it
// decodes into. Only whitespace may follow the value: a Decoder reads a
// stream of values and would leave the rest unread.
func ReadNumbers[D NumberDecoder](newDecoder func(io.Reader) D) func([]byte, *workload.JSONSink) error {
	var in bytes.Reader
	return func(body []byte, sink *workload.JSONSink) error {
		in.Reset(body)
		d := newDecoder(&in)
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			return err
		}
		if rest := bytes.TrimLeft(body[d.InputOffset():], " \t\r\n"); len(rest) > 0 {
			return fmt.Errorf("%d bytes after the JSON value", len(rest))
		}
		return dynamic.Walk(v, sink)
	}
}
