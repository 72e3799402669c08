package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"shootout/codec"
	"shootout/harness"
	"shootout/internal/workloadtest"
	"shootout/workload"
)

// knownLosses are library behaviours the edge values below expose: each must
// still show as this difference (in the harness, the format is listed as
// failed on that workload with it), so a library that fixes it fails this
// test and the entry goes. fixtureLosses are those the fixtures show.
var (
	fixtureLosses = map[string]string{"object/sbe": knownLosses["object/sbe"]}
	knownLosses   = map[string]string{
		"primitives/json-sonic": "field doubles",                         // -0.0 comes back as +0.0
		"object/json-sonic":     "field score",                           // likewise
		"object/gob":            "field score",                           // gob omits a zero float, and -0.0 == 0
		"object/vtprotobuf":     "field score",                           // likewise a proto3 double equal to 0 (protobuf-go writes -0.0's bits)
		"object/json-goccy":     "cannot unmarshal number 3.4028235e+38", // rejects the largest float32
		// SBE reserves a null value per type, outside a required field's range:
		// the range check rejects u8 255, i32 -2^31 and i64 -2^63.
		"object/sbe":     "Range check failed on s.Level",
		"primitives/sbe": "Range check failed on p.Value",
		"sql/sbe":        "Range check failed on s.Value",
	}
)

// trip encodes records twice over one codec (reused builders and buffers
// must not leak one stream's state into the next) and checks each decode.
func trip[R, S any](c codec.Codec[R, S], spec workload.Spec[R, S], records []R, check func(S) string) error {
	var stream []byte
	var err error
	for range 2 {
		stream = stream[:0]
		for i := range records {
			if stream, err = c.Encode(stream, &records[i]); err != nil {
				return fmt.Errorf("record %d: %w", i, err)
			}
		}
		if err := decodeAll(c, spec, stream, check); err != nil {
			return err
		}
	}
	return nil
}

// decodeAll decodes every record of stream with c and checks what they add up to.
func decodeAll[R, S any](c codec.Codec[R, S], spec workload.Spec[R, S], stream []byte, check func(S) string) error {
	sink := spec.NewSink()
	for off, n := 0, 0; off < len(stream); n++ {
		used, err := c.Decode(stream[off:], sink)
		if err != nil {
			return fmt.Errorf("record %d at byte %d: %w", n, off, err)
		}
		off += used
	}
	if d := check(sink); d != "" {
		return errors.New(d)
	}
	return nil
}

func roundTrip[R, S any](t *testing.T, entries []harness.Entry[R, S], spec workload.Spec[R, S], records []R, check func(S) string, losses map[string]string) {
	for _, e := range entries {
		t.Run(e.Info.Name, func(t *testing.T) {
			err := trip(e.New(), spec, records, check)
			switch want, known := losses[spec.Name+"/"+e.Info.Name]; {
			case known && (err == nil || !strings.Contains(err.Error(), want)):
				t.Fatalf("known loss %q no longer shows; got %v", want, err)
			case !known && err != nil:
				t.Fatal(err)
			}
		})
	}
}

// corrupt truncates and damages the first record the codec can encode.
func corrupt[R, S any](t *testing.T, entries []harness.Entry[R, S], spec workload.Spec[R, S], records []R) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, e := range entries {
		t.Run(e.Info.Name, func(t *testing.T) {
			var one []byte
			err := errors.New("no record")
			for i := 0; i < len(records) && err != nil; i++ {
				one, err = e.New().Encode(nil, &records[i])
			}
			if err != nil {
				t.Fatal(err)
			}
			for n := range len(one) {
				if _, err := e.New().Decode(one[:n], spec.NewSink()); err == nil {
					t.Fatalf("decoding the first %d of %d bytes succeeded", n, len(one))
				}
			}
			// A corrupt byte may decode to other values; it must never panic.
			for i := range len(one) {
				for _, b := range []byte{0, 0xff, byte(rng.Uint32())} {
					bad := append([]byte(nil), one...)
					bad[i] = b
					if used, err := e.New().Decode(bad, spec.NewSink()); err == nil && (used <= 0 || used > len(bad)) {
						t.Fatalf("byte %d = %#x: decode reported %d bytes used of %d", i, b, used, len(bad))
					}
				}
			}
		})
	}
}

