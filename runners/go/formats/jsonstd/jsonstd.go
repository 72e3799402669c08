// Package jsonstd is encoding/json, the study's baseline.
package jsonstd

import (
	"encoding/json"

	"shootout/codec"
	"shootout/workload"
)

var Info = codec.Info{
	Name: "json-std", Family: "JSON", Library: "std",
	Labels: codec.Labels{BufferReuse: true, Decode: "owned", Access: "validated", API: "reflection"},
	Notes:  "encoding/json: one json.Encoder writing into the stream (its trailing newline is part of the record), json.Unmarshal into a reused struct; 4-byte LE length prefix",
}

type enc[R any] struct {
	out *codec.Appender
	e   *json.Encoder
}

func newEnc[R any]() *enc[R] {
	out := &codec.Appender{}
	return &enc[R]{out: out, e: json.NewEncoder(out)}
}

func (e *enc[R]) append(dst []byte, r *R) ([]byte, error) {
	e.out.B = dst
	err := e.e.Encode(r)
	return e.out.B, err
}

func unmarshal[R any](b []byte, r *R) error { return json.Unmarshal(b, r) }

func User() codec.Codec[workload.User, *workload.FieldSink] {
	return &codec.Owned[workload.User, *workload.FieldSink]{Append: newEnc[workload.User]().append, Unmarshal: unmarshal[workload.User], Feed: (*workload.User).Visit}
}
