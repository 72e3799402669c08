// Package avro is github.com/hamba/avro/v2: Avro binary datums against the
// workloads' .avsc schemas (generated/avro), parsed at run time.
package avro

import (
	"github.com/hamba/avro/v2"

	"shootout/codec"
	schemas "shootout/generated/avro"
	"shootout/workload"
)

var Info = codec.Info{
	Name: "avro-hamba", Family: "Avro", Library: "github.com/hamba/avro/v2",
	Framing: codec.FramingU32LE,
	Labels:  codec.Labels{BufferReuse: true, Decode: "owned", Access: "validated", API: "reflection"},
	Notes: "single datums (no container file, no schema on the wire: both sides know it), against the workload's .avsc; arrays capped at 65,536 elements and written without the optional block byte size; " +
		"one Encoder writing into the stream, Unmarshal into a reused struct, fields matched by their json tags (hamba copies strings into a 1 KiB slab it refills, hence fewer than one allocation per record); 4-byte LE length prefix",
}

// api matches struct fields by the json tags workload's records already
// carry. Arrays are written as the plain item count (no block byte size, which
// the spec makes optional), as Rust's apache-avro writes them: the same bytes. hamba sizes an array by the count the bytes claim, so a corrupt
// count would allocate without bound: arrays are capped at 65,536 elements
// and byte strings at 1 MiB, far above any record of these workloads.
var api = avro.Config{TagKey: "json", MaxSliceAllocSize: 1 << 16, MaxByteSliceSize: 1 << 20, DisableBlockSizeHeader: true}.Freeze()

type enc struct {
	out *codec.Appender
	e   *avro.Encoder
}

func (e *enc) append(dst []byte, u *workload.User) ([]byte, error) {
	e.out.B = dst
	err := e.e.Encode(u)
	return e.out.B, err
}

func User() codec.Codec[workload.User, *workload.FieldSink] {
	schema := avro.MustParse(schemas.User)
	out := &codec.Appender{}
	e := &enc{out: out, e: api.NewEncoder(schema, out)}
	return &codec.Owned[workload.User, *workload.FieldSink]{Append: e.append,
		Unmarshal: func(b []byte, u *workload.User) error { return api.Unmarshal(schema, b, u) }, Feed: (*workload.User).Visit}
}
