package registry

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"shootout/codec"
	"shootout/harness"
	"shootout/workload"
)

func load[R, S any](t testing.TB, path string, spec workload.Spec[R, S]) ([]R, func(S) string) {
	t.Helper()
	r, err := workload.OpenDataset(path, spec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	records, err := r.Next(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	check, err := spec.Checker(r.Header.Reference)
	if err != nil {
		t.Fatal(err)
	}
	return append([]R(nil), records...), check
}

func sample(t testing.TB) ([]workload.User, func(*workload.FieldSink) string) {
	return load(t, "../testdata/user.jsonl", workload.UserSpec)
}

// knownLosses are library behaviours the samples expose: each must still
// show as this difference (in the harness, the format is listed as failed on
// that workload with it), so a library that fixes it fails this test and the
// entry goes.
var knownLosses = map[string]string{
	"primitives/json-sonic": "field doubles",                         // -0.0 comes back as +0.0
	"object/json-sonic":     "field score",                           // likewise
	"object/gob":            "field score",                           // gob omits a zero float, and -0.0 == 0
	"object/json-goccy":     "cannot unmarshal number 3.4028235e+38", // rejects the largest float32
	// SBE reserves a null value per type, outside a required field's range:
	// the range check rejects u8 255, i32 -2^31 and i64 -2^63.
	"object/sbe":     "Range check failed on s.Level",
	"primitives/sbe": "Range check failed on p.Value",
	"sql/sbe":        "Range check failed on s.Value",
}

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
	}
	return nil
}

func roundTrip[R, S any](t *testing.T, entries []harness.Entry[R, S], spec workload.Spec[R, S], records []R, check func(S) string) {
	for _, e := range entries {
		t.Run(e.Info.Name, func(t *testing.T) {
			err := trip(e.New(), spec, records, check)
			switch want, known := knownLosses[spec.Name+"/"+e.Info.Name]; {
			case known && (err == nil || !strings.Contains(err.Error(), want)):
				t.Fatalf("known loss %q no longer shows; got %v", want, err)
			case !known && err != nil:
				t.Fatal(err)
			}
		})
	}
}

// corrupt truncates and damages the first record (from the first'th on) the
// codec can encode.
func corrupt[R, S any](t *testing.T, entries []harness.Entry[R, S], spec workload.Spec[R, S], records []R, first int) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, e := range entries {
		t.Run(e.Info.Name, func(t *testing.T) {
			var one []byte
			err := errors.New("no record")
			for i := first; i < len(records) && err != nil; i++ {
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

func TestEveryCodecRoundTripsTheSamplesExactly(t *testing.T) {
	t.Run("user", func(t *testing.T) {
		records, check := sample(t)
		roundTrip(t, User(), workload.UserSpec, records, check)
	})
	t.Run("iex", func(t *testing.T) {
		records, check := load(t, "../testdata/iex.jsonl", workload.IexSpec)
		roundTrip(t, Iex(), workload.IexSpec, records, check)
	})
	t.Run("sql", func(t *testing.T) {
		records, check := load(t, "../testdata/sql.jsonl", workload.SqlSpec)
		roundTrip(t, Sql(), workload.SqlSpec, records, check)
	})
	t.Run("primitives", func(t *testing.T) {
		records, check := load(t, "../testdata/primitives.jsonl", workload.PrimitivesSpec)
		roundTrip(t, Primitives(), workload.PrimitivesSpec, records, check)
	})
	t.Run("object", func(t *testing.T) {
		records, check := load(t, "../testdata/object.jsonl", workload.ObjectSpec)
		roundTrip(t, Object(), workload.ObjectSpec, records, check)
	})
	t.Run("mixed", func(t *testing.T) {
		records, check := load(t, "../testdata/mixed.jsonl", workload.MixedSpec)
		roundTrip(t, Mixed(), workload.MixedSpec, records, check)
	})
	t.Run("strings", func(t *testing.T) {
		records, check := load(t, "../testdata/strings.jsonl", workload.StringsSpec)
		roundTrip(t, Strings(), workload.StringsSpec, records, check)
	})
	t.Run("longs", func(t *testing.T) {
		records, check := load(t, "../testdata/longs.jsonl", workload.LongsSpec)
		roundTrip(t, Longs(), workload.LongsSpec, records, check)
	})
}

func TestEveryCodecRejectsTruncatedAndSurvivesCorruptBytes(t *testing.T) {
	t.Run("user", func(t *testing.T) {
		records, _ := sample(t)
		corrupt(t, User(), workload.UserSpec, records, 0)
	})
	t.Run("iex", func(t *testing.T) {
		records, _ := load(t, "../testdata/iex.jsonl", workload.IexSpec)
		corrupt(t, Iex(), workload.IexSpec, records, 1)
	})
	t.Run("sql", func(t *testing.T) {
		records, _ := load(t, "../testdata/sql.jsonl", workload.SqlSpec)
		corrupt(t, Sql(), workload.SqlSpec, records, 0)
	})
	t.Run("primitives", func(t *testing.T) {
		records, _ := load(t, "../testdata/primitives.jsonl", workload.PrimitivesSpec)
		corrupt(t, Primitives(), workload.PrimitivesSpec, records, 0)
	})
	t.Run("object", func(t *testing.T) {
		records, _ := load(t, "../testdata/object.jsonl", workload.ObjectSpec)
		corrupt(t, Object(), workload.ObjectSpec, records, 0)
	})
	t.Run("mixed", func(t *testing.T) {
		records, _ := load(t, "../testdata/mixed.jsonl", workload.MixedSpec)
		corrupt(t, Mixed(), workload.MixedSpec, records, 0)
	})
}

func TestEveryWorkloadListsEveryFormatNotRunWithAReason(t *testing.T) {
	for _, w := range Workloads {
		notRun := NotRun(w)
		names := map[string]bool{}
		for _, n := range notRun {
			if n.Reason == "" {
				t.Errorf("%s: %s has no reason", w, n.Name)
			}
			names[n.Name] = true
		}
		for _, f := range Formats {
			if !runs(f, w) && !names[f.Info.Name] {
				t.Errorf("%s: %s neither runs nor is listed not run", w, f.Info.Name)
			}
		}
	}
	for _, n := range NotRun("iex") {
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
