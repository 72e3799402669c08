// Package bson is the MongoDB Go driver's BSON (go.mongodb.org/mongo-driver/v2/bson).
package bson

import (
	"encoding/binary"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"shootout/codec"
)

var Info = codec.Info{
	Name: "bson", Family: "BSON", Library: "go.mongodb.org/mongo-driver/v2",
	Framing: codec.FramingNone,
	Labels:  codec.Labels{BufferReuse: false, Decode: "owned", Access: "validated", API: "reflection"},
	Notes: "a BSON document's own int32 length is the framing; bson.Marshal (a new slice per record, copied into the stream: " +
		"the driver has no append API) and bson.Unmarshal into a reused, zeroed record. Keys are the serde field names (bson tags where a Go name lower-cased would differ, as created_at)",
}

type bsonCodec[R, S any] struct {
	rec  R
	feed func(*R, S)
}

func New[R, S any](feed func(*R, S)) codec.Codec[R, S] { return &bsonCodec[R, S]{feed: feed} }

func (c *bsonCodec[R, S]) Encode(stream []byte, r *R) ([]byte, error) {
	doc, err := bson.Marshal(r)
	if err != nil {
		return stream, err
	}
	return append(stream, doc...), nil
}

func (c *bsonCodec[R, S]) Decode(stream []byte, s S) (int, error) {
	if len(stream) < 5 {
		return 0, fmt.Errorf("bson: %d bytes cannot hold a document", len(stream))
	}
	n := int(int32(binary.LittleEndian.Uint32(stream)))
	if n < 5 || n > len(stream) {
		return 0, fmt.Errorf("bson: document length %d, %d bytes left", n, len(stream))
	}
	var zero R
	c.rec = zero
	if err := bson.Unmarshal(stream[:n], &c.rec); err != nil {
		return 0, err
	}
	c.feed(&c.rec, s)
	return n, nil
}
