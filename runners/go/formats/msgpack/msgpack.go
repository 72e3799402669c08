// Package msgpack is github.com/vmihailenco/msgpack/v5, structs as maps
// (field names on the wire, the library's default) or as arrays.
package msgpack

import (
	"io"

	"github.com/vmihailenco/msgpack/v5"

	"shootout/codec"
)

var (
	MapInfo = codec.Info{
		Name: "msgpack-map", Family: "MessagePack", Library: "github.com/vmihailenco/msgpack/v5",
		Framing: codec.FramingU32LE, Wire: "msgpack-map", Labels: codec.OwnedReflection,
		Notes: "structs as maps keyed by field name, integers in their smallest form (UseCompactInts); one Encoder writing into the stream, Unmarshal into a reused, zeroed record; 4-byte LE length prefix." +
			" On iex, serde's shape: the body rmp-serde's enum (a map of one entry, the variant's name to its struct) through the wire structs and methods of formats/iexserde." +
			" On jsonl, its dynamic model: an any tree of int64, uint64, *big.Int and float64 (made before the timed loops), read by Skip (a corrupt length must not size an allocation) then DecodeInterface; map[string]any keeps one value per key, and a *big.Int is written as its text in a bin",
	}
	ArrayInfo = codec.Info{
		Name: "msgpack-array", Family: "MessagePack", Library: "github.com/vmihailenco/msgpack/v5",
		Framing: codec.FramingU32LE, Wire: "msgpack-array", Labels: codec.OwnedReflection,
		Notes: "structs as arrays in field order (UseArrayEncodedStructs), integers in their smallest form (UseCompactInts); one Encoder writing into the stream, Unmarshal into a reused, zeroed record; 4-byte LE length prefix." +
			" On iex, serde's shape: the body rmp-serde's enum (a map of one entry, the variant's name to its struct) through the wire structs and methods of formats/iexserde",
	}
)

// library encodes structs as arrays when array is set, as maps otherwise.
func library(array bool) codec.Library {
	return codec.Library{Append: codec.Streaming(func(w io.Writer) codec.Encoder {
		e := msgpack.NewEncoder(w)
		e.UseArrayEncodedStructs(array)
		// Each integer in its smallest MessagePack form (the library's default is
		// the Go type's width), as rmp-serde and msgp write them: on every
		// workload but iex, the bytes equal Rust's.
		e.UseCompactInts(true)
		return e
	}), Unmarshal: msgpack.Unmarshal}
}

func Map() codec.Library   { return library(false) }
func Array() codec.Library { return library(true) }
