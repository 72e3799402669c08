package interop

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"shootout/codec"
	"shootout/internal/spec"
	"shootout/interop/stream"
	"shootout/registry"
	"shootout/workload"
)

// loss is a README ✗ cell as the interop modes see it: an encoder that
// refuses a value writes no stream ("encode"), a decoder that refuses one
// answers "error", one that changes it "mismatch".
type loss struct{ status, detail string }

// fixtureLosses are the losses the shared fixtures show: an object's level
// of 255 is SBE's null.
var fixtureLosses = map[string]loss{
	"object/sbe": {"encode", "Range check failed on s.Level"},
}

// encodeSample runs the encode mode on a sample into a fresh directory and
// returns the manifests by format.
func encodeSample(t *testing.T, dataset string) (string, map[string]stream.Manifest) {
	t.Helper()
	dir := t.TempDir()
	var log bytes.Buffer
	if err := Encode(dataset, dir, nil, &log); err != nil {
		t.Fatal(err)
	}
	manifests := map[string]stream.Manifest{}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var m stream.Manifest
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		manifests[m.Format] = m
	}
	if lines := strings.Count(log.String(), "\n"); lines != len(manifests) {
		t.Errorf("%d log lines for %d manifests:\n%s", lines, len(manifests), log.String())
	}
	return dir, manifests
}

func decode(t *testing.T, dataset string, requests []stream.Request) []stream.Answer {
	t.Helper()
	var out bytes.Buffer
	if err := Decode(dataset, requests, &out); err != nil {
		t.Fatal(err)
	}
	var answers []stream.Answer
	for line := range strings.Lines(out.String()) {
		var a stream.Answer
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatalf("answer %q: %v", line, err)
		}
		answers = append(answers, a)
	}
	if len(answers) != len(requests) {
		t.Fatalf("%d answers to %d requests", len(answers), len(requests))
	}
	return answers
}

func runsOn(workloadName string) []string {
	var names []string
	for _, f := range registry.Formats {
		if slices.Contains(registry.RunsOn(f), workloadName) {
			names = append(names, f.Info.Name)
		}
	}
	return names
}

// checkStream checks a written stream against its manifest and .ends: size,
// digest, one increasing end per record, and for a u32le codec that every
// record is its 4-byte length and that many bytes.
func checkStream(t *testing.T, dir string, m stream.Manifest) {
	t.Helper()
	encoded, err := os.ReadFile(filepath.Join(dir, *m.Stream))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(encoded)
	if uint64(len(encoded)) != m.Bytes || hex.EncodeToString(sum[:]) != *m.SHA256 {
		t.Errorf("%s: manifest says %d bytes, sha256 %s; the file has %d, %x", m.Format, m.Bytes, *m.SHA256, len(encoded), sum)
	}
	endsFile, err := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(*m.Stream, ".bin")+".ends"))
	if err != nil {
		t.Fatal(err)
	}
	if uint64(len(endsFile)) != 8*m.Records {
		t.Fatalf("%s: .ends of %d bytes for %d records", m.Format, len(endsFile), m.Records)
	}
	start := uint64(0)
	for i := range m.Records {
		end := binary.LittleEndian.Uint64(endsFile[8*i:])
		if end <= start || end > uint64(len(encoded)) {
			t.Fatalf("%s: record %d ends at %d, after %d, in %d bytes", m.Format, i, end, start, len(encoded))
		}
		if m.Framing == codec.FramingU32LE {
			if got := uint64(binary.LittleEndian.Uint32(encoded[start:])); got != end-start-4 {
				t.Fatalf("%s: record %d of %d bytes has a u32le prefix of %d", m.Format, i, end-start, got)
			}
		}
		start = end
	}
	if start != uint64(len(encoded)) {
		t.Errorf("%s: the last record ends at %d of %d bytes", m.Format, start, len(encoded))
	}
}

func TestEveryFormatDecodesItsOwnStreamsOfEveryFixture(t *testing.T) {
	for _, w := range registry.Workloads {
		t.Run(w.Name, func(t *testing.T) { roundTrip(t, w.Name, spec.Fixture(t, w.Name), fixtureLosses) })
	}
}

