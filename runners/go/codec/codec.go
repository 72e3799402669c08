// Package codec is the one small interface every format implements, per
// workload, and the metadata that travels with its numbers.
package codec

import (
	"encoding/binary"
	"fmt"
)

// Codec encodes records of type R into a stream and decodes them back into a
// workload sink S.
type Codec[R any, S any] interface {
	// Encode appends one record to stream, framed by the format's own framing
	// or, where it has none, a 4-byte little-endian length prefix.
	Encode(stream []byte, r *R) ([]byte, error)
	// Decode reads the record at the start of stream into sink and returns the
	// bytes it used. Garbage or truncated bytes are an error, never a panic.
	Decode(stream []byte, sink S) (int, error)
}

// Labels say how a codec uses its library (the results schema's `labels`).
type Labels struct {
	BufferReuse bool `json:"buffer_reuse"`
	// "zero-copy" (fields read in place) or "owned" (decoded into values).
	Decode string `json:"decode"`
	// "validated" (the library checks the bytes) or "unchecked".
	Access string `json:"access"`
	// "reflection" (struct tags, read at run time), "generated" (code from a
	// schema or from the Go type), "manual" (written by hand) or "dynamic"
	// (the library's runtime API over a schema read at run time); the Rust
	// runner's "native"/"serde".
	API   string  `json:"api"`
	Lossy *string `json:"lossy"`
}

// Tags are the labels as the short words tables print.
func (l Labels) Tags() []string {
	tags := []string{}
	if l.BufferReuse {
		tags = append(tags, "reuse")
	}
	tags = append(tags, l.Decode, l.Access, l.API)
	if l.Lossy != nil {
		tags = append(tags, "lossy")
	}
	return tags
}

// The label sets several codecs share: in each the library checks the bytes
// it decodes, and all but OwnedReflectionNoReuse encode into a reused buffer.
var (
	// OwnedReflection: a reflection-based library decoding into owned values.
	OwnedReflection = Labels{BufferReuse: true, Decode: "owned", Access: "validated", API: "reflection"}
	// OwnedGenerated: generated code decoding into owned values.
	OwnedGenerated = Labels{BufferReuse: true, Decode: "owned", Access: "validated", API: "generated"}
	// OwnedManual: serializers written by hand over the library's own,
	// decoding into owned values.
	OwnedManual = Labels{BufferReuse: true, Decode: "owned", Access: "validated", API: "manual"}
	// OwnedReflectionNoReuse: as OwnedReflection, but the library makes a
	// new buffer per record.
	OwnedReflectionNoReuse = Labels{BufferReuse: false, Decode: "owned", Access: "validated", API: "reflection"}
	// ZeroCopyGenerated: generated accessors reading fields in place.
	ZeroCopyGenerated = Labels{BufferReuse: true, Decode: "zero-copy", Access: "validated", API: "generated"}
	// OwnedDynamic: the library's runtime API (dynamic messages, generic
	// records) over a schema it reads at run time, decoding into owned
	// values.
	OwnedDynamic = Labels{BufferReuse: true, Decode: "owned", Access: "validated", API: "dynamic"}
)

// Info is one registry line's metadata.
type Info struct {
	Name   string
	Family string
	// Library is the Go module path (or "std"); its version comes from the
	// build info, so it is the one actually linked.
	Library string
	Labels  Labels
	Notes   string
	// Framing is how the codec delimits a record in its stream: one of the
	// Framing* constants (the interop protocol's manifest field).
	Framing string
	// Wire is the wire format it writes, as spec/formats.json names it:
	// formats of any language with the same wire read each other's records.
	Wire string
}

// The framings a codec can have (docs of shootout-interop/1): a prefix the
// codec adds before each record's body, or none when the body is the
// format's self-delimiting message as is.
const (
	// FramingU32LE is Reserve/Seal's 4-byte little-endian length prefix.
	FramingU32LE = "u32le"
	// FramingVarint is protobuf's base-128 varint length prefix.
	FramingVarint = "varint"
	// FramingNone: no prefix; the message delimits itself.
	FramingNone = "none"
)

const prefix = 4

// Reserve appends a placeholder length prefix; Seal fills it in once the body
// after it is written. Together they frame a record without copying it.
func Reserve(stream []byte) ([]byte, int) {
	return append(stream, 0, 0, 0, 0), len(stream)
}

// Seal writes the length of the body that starts after the prefix at at.
func Seal(stream []byte, at int) ([]byte, error) {
	n := len(stream) - at - prefix
	if uint64(n) > 0xffff_ffff {
		return stream, fmt.Errorf("record of %d bytes does not fit a 4-byte length prefix", n)
	}
	binary.LittleEndian.PutUint32(stream[at:], uint32(n))
	return stream, nil
}

// Frame returns the body of the length-prefixed record at the start of stream
// and the bytes it occupies, prefix included.
func Frame(stream []byte) ([]byte, int, error) {
	if len(stream) < prefix {
		return nil, 0, fmt.Errorf("truncated length prefix: %d bytes left", len(stream))
	}
	n := uint64(binary.LittleEndian.Uint32(stream))
	if n > uint64(len(stream)-prefix) {
		return nil, 0, fmt.Errorf("length prefix says %d bytes, %d left", n, len(stream)-prefix)
	}
	return stream[prefix : prefix+int(n)], prefix + int(n), nil
}

// Preparer is a codec that encodes a model of its library's own made from
// each record rather than the record itself (on jsonl, the library's dynamic
// value: its any tree, a bson.D). The harness calls Prepare on each window
// it has read, before each of the codec's passes over it and outside every
// timed loop, so the encode passes time the library's encoding alone; a
// codec that was not prepared (interop, tests) makes the models as it
// encodes.
type Preparer[R any] interface {
	Prepare(records []R)
}
