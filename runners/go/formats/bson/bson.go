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
	Framing: codec.FramingNone, Wire: "bson", Labels: codec.OwnedReflectionNoReuse,
	Notes: "a BSON document's own int32 length is the framing; bson.Marshal (a new slice per record, copied into the stream: " +
		"the driver has no append API) and bson.Unmarshal into a reused, zeroed record. Keys are the serde field names (bson tags where a Go name lower-cased would differ, as created_at). " +
		"On jsonl, the driver's ordered model: a bson.D (every member, duplicates kept) of bson.A, int64, uint64, *big.Int and float64, made before the timed loops, Unmarshal into a bson.D; a record that is not an object, a uint64 above 2^63-1 and a NUL in a key are the encoder's errors, and a *big.Int is written as an empty document",
}

func New() codec.Library {
	return codec.Library{
		Append: func(dst []byte, v any) ([]byte, error) {
			doc, err := bson.Marshal(v)
			if err != nil {
				return dst, err
			}
			return append(dst, doc...), nil
		},
		Unmarshal: bson.Unmarshal,
		Delimit:   documentLength,
	}
}

// documentLength is the length of the BSON document at the start of stream,
// its first four bytes.
func documentLength(stream []byte) (int, error) {
	if len(stream) < 5 {
		return 0, fmt.Errorf("bson: %d bytes cannot hold a document", len(stream))
	}
	n := int(int32(binary.LittleEndian.Uint32(stream)))
	if n < 5 || n > len(stream) {
		return 0, fmt.Errorf("bson: document length %d, %d bytes left", n, len(stream))
	}
	return n, nil
}
