package registry

import (
	"encoding/json"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"shootout/formats/flatbuf"
	"shootout/generated/flatbuffers/shootout/records"
	"shootout/workload"
)

// BenchmarkUser measures every format on the fixture's UserResponse records
// through the codec interface, one record per op, as the harness does
// (reused codec and stream; decode includes the aggregate).
func BenchmarkUser(b *testing.B) {
	recs, _ := fixture(b, workload.UserSpec)
	for _, e := range entriesOf(workload.UserSpec) {
		c := e.New()
		var stream []byte
		b.Run(e.Info.Name+"/encode", func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if i%len(recs) == 0 {
					stream = stream[:0]
				}
				var err error
				if stream, err = c.Encode(stream, &recs[i%len(recs)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		stream = stream[:0]
		for i := range recs {
			stream, _ = c.Encode(stream, &recs[i])
		}
		b.Run(e.Info.Name+"/decode", func(b *testing.B) {
			b.ReportAllocs()
			sink := workload.UserSpec.NewSink()
			off := 0
			for b.Loop() {
				if off == len(stream) {
					off = 0
				}
				used, err := c.Decode(stream[off:], sink)
				if err != nil {
					b.Fatal(err)
				}
				off += used
			}
		})
	}
}

// The Go study's exact pair, as it measured them: a fresh builder or a
// json.Marshal per record, and unmarshalling into the application's own
// struct, one record reused.

func BenchmarkStudyJSONMarshal(b *testing.B) {
	recs, _ := fixture(b, workload.UserSpec)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(&recs[0]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStudyJSONUnmarshal(b *testing.B) {
	recs, _ := fixture(b, workload.UserSpec)
	data, _ := json.Marshal(&recs[0])
	b.ReportAllocs()
	for b.Loop() {
		var u workload.User
		if err := json.Unmarshal(data, &u); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStudyFlatBuffersMarshal(b *testing.B) {
	recs, _ := fixture(b, workload.UserSpec)
	b.ReportAllocs()
	for b.Loop() {
		flatbuf.BuildUser(flatbuffers.NewBuilder(0), &recs[0])
	}
}

func BenchmarkStudyFlatBuffersUnmarshalOwnStruct(b *testing.B) {
	recs, _ := fixture(b, workload.UserSpec)
	data := flatbuf.BuildUser(flatbuffers.NewBuilder(0), &recs[0])
	b.ReportAllocs()
	for b.Loop() {
		var u workload.User
		flatbuf.CopyUser(records.GetSizePrefixedRootAsUserResponse(data, 0), &u)
	}
}
