// Package sonic is github.com/bytedance/sonic, a JIT/SIMD JSON library.
package sonic

import (
	"github.com/bytedance/sonic"
	"github.com/bytedance/sonic/encoder"

	"shootout/codec"
	"shootout/workload"
)

var Info = codec.Info{
	Name: "json-sonic", Family: "JSON", Library: "github.com/bytedance/sonic",
	Labels: codec.Labels{BufferReuse: true, Decode: "owned", Access: "validated", API: "reflection"},
	Notes:  "encoder.EncodeInto appends to the stream; sonic.Unmarshal (ConfigDefault) into a reused struct; 4-byte LE length prefix. On a CPU or Go version sonic's JIT does not support it falls back to encoding/json",
}

func appendUser(dst []byte, r *workload.User) ([]byte, error) {
	err := encoder.EncodeInto(&dst, r, 0)
	return dst, err
}

func User() codec.Codec[workload.User, *workload.FieldSink] {
	return &codec.Owned[workload.User, *workload.FieldSink]{Append: appendUser,
		Unmarshal: func(b []byte, r *workload.User) error { return sonic.Unmarshal(b, r) }, Feed: (*workload.User).Visit}
}
