// Package bson is the MongoDB Go driver's BSON (go.mongodb.org/mongo-driver/v2/bson).
package bson

import (
	"encoding/binary"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"shootout/codec"
	"shootout/workload"
)

var Info = codec.Info{
	Name: "bson", Family: "BSON", Library: "go.mongodb.org/mongo-driver/v2",
	Labels: codec.Labels{BufferReuse: false, Decode: "owned", Access: "validated", API: "reflection"},
	Notes: "a BSON document's own int32 length is the framing; bson.Marshal (a new slice per record, copied into the stream: " +
		"the driver has no append API) and bson.Unmarshal into a reused struct. int64 fields stay int64",
}

type userCodec struct{ rec workload.User }

func User() codec.Codec[workload.User, *workload.FieldSink] { return &userCodec{} }

func (c *userCodec) Encode(stream []byte, u *workload.User) ([]byte, error) {
	doc, err := bson.Marshal(u)
	if err != nil {
		return stream, err
	}
	return append(stream, doc...), nil
}

func (c *userCodec) Decode(stream []byte, s *workload.FieldSink) (int, error) {
	if len(stream) < 5 {
		return 0, fmt.Errorf("bson: %d bytes cannot hold a document", len(stream))
	}
	n := int(int32(binary.LittleEndian.Uint32(stream)))
	if n < 5 || n > len(stream) {
		return 0, fmt.Errorf("bson: document length %d, %d bytes left", n, len(stream))
	}
	c.rec = workload.User{}
	if err := bson.Unmarshal(stream[:n], &c.rec); err != nil {
		return 0, err
	}
	c.rec.Visit(s)
	return n, nil
}