// The values the fixtures lack that some library loses, each loss as its
// mode shows it.
func TestEveryKnownLossShowsInItsMode(t *testing.T) {
	dataset := filepath.Join(t.TempDir(), "object.jsonl")
	negativeZero := math.Copysign(0, -1)
	writeDataset(t, dataset, workload.ObjectSpec, []workload.SmallObject{
		{ID: 1, Name: "ünï", Score: negativeZero, Ratio: math.MaxFloat32, Tags: []string{}},
		{ID: 2, Level: 255, Tags: []string{"a"}},
	})
	roundTrip(t, "object", dataset, map[string]loss{
		"object/json-sonic": {"mismatch", "field score"},
		"object/gob":        {"mismatch", "field score"},
		"object/vtprotobuf": {"mismatch", "field score"},
		"object/json-goccy": {"error", "cannot unmarshal number 3.4028235e+38"},
		"object/sbe":        {"encode", "Range check failed on s.Level"},
	})
}

// roundTrip encodes the dataset in every format that runs workload w and
// decodes each stream back: every one must answer ok but the losses.
func roundTrip(t *testing.T, w, dataset string, losses map[string]loss) {
	header, err := workload.ReadHeader(dataset)
	if err != nil {
		t.Fatal(err)
	}
	dir, manifests := encodeSample(t, dataset)
	names := runsOn(w)
	if len(manifests) != len(names) {
		t.Fatalf("%d manifests for the %d formats %v", len(manifests), len(names), names)
	}
	var requests []stream.Request
	for _, name := range names {
		m := manifests[name]
		loss, lossy := losses[w+"/"+name]
		if m.Schema != stream.Schema || m.Language != "go" || m.Workload != w || m.Version == "" || m.Family == "" {
			t.Errorf("%s: manifest %+v", name, m)
		}
		if !slices.Contains([]string{codec.FramingU32LE, codec.FramingVarint, codec.FramingNone}, m.Framing) {
			t.Errorf("%s: framing %q", name, m.Framing)
		}
		if lossy && loss.status == "encode" {
			if m.Error == nil || !strings.Contains(*m.Error, loss.detail) || m.Stream != nil || m.Records >= header.Records {
				t.Errorf("%s: want the encoder's %q and no stream, manifest %+v", name, loss.detail, m)
			}
			if _, err := os.Stat(filepath.Join(dir, "go-"+name+".bin")); !os.IsNotExist(err) {
				t.Errorf("%s: a stream was left beside an encoder error", name)
			}
			continue
		}
		if m.Error != nil || m.Records != header.Records || m.Stream == nil || *m.Stream != "go-"+name+".bin" {
			t.Fatalf("%s: manifest %+v", name, m)
		}
		checkStream(t, dir, m)
		requests = append(requests, stream.Request{Format: name, Stream: filepath.Join(dir, *m.Stream)})
	}
	for i, a := range decode(t, dataset, requests) {
		name := requests[i].Format
		want, detail := "ok", ""
		if loss, lossy := losses[w+"/"+name]; lossy {
			want, detail = loss.status, loss.detail
		}
		if a.Format != name || a.Stream != requests[i].Stream || a.Status != want ||
			(detail != "" && (a.Detail == nil || !strings.Contains(*a.Detail, detail))) {
			t.Errorf("%s: want %s %q, answered %+v (detail %v)", name, want, detail, a, deref(a.Detail))
		}
		if want == "ok" && (a.Records != header.Records || a.Detail != nil) {
			t.Errorf("%s: ok with %d of %d records, detail %v", name, a.Records, header.Records, deref(a.Detail))
		}
		if want == "mismatch" && !strings.HasPrefix(*a.Detail, "record ") {
			t.Errorf("%s: a mismatch must name its first differing record: %s", name, *a.Detail)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// A stream cut inside its last record, and one with bytes after its last
// record, are errors for every format, never a panic or an "ok".
func TestCorruptStreamsAreErrors(t *testing.T) {
	for _, w := range []string{"user", "iex", "sql", "mixed"} {
		t.Run(w, func(t *testing.T) {
			dataset := spec.Fixture(t, w)
			dir, manifests := encodeSample(t, dataset)
			var requests []stream.Request
			for name, m := range manifests {
				if m.Stream == nil {
					continue
				}
				encoded, err := os.ReadFile(filepath.Join(dir, *m.Stream))
				if err != nil {
					t.Fatal(err)
				}
				ends, _ := os.ReadFile(filepath.Join(dir, "go-"+name+".ends"))
				lastStart := binary.LittleEndian.Uint64(ends[len(ends)-16:])
				cut := filepath.Join(dir, name+".cut")
				trailing := filepath.Join(dir, name+".trailing")
				mid := lastStart + (uint64(len(encoded))-lastStart)/2
				if err := os.WriteFile(cut, encoded[:mid], 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(trailing, append(encoded, 0x9c, 0x01, 0xff), 0o644); err != nil {
					t.Fatal(err)
				}
				requests = append(requests, stream.Request{Format: name, Stream: cut}, stream.Request{Format: name, Stream: trailing})
			}
			for i, a := range decode(t, dataset, requests) {
				if a.Status != "error" || a.Detail == nil {
					t.Errorf("%s %s: want an error, answered %+v", requests[i].Format, filepath.Base(requests[i].Stream), a)
				}
			}
		})
	}
}

// A fixture whose record k is changed, encoded by every format and decoded
// against the original, must be a mismatch naming record k.
func TestAStreamOfADifferentRecordIsAMismatchNamingIt(t *testing.T) {
	t.Run("user", func(t *testing.T) { mismatchAt(t, workload.UserSpec, 7, func(u *workload.User) { u.Nickname += "x" }) })
	t.Run("iex", func(t *testing.T) { mismatchAt(t, workload.IexSpec, 11, func(m *workload.MultiMessage) { m.SeqNo++ }) })
	t.Run("sql", func(t *testing.T) { mismatchAt(t, workload.SqlSpec, 2, func(r *workload.SqlRequest) { r.Args[0]++ }) })
	t.Run("mixed", func(t *testing.T) {
		mismatchAt(t, workload.MixedSpec, 5, func(r *workload.MixedRow) { *r = workload.MixedRow{} })
	})
	t.Run("longs", func(t *testing.T) {
		mismatchAt(t, workload.LongsSpec, 5, func(r *workload.LongsRow) { *r = workload.LongsRow{} })
	})
	t.Run("strings", func(t *testing.T) {
		mismatchAt(t, workload.StringsSpec, 5, func(r *workload.StringsRow) { *r = workload.StringsRow{} })
	})
}

func writeDataset[R, S any](t *testing.T, path string, ws workload.Spec[R, S], records []R) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := workload.WriteDataset(f, ws, "a test's records", records); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func mismatchAt[R, S any](t *testing.T, ws workload.Spec[R, S], k int, change func(*R)) {
	original := spec.Fixture(t, ws.Name)
	in, err := workload.OpenDataset(original, ws)
	if err != nil {
		t.Fatal(err)
	}
	records, err := in.Next(1 << 20)
	in.Close()
	if err != nil {
		t.Fatal(err)
	}
	change(&records[k])
	changed := filepath.Join(t.TempDir(), "changed.jsonl")
	writeDataset(t, changed, ws, records)
	dir, manifests := encodeSample(t, changed)
	var requests []stream.Request
	for name, m := range manifests {
		if _, lossy := fixtureLosses[ws.Name+"/"+name]; !lossy {
			requests = append(requests, stream.Request{Format: name, Stream: filepath.Join(dir, *m.Stream)})
		}
	}
	want := fmt.Sprintf("record %d: ", k)
	for i, a := range decode(t, original, requests) {
		if a.Status != "mismatch" || a.Detail == nil || !strings.HasPrefix(*a.Detail, want) {
			t.Errorf("%s: want a mismatch at %q, answered %+v (detail %s)", requests[i].Format, want, a, deref(a.Detail))
		}
	}
}

func TestRequestsForOtherFormatsAreAnsweredNotFatal(t *testing.T) {
	dataset := spec.Fixture(t, "iex")
	answers := decode(t, dataset, []stream.Request{
		{Format: "no-such-format", Stream: "/nonexistent"},
		{Format: "bson", Stream: "/nonexistent"},
		{Format: "protobuf", Stream: filepath.Join(t.TempDir(), "missing.bin")},
	})
	want := []string{"no format no-such-format in the go runner", "does not run the iex workload", "no such file"}
	for i, a := range answers {
		if a.Status != "error" || a.Detail == nil || !strings.Contains(*a.Detail, want[i]) {
			t.Errorf("request %d: want an error with %q, answered %+v (detail %s)", i, want[i], a, deref(a.Detail))
		}
	}
}

func TestReadRequestsRejectsALineWithoutATab(t *testing.T) {
	list := filepath.Join(t.TempDir(), "list")
	if err := os.WriteFile(list, []byte("protobuf\t/a.bin\n\nprotobuf /b.bin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadRequests(list)
	var usage UsageError
	if err == nil || !strings.Contains(err.Error(), "line 3") || !errors.As(err, &usage) {
		t.Fatalf("want a usage error naming line 3, got %v", err)
	}
}
