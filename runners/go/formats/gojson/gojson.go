// Package gojson is github.com/goccy/go-json, a drop-in encoding/json.
package gojson

import (
	json "github.com/goccy/go-json"

	"shootout/codec"
	"shootout/workload"
)

var Info = codec.Info{
	Name: "json-goccy", Family: "JSON", Library: "github.com/goccy/go-json",
	Labels: codec.Labels{BufferReuse: true, Decode: "owned", Access: "validated", API: "reflection"},
	Notes:  "one Encoder writing into the stream (trailing newline included), Unmarshal into a reused struct; 4-byte LE length prefix",
}

type enc struct {
	out *codec.Appender
	e   *json.Encoder
}

func (e *enc) append(dst []byte, r *workload.User) ([]byte, error) {
	e.out.B = dst
	err := e.e.Encode(r)
	return e.out.B, err
}

func User() codec.Codec[workload.User, *workload.FieldSink] {
	out := &codec.Appender{}
	e := &enc{out: out, e: json.NewEncoder(out)}
	return &codec.Owned[workload.User, *workload.FieldSink]{Append: e.append,
		Unmarshal: func(b []byte, r *workload.User) error { return json.Unmarshal(b, r) }, Feed: (*workload.User).Visit}
}
