// Package codecbench measures a codec with go test's benchmarks the way the
// harness uses it: one reused codec, records in order, one record per op.
package codecbench

import (
	"testing"

	"shootout/codec"
)

// Encode is a benchmark of c appending records, in order, to one reused
// stream (emptied after each pass over them).
func Encode[R, S any](c codec.Codec[R, S], records []R) func(*testing.B) {
	return func(b *testing.B) {
		var stream []byte
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if i%len(records) == 0 {
				stream = stream[:0]
			}
			var err error
			if stream, err = c.Encode(stream, &records[i%len(records)]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// Decode is a benchmark of c reading the stream it writes of records, in
// order and again from the start, into sink.
func Decode[R, S any](c codec.Codec[R, S], records []R, sink S) func(*testing.B) {
	return func(b *testing.B) {
		stream, err := Stream(c, records)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for off := 0; b.Loop(); {
			if off == len(stream) {
				off = 0
			}
			used, err := c.Decode(stream[off:], sink)
			if err != nil {
				b.Fatal(err)
			}
			off += used
		}
	}
}

// Stream is records encoded by c, one after another.
func Stream[R, S any](c codec.Codec[R, S], records []R) ([]byte, error) {
	var stream []byte
	for i := range records {
		var err error
		if stream, err = c.Encode(stream, &records[i]); err != nil {
			return nil, err
		}
	}
	return stream, nil
}
