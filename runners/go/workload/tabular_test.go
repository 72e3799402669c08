package workload

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// tabularSample fills each cell with probability 0.5, as the Rust generator
// does: UUID-shaped strings, integers over their whole range, floats in
// ±1e6 (f64) and ±1e3 (f32).
func tabularSample[R any](n int, seed uint64) []R {
	r := rand.New(rand.NewPCG(seed, 4))
	out := make([]R, n)
	for i := range out {
		v := reflect.ValueOf(&out[i]).Elem()
		for f := range v.NumField() {
			if r.IntN(2) == 0 {
				continue
			}
			cell := reflect.New(v.Field(f).Type().Elem())
			switch c := cell.Interface().(type) {
			case *string:
				*c = fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", r.Uint32(), r.Uint32()&0xffff, r.Uint32()&0xffff, r.Uint32()&0xffff, r.Uint64()&0xffffffffffff)
			case *int64:
				*c = int64(r.Uint64())
			case *int32:
				*c = int32(r.Uint32())
			case *float64:
				*c = (r.Float64()*2 - 1) * 1e6
			case *float32:
				*c = float32((r.Float64()*2 - 1) * 1e3)
			}
			v.Field(f).Set(cell)
		}
	}
	return out
}

func TestTabularSampleIsCurrentAndAddsUp(t *testing.T) {
	const source = "Go test helper: 100 generated rows, each cell present with probability 0.5 (seed 1)"
	t.Run("mixed", func(t *testing.T) {
		checkSample(t, "../testdata/mixed.jsonl", MixedSpec, source, tabularSample[MixedRow](100, 1))
	})
	t.Run("strings", func(t *testing.T) {
		checkSample(t, "../testdata/strings.jsonl", StringsSpec, source, tabularSample[StringsRow](100, 1))
	})
	t.Run("longs", func(t *testing.T) {
		checkSample(t, "../testdata/longs.jsonl", LongsSpec, source, tabularSample[LongsRow](100, 1))
	})
}