// crossRead decodes, with every other format of the same wire and framing,
// the stream each format writes of the fixture (json-std's is read by
// json-v2, protobuf's by vtprotobuf, and each the other way).
func crossRead[R, S any](t *testing.T, entries []harness.Entry[R, S], spec workload.Spec[R, S], records []R, check func(S) string) {
	for _, writer := range entries {
		readers := slices.DeleteFunc(slices.Clone(entries), func(reader harness.Entry[R, S]) bool {
			return reader.Info.Name == writer.Info.Name || reader.Info.Wire != writer.Info.Wire || reader.Info.Framing != writer.Info.Framing
		})
		if len(readers) == 0 {
			continue
		}
		var stream []byte
		var err error
		encoder := writer.New()
		for i := range records {
			if stream, err = encoder.Encode(stream, &records[i]); err != nil {
				t.Fatalf("%s: record %d: %v", writer.Info.Name, i, err)
			}
		}
		for _, reader := range readers {
			t.Run(writer.Info.Name+"/"+reader.Info.Name, func(t *testing.T) {
				if err := decodeAll(reader.New(), spec, stream, check); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// workloadTests binds the typed tests to each workload's record and sink
// types: its fixture, and the edge values the fixture lacks.
type workloadTests struct {
	name      string
	fixture   func(t *testing.T)
	crossRead func(t *testing.T)
	edges     func(t *testing.T)
	corrupted func(t *testing.T)
}

func typed[R, S any](spec workload.Spec[R, S], edges ...R) workloadTests {
	return workloadTests{
		name: spec.Name,
		fixture: func(t *testing.T) {
			records, check := workloadtest.Fixture(t, spec)
			roundTrip(t, Entries(spec), spec, records, check, fixtureLosses)
		},
		crossRead: func(t *testing.T) {
			records, check := workloadtest.Fixture(t, spec)
			crossRead(t, Entries(spec), spec, records, check)
		},
		edges: func(t *testing.T) {
			roundTrip(t, Entries(spec), spec, edges, referenceOf(t, spec, edges), knownLosses)
		},
		corrupted: func(t *testing.T) {
			records, _ := workloadtest.Fixture(t, spec)
			corrupt(t, Entries(spec), spec, records)
		},
	}
}

// referenceOf checks a sink against what records add up to.
func referenceOf[R, S any](t *testing.T, spec workload.Spec[R, S], records []R) func(S) string {
	sink := spec.NewSink()
	for i := range records {
		spec.Feed(&records[i], sink)
	}
	reference, err := json.Marshal(spec.Reference(sink))
	if err != nil {
		t.Fatal(err)
	}
	check, err := spec.Checker(reference)
	if err != nil {
		t.Fatal(err)
	}
	return check
}

var (
	negativeZero = math.Copysign(0, -1)
	longQuery    = strings.Repeat("select 'é' from t where a in (?)", 20)
)

// The edge values: extreme integers, -0.0, the largest floats, empty and
// non-ASCII text, empty lists, a sequence number that wraps the sum, a price
// with the top bit set (negative as the i64 the bid/ask bounds use), rows
// without a cell.
var workloads = []workloadTests{
	typed(workload.IexSpec,
		workload.MultiMessage{SeqNo: math.MaxUint64 - 2, Messages: []workload.Message{
			{TS: 1, Symbol: "AAPL", Kind: workload.LevelUpdate, Price: 1<<63 + 5, Size: 100, Flags: 1, Side: workload.Buy},
			{TS: 2, Symbol: "ZVZZT", Kind: workload.Trade, Price: 1_000_000, Size: 4096}}},
		workload.MultiMessage{SeqNo: 7, Messages: []workload.Message{{TS: -1, Symbol: "A", Kind: workload.LevelUpdate, Side: workload.Sell}}}),
	typed(workload.UserSpec, workload.User{UID: math.MaxInt64, Status: "ünï", Nickname: "日本語のテキスト", TotalLoginNum: -1}),
	typed(workload.SqlSpec, workload.SqlRequest{Args: []int64{}},
		workload.SqlRequest{Query: longQuery, Args: []int64{math.MinInt64, 0, math.MaxInt64, -1}}),
	typed(workload.PrimitivesSpec, workload.Primitives{},
		workload.Primitives{Ints: []int32{math.MinInt32, math.MaxInt32}, Longs: []int64{math.MaxInt64}, Doubles: []float64{negativeZero, math.MaxFloat64},
			Booleans: []bool{true, false}, Strings: []string{"ünï", ""}}),
	typed(workload.ObjectSpec, workload.SmallObject{Name: "ünï", Score: negativeZero, Ratio: float32(negativeZero), Level: 255, Tags: []string{}},
		workload.SmallObject{ID: math.MinInt64 + 1, Ratio: math.MaxFloat32, Tags: []string{"", "日本"}}),
	typed(workload.MixedSpec, workload.MixedRow{}),
	typed(workload.StringsSpec, workload.StringsRow{}),
	typed(workload.LongsSpec, workload.LongsRow{}),
	jsonlTests(workload.JSONLSpec),
	jsonlTests(workload.CSVSpec),
}

func TestEveryCodecRoundTripsTheFixturesExactly(t *testing.T) {
	for _, w := range workloads {
		t.Run(w.name, w.fixture)
	}
}

func TestFormatsOfOneWireAndFramingReadEachOthersFixtureStreams(t *testing.T) {
	for _, w := range workloads {
		t.Run(w.name, w.crossRead)
	}
}

func TestEveryCodecRoundTripsTheEdgeValuesOrShowsItsKnownLoss(t *testing.T) {
	for _, w := range workloads {
		t.Run(w.name, w.edges)
	}
}

func TestEveryCodecRejectsTruncatedAndSurvivesCorruptBytes(t *testing.T) {
	for _, w := range workloads {
		t.Run(w.name, w.corrupted)
	}
}

func TestTheTypedTestsCoverEveryWorkload(t *testing.T) {
	for i, w := range Workloads {
		if i >= len(workloads) || workloads[i].name != w.Name {
			t.Fatalf("workload %d is %s; the typed tests have no entry for it at that position", i, w.Name)
		}
	}
}

func TestEveryWorkloadListsEveryFormatNotRunWithAReason(t *testing.T) {
	for _, w := range Workloads {
		names := map[string]bool{}
		for _, n := range w.NotRun() {
			if n.Reason == "" {
				t.Errorf("%s: %s has no reason", w.Name, n.Name)
			}
			names[n.Name] = true
		}
		for _, f := range Formats {
			if !w.Runs(f) && !names[f.Info.Name] {
				t.Errorf("%s: %s neither runs nor is listed not run", w.Name, f.Info.Name)
			}
		}
	}
	for _, n := range Workloads[0].NotRun() {
		if n.Name == "bson" && !strings.Contains(n.Reason, "u64") {
			t.Errorf("iex bson: the format's own reason must show, not %q", n.Reason)
		}
	}
}

func TestFormatNamesAreUniqueFramingsAndVersionsKnown(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Formats {
		if seen[f.Info.Name] {
			t.Errorf("duplicate format name %s", f.Info.Name)
		}
		seen[f.Info.Name] = true
		if f.Info.Framing != codec.FramingU32LE && f.Info.Framing != codec.FramingVarint && f.Info.Framing != codec.FramingNone {
			t.Errorf("%s: framing %q is not one of shootout-interop/1's", f.Info.Name, f.Info.Framing)
		}
		if v := Version(f.Info.Library); v == "unknown" || v == "" {
			t.Errorf("%s: no version for library %s", f.Info.Name, f.Info.Library)
		}
	}
}
