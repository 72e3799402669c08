// Package avro is github.com/hamba/avro/v2: Avro binary datums against the
// workloads' .avsc schemas (generated/avro), parsed at run time.
package avro

import (
	"io"

	"github.com/hamba/avro/v2"

	"shootout/codec"
	schemas "shootout/generated/avro"
)

var Info = codec.Info{
	Name: "avro-hamba", Family: "Avro", Library: "github.com/hamba/avro/v2",
	Framing: codec.FramingU32LE, Wire: "avro", Labels: codec.OwnedReflection,
	Notes: "single datums (no container file, no schema on the wire: both sides know it), against the workload's .avsc; arrays capped at 65,536 elements and written without the optional block byte size; " +
		"one Encoder writing into the stream, Unmarshal into a reused struct, fields matched by their json tags (hamba copies strings into a 1 KiB slab it refills, hence fewer than one allocation per record); 4-byte LE length prefix",
}

// api matches struct fields by the json tags workload's records already
// carry. Arrays are written as the plain item count (no block byte size, which
// the spec makes optional), as Rust's apache-avro writes them: the same bytes. hamba sizes an array by the count the bytes claim, so a corrupt
// count would allocate without bound: arrays are capped at 65,536 elements
// and byte strings at 1 MiB, far above any record of these workloads.
var api = avro.Config{TagKey: "json", MaxSliceAllocSize: 1 << 16, MaxByteSliceSize: 1 << 20, DisableBlockSizeHeader: true}.Freeze()

// recordSchemas are the .avsc of the workloads whose Go records hamba maps
// as they are (by json tags; an optional cell is a ["null", T] union onto a
// pointer field).
var recordSchemas = map[string]string{"user": schemas.User, "sql": schemas.Sql, "primitives": schemas.Primitives,
	"object": schemas.Object, "mixed": schemas.Mixed, "strings": schemas.Strings, "longs": schemas.Longs}

// New is the library as one codec of the workload uses it, against the
// workload's schema.
func New(workload string) codec.Library {
	schema := avro.MustParse(recordSchemas[workload])
	return codec.Library{
		Append:    codec.Streaming(func(w io.Writer) codec.Encoder { return api.NewEncoder(schema, w) }),
		Unmarshal: func(b []byte, v any) error { return api.Unmarshal(schema, b, v) },
	}
}
