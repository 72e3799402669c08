package flatbuf

import (
	"testing"

	"shootout/workload"
)

// A reused codec keeps its builder and its scratch slice of string offsets:
// once warm, encoding a record with string vectors allocates nothing.
func TestEncodingStringVectorsAllocatesNothingOnceWarm(t *testing.T) {
	primitives := Primitives()
	p := &workload.Primitives{Ints: []int32{1}, Longs: []int64{2}, Doubles: []float64{3}, Booleans: []bool{true}, Strings: make([]string, 40)}
	object := Object()
	o := &workload.SmallObject{ID: 1, Name: "n", Email: "e", Tags: make([]string, 40)}
	stream := make([]byte, 0, 1<<16)
	for name, encode := range map[string]func() error{
		"primitives": func() (err error) { _, err = primitives.Encode(stream[:0], p); return },
		"object":     func() (err error) { _, err = object.Encode(stream[:0], o); return },
	} {
		if err := encode(); err != nil {
			t.Fatal(name, err)
		}
		if allocs := testing.AllocsPerRun(100, func() { _ = encode() }); allocs != 0 {
			t.Errorf("%s: %.1f allocations per encode once warm, want 0", name, allocs)
		}
	}
}
