package workload

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// The samples of sql, primitives and object: each record shape, with edge
// values (extreme integers, -0.0, empty text and lists, non-ASCII text).

func sqlSample() []SqlRequest {
	study := SqlRequest{Query: "select * from cars where year > ? and seats = ?", Args: []int64{2005, 2}}
	long := SqlRequest{Query: strings.Repeat("select 'é' from t where a in (?)", 20), Args: []int64{math.MinInt64, 0, math.MaxInt64, -1}}
	return []SqlRequest{study, study, {Query: "", Args: []int64{}}, long, study}
}

func primitivesSample(n int, seed uint64) []Primitives {
	r := rand.New(rand.NewPCG(seed, 2))
	out := make([]Primitives, n)
	for i := range out {
		p := Primitives{Ints: make([]int32, 8), Longs: make([]int64, 8), Doubles: make([]float64, 8), Booleans: make([]bool, 8), Strings: make([]string, 8)}
		for j := range 8 {
			p.Ints[j], p.Longs[j] = int32(r.Uint32()), int64(r.Uint64())
			p.Doubles[j], p.Booleans[j] = (r.Float64()-0.5)*math.Pow(10, float64(r.IntN(40)-20)), r.IntN(2) == 1
			p.Strings[j] = fmt.Sprintf("s%d-%x", j, r.Uint32())
		}
		out[i] = p
	}
	out[0].Ints[0], out[0].Longs[0], out[0].Doubles[0], out[0].Strings[0] = math.MinInt32, math.MaxInt64, math.Copysign(0, -1), "ünï"
	out[1].Doubles[1] = math.MaxFloat64
	return out
}

func objectSample(n int, seed uint64) []SmallObject {
	r := rand.New(rand.NewPCG(seed, 3))
	out := make([]SmallObject, n)
	for i := range out {
		tags := make([]string, r.IntN(4))
		for j := range tags {
			tags[j] = fmt.Sprintf("tag%d", r.IntN(100))
		}
		out[i] = SmallObject{ID: r.Int64(), Name: fmt.Sprintf("name %d", i), Email: fmt.Sprintf("user%d@example.com", i), Age: int32(r.IntN(100)),
			Score: r.Float64() * 100, Ratio: r.Float32(), Active: r.IntN(2) == 1, Level: uint8(r.IntN(256)), CreatedAt: 1_600_000_000_000 + r.Int64N(1e11), Tags: tags}
	}
	out[0].Score, out[0].Ratio, out[0].Level = math.Copysign(0, -1), float32(math.Copysign(0, -1)), 255
	out[1].Ratio = math.MaxFloat32
	return out
}

func checkSample[R any](t *testing.T, path string, spec Spec[R, *FieldSink], source string, records []R) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteDataset(&buf, spec, source, records); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, buf.Bytes()) {
		t.Fatalf("%s is stale: go test ./workload -run SampleIsCurrent -update", path)
	}
	r, err := OpenDataset(path, spec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	read, err := r.Next(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	check, err := spec.Checker(r.Header.Reference)
	if err != nil {
		t.Fatal(err)
	}
	sink := spec.NewSink()
	for i := range read {
		spec.Feed(&read[i], sink)
	}
	if d := check(sink); d != "" {
		t.Fatalf("the sample read back does not add up to its reference: %s", d)
	}
}

func TestRecordSampleIsCurrentAndAddsUp(t *testing.T) {
	t.Run("sql", func(t *testing.T) {
		checkSample(t, "../testdata/sql.jsonl", SqlSpec, "Go test helper: the study's request, an empty and a long one", sqlSample())
	})
	t.Run("primitives", func(t *testing.T) {
		checkSample(t, "../testdata/primitives.jsonl", PrimitivesSpec, "Go test helper: 50 generated records (seed 1)", primitivesSample(50, 1))
	})
	t.Run("object", func(t *testing.T) {
		checkSample(t, "../testdata/object.jsonl", ObjectSpec, "Go test helper: 50 generated records (seed 1)", objectSample(50, 1))
	})
}
