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
	"shootout/harness"
	"shootout/internal/spec"
	"shootout/internal/workloadtest"
	"shootout/interopstream"
	"shootout/registry"
	"shootout/workload"
)

// loss is a README ✗ cell as the interop modes see it: an encoder that
// refuses a value writes no stream ("encode"), a decoder that refuses one
// answers "error", one that changes it "mismatch".
type loss struct{ status, detail string }

// matches says whether status and detail are this loss's.
func (l loss) matches(status, detail string) bool {
	return l.status == status && strings.Contains(detail, l.detail)
}

// fixtureLosses are the losses the shared fixtures show: an object's level
// of 255 is SBE's null. On jsonl, whose fixture's content the Rust side
// chooses, a format may show any loss of its library's model (the registry
// tests pin each on edge records) or none: okOr lists them. A workload that
// runs as another (csv as jsonl) has that one's: lossesOf.
var fixtureLosses = map[string][]loss{
	"object/sbe":           {{"encode", "Range check failed on s.Level"}},
	"jsonl/json-std":       okOr(duplicateKeys),
	"jsonl/json-goccy":     okOr(duplicateKeys),
	"jsonl/json-sonic":     okOr(duplicateKeys),
	"jsonl/cbor-fxamacker": okOr(duplicateKeys),
	"jsonl/gob":            okOr(duplicateKeys),
	"jsonl/json-v2": okOr(duplicateKeys, mismatch("integers beyond 64 bits: "), mismatch("integers beyond ±2^53: "),
		mismatch("integers read back as floats: ")),
	"jsonl/msgpack-map":  okOr(duplicateKeys, loss{"error", "a []uint8 is not a JSON value"}),
	"jsonl/msgpack-msgp": okOr(duplicateKeys, loss{"encode", `msgp: type "big.Int" not supported`}),
	"jsonl/bson": okOr(loss{"encode", "a BSON document is an object; this record is a JSON "}, loss{"encode", "overflows int64"},
		mismatch("integers beyond 64 bits: "), loss{"encode", "BSON element key cannot contain null bytes"}),
}

var duplicateKeys = mismatch("the library keeps one value per key")

// lossesOf is what losses lists for format name on workload w, filed under
// the workload w runs as (registry.Workload.As): csv's codecs are jsonl's,
// on the same records, so they show the same losses.
func lossesOf(losses map[string][]loss, w, name string) []loss {
	for _, rw := range registry.Workloads {
		if rw.Name == w {
			w = rw.As
		}
	}
	return losses[w+"/"+name]
}

func mismatch(detail string) loss { return loss{"mismatch", detail} }

// okOr is a list of losses any one of which, or none, may show.
func okOr(losses ...loss) []loss { return append([]loss{{"ok", ""}}, losses...) }

// encodeSample runs the encode mode on a sample into a fresh directory and
// returns the manifests by format.
func encodeSample(t *testing.T, dataset string) (string, map[string]interopstream.Manifest) {
	t.Helper()
	dir := t.TempDir()
	var log bytes.Buffer
	if err := Encode(dataset, dir, nil, &log); err != nil {
		t.Fatal(err)
	}
	manifests := map[string]interopstream.Manifest{}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var m interopstream.Manifest
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

// streams are the requests to decode each stream the encode mode wrote
// into dir (a format whose encoder failed wrote none).
func streams(dir string, manifests map[string]interopstream.Manifest) []interopstream.Request {
	var requests []interopstream.Request
	for name, m := range manifests {
		if m.Stream != nil {
			requests = append(requests, interopstream.Request{Format: name, Stream: filepath.Join(dir, *m.Stream)})
		}
	}
	return requests
}

func decode(t *testing.T, dataset string, requests []interopstream.Request) []interopstream.Answer {
	t.Helper()
	var out bytes.Buffer
	if err := Decode(dataset, requests, &out); err != nil {
		t.Fatal(err)
	}
	var answers []interopstream.Answer
	for line := range strings.Lines(out.String()) {
		var a interopstream.Answer
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

// runsOn lists the formats that run the dataset at path: each with a codec
// for its workload, but a schema format whose schema it lacks.
func runsOn(t *testing.T, dataset string) []string {
	t.Helper()
	header, err := workload.ReadHeader(dataset)
	if err != nil {
		t.Fatal(err)
	}
	w, err := registry.WorkloadOf(dataset, header)
	if err != nil {
		t.Fatal(err)
	}
	notRun := w.NotRun()
	var names []string
	for _, f := range registry.Formats {
		if w.Runs(f) && !slices.ContainsFunc(notRun, func(n harness.NotRun) bool { return n.Name == f.Info.Name }) {
			names = append(names, f.Info.Name)
		}
	}
	return names
}

// checkStream checks a written stream against its manifest and .ends: size,
// digest, one increasing end per record, and for a u32le codec that every
// record is its 4-byte length and that many bytes.
func checkStream(t *testing.T, dir string, m interopstream.Manifest) {
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
	// jsonl run with a schema: its schema format too.
	for _, name := range []string{"jsonl-protobuf", "jsonl-avro"} {
		t.Run(name, func(t *testing.T) { roundTrip(t, "jsonl", spec.Fixture(t, name), fixtureLosses) })
	}
}

// The values the fixtures lack that some library loses, each loss as its
// mode shows it.
func TestEveryKnownLossShowsInItsMode(t *testing.T) {
	dataset := filepath.Join(t.TempDir(), "object.jsonl")
	negativeZero := math.Copysign(0, -1)
	workloadtest.WriteDataset(t, dataset, workload.ObjectSpec, "a test's records", []workload.SmallObject{
		{ID: 1, Name: "ünï", Score: negativeZero, Ratio: math.MaxFloat32, Tags: []string{}},
		{ID: 2, Level: 255, Tags: []string{"a"}},
	})
	roundTrip(t, "object", dataset, map[string][]loss{
		"object/json-sonic": {{"mismatch", "field score"}},
		"object/gob":        {{"mismatch", "field score"}},
		"object/vtprotobuf": {{"mismatch", "field score"}},
		"object/json-goccy": {{"error", "cannot unmarshal number 3.4028235e+38"}},
		"object/sbe":        {{"encode", "Range check failed on s.Level"}},
	})
}

// roundTrip encodes the dataset in every format that runs workload w and
// decodes each stream back: every one must answer ok but the losses, each
// one of those listed for it.
func roundTrip(t *testing.T, w, dataset string, losses map[string][]loss) {
	header, err := workload.ReadHeader(dataset)
	if err != nil {
		t.Fatal(err)
	}
	dir, manifests := encodeSample(t, dataset)
	names := runsOn(t, dataset)
	if len(manifests) != len(names) {
		t.Fatalf("%d manifests for the %d formats %v", len(manifests), len(names), names)
	}
	expected := func(name, status, detail string) bool {
		listed := lossesOf(losses, w, name)
		if len(listed) == 0 {
			return status == "ok"
		}
		return slices.ContainsFunc(listed, func(l loss) bool { return l.matches(status, detail) })
	}
	var requests []interopstream.Request
	for _, name := range names {
		m := manifests[name]
		if m.Schema != interopstream.Schema || m.Language != "go" || m.Workload != w || m.Version == "" || m.Family == "" {
			t.Errorf("%s: manifest %+v", name, m)
		}
		if !slices.Contains([]string{codec.FramingU32LE, codec.FramingVarint, codec.FramingNone}, m.Framing) {
			t.Errorf("%s: framing %q", name, m.Framing)
		}
		if m.Error != nil {
			if !expected(name, "encode", *m.Error) || m.Stream != nil || m.Records >= header.Records {
				t.Errorf("%s: an encoder error not listed for it, or a stream beside one: manifest %+v (error %s)", name, m, *m.Error)
			}
			if _, err := os.Stat(filepath.Join(dir, "go-"+name+".bin")); !os.IsNotExist(err) {
				t.Errorf("%s: a stream was left beside an encoder error", name)
			}
			continue
		}
		if listed := lossesOf(losses, w, name); len(listed) > 0 && !slices.ContainsFunc(listed, func(l loss) bool { return l.status != "encode" }) {
			t.Errorf("%s: want the encoder's error (one of %v) and no stream, manifest %+v", name, listed, m)
			continue
		}
		if m.Records != header.Records || m.Stream == nil || *m.Stream != "go-"+name+".bin" {
			t.Fatalf("%s: manifest %+v", name, m)
		}
		checkStream(t, dir, m)
		requests = append(requests, interopstream.Request{Format: name, Stream: filepath.Join(dir, *m.Stream)})
	}
	for i, a := range decode(t, dataset, requests) {
		name := requests[i].Format
		if a.Format != name || a.Stream != requests[i].Stream || !expected(name, a.Status, deref(a.Detail)) {
			t.Errorf("%s: want one of %v, answered %+v (detail %v)", name, lossesOf(losses, w, name), a, deref(a.Detail))
		}
		if a.Status == "ok" && (a.Records != header.Records || a.Detail != nil) {
			t.Errorf("%s: ok with %d of %d records, detail %v", name, a.Records, header.Records, deref(a.Detail))
		}
		if a.Status == "mismatch" && !strings.HasPrefix(*a.Detail, "record ") {
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

// readStream reads a written stream and its record ends.
func readStream(t *testing.T, dir string, m interopstream.Manifest) ([]byte, []uint64) {
	t.Helper()
	encoded, err := os.ReadFile(filepath.Join(dir, *m.Stream))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(*m.Stream, ".bin")+".ends"))
	if err != nil {
		t.Fatal(err)
	}
	ends := make([]uint64, len(b)/8)
	for i := range ends {
		ends[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return encoded, ends
}

// writeStream writes a stream at path and its record ends beside it, as the
// lead hands a stream to a runner.
func writeStream(t *testing.T, path string, encoded []byte, ends []uint64) {
	t.Helper()
	b := make([]byte, 0, 8*len(ends))
	for _, e := range ends {
		b = binary.LittleEndian.AppendUint64(b, e)
	}
	if err := os.WriteFile(path, encoded, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(strings.TrimSuffix(path, ".bin")+".ends", b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A last record cut in half, and one with bytes after its end, are errors
// naming that record for every format, never a panic or an "ok": a decode
// sees exactly its record's bytes and must use them all.
func TestCorruptRecordsAreErrorsNamingThem(t *testing.T) {
	for _, w := range []string{"user", "iex", "sql", "mixed"} {
		t.Run(w, func(t *testing.T) {
			dataset := spec.Fixture(t, w)
			dir, manifests := encodeSample(t, dataset)
			var requests []interopstream.Request
			var want []string
			for name, m := range manifests {
				if m.Stream == nil {
					continue
				}
				encoded, ends := readStream(t, dir, m)
				last := len(ends) - 1
				lastStart := ends[last-1]
				mid := lastStart + (ends[last]-lastStart)/2
				cut := filepath.Join(dir, name+"-cut.bin")
				longer := filepath.Join(dir, name+"-longer.bin")
				writeStream(t, cut, encoded[:mid], append(slices.Clone(ends[:last]), mid))
				writeStream(t, longer, append(encoded, 0x9c, 0x01, 0xff), append(slices.Clone(ends[:last]), ends[last]+3))
				requests = append(requests, interopstream.Request{Format: name, Stream: cut}, interopstream.Request{Format: name, Stream: longer})
				prefix := fmt.Sprintf("record %d, byte offset %d: ", last, lastStart)
				want = append(want, prefix, prefix)
			}
			for i, a := range decode(t, dataset, requests) {
				if a.Status != "error" || a.Detail == nil || !strings.HasPrefix(*a.Detail, want[i]) {
					t.Errorf("%s %s: want an error starting %q, answered %+v (detail %s)",
						requests[i].Format, filepath.Base(requests[i].Stream), want[i], a, deref(a.Detail))
				}
			}
		})
	}
}

// A decode that stops short of its record's end is an error even when the
// codec is content: the record's remaining bytes would otherwise be read as
// the next record, or be left over.
func TestADecodeUsingFewerBytesThanItsRecordIsAnError(t *testing.T) {
	dataset := spec.Fixture(t, "user")
	dir, manifests := encodeSample(t, dataset)
	encoded, ends := readStream(t, dir, manifests["protobuf"])
	// Record 1 absorbs record 2: its decode reads one record's worth.
	merged := filepath.Join(dir, "merged.bin")
	writeStream(t, merged, encoded, slices.Delete(slices.Clone(ends), 1, 2))
	a := decode(t, dataset, []interopstream.Request{{Format: "protobuf", Stream: merged}})[0]
	want := fmt.Sprintf("record 1, byte offset %d: decode used %d of the record's %d bytes", ends[0], ends[1]-ends[0], ends[2]-ends[0])
	if a.Status != "error" || deref(a.Detail) != want || a.Records != 1 {
		t.Errorf("want an error %q after 1 record, answered %+v (detail %s)", want, a, deref(a.Detail))
	}
}

// The record ends beside a stream must describe it: each problem is the
// request's error, on one line.
func TestRecordEndsThatDoNotFitTheStreamAreErrors(t *testing.T) {
	dataset := spec.Fixture(t, "user")
	dir, manifests := encodeSample(t, dataset)
	encoded, ends := readStream(t, dir, manifests["protobuf"])
	last := len(ends) - 1
	variant := func(name string, encoded []byte, ends []uint64) string {
		path := filepath.Join(dir, name+".bin")
		writeStream(t, path, encoded, ends)
		return path
	}
	missing := variant("missing", encoded, ends)
	if err := os.Remove(filepath.Join(dir, "missing.ends")); err != nil {
		t.Fatal(err)
	}
	short := variant("short", encoded, ends)
	if err := os.Truncate(filepath.Join(dir, "short.ends"), int64(8*len(ends)-3)); err != nil {
		t.Fatal(err)
	}
	swapped := slices.Clone(ends)
	swapped[2], swapped[3] = swapped[3], swapped[2]
	cases := []struct{ path, want string }{
		{missing, "the stream's record ends: open " + filepath.Join(dir, "missing.ends") + ": no such file or directory"},
		{short, fmt.Sprintf("%s: %d bytes, not a whole number of u64 record ends", filepath.Join(dir, "short.ends"), 8*len(ends)-3)},
		{variant("beyond", encoded[:len(encoded)-1], ends),
			fmt.Sprintf("the last record ends at byte %d, beyond the stream's %d bytes", len(encoded), len(encoded)-1)},
		{variant("after", append(slices.Clone(encoded), 0), ends),
			fmt.Sprintf("the stream has 1 bytes after its last record's end (byte offset %d)", len(encoded))},
		{variant("swapped", encoded, swapped), fmt.Sprintf("record 3 ends at byte %d, not after its start at %d", ends[2], ends[3])},
		{variant("fewer", encoded[:ends[last-1]], ends[:last]), fmt.Sprintf("the stream ends after %d records, the dataset has %d", last, last+1)},
		{variant("more", append(slices.Clone(encoded), encoded[:ends[0]]...), append(slices.Clone(ends), ends[last]+ends[0])),
			fmt.Sprintf("%d bytes left over after the dataset's %d records (byte offset %d)", ends[0], last+1, ends[last])},
	}
	var requests []interopstream.Request
	for _, c := range cases {
		requests = append(requests, interopstream.Request{Format: "protobuf", Stream: c.path})
	}
	for i, a := range decode(t, dataset, requests) {
		if a.Status != "error" || !strings.HasSuffix(deref(a.Detail), cases[i].want) || strings.Contains(deref(a.Detail), "\n") {
			t.Errorf("%s: want an error ending %q, answered %+v (detail %s)", filepath.Base(cases[i].path), cases[i].want, a, deref(a.Detail))
		}
	}
}

// A stream of several windows, one record larger than a whole window's
// bytes among them, decodes "ok" in every format that can encode it.
func TestAStreamOfManyWindowsDecodes(t *testing.T) {
	records := make([]workload.SmallObject, 3*4096+7)
	for i := range records {
		records[i] = workload.SmallObject{ID: int64(i), Name: fmt.Sprintf("name %d", i), Email: "a@b.c", Age: int32(i % 90),
			Score: float64(i) / 3, Ratio: float32(i) / 7, Active: i%2 == 0, Level: uint8(i % 200), CreatedAt: int64(i) * 1000,
			Tags: []string{"t", fmt.Sprint(i % 13)}}
	}
	// Over windowBytes in all, each string within avro-hamba's 1 MiB limit.
	long := strings.Repeat("long ", 100_000)
	records[5000].Tags = []string{long, long, long}
	dataset := filepath.Join(t.TempDir(), "object.jsonl")
	workloadtest.WriteDataset(t, dataset, workload.ObjectSpec, "a test's records", records)
	dir, manifests := encodeSample(t, dataset)
	requests := streams(dir, manifests)
	if len(requests) < len(manifests)/2 {
		t.Fatalf("only %d of %d formats encoded the records", len(requests), len(manifests))
	}
	for i, a := range decode(t, dataset, requests) {
		if a.Status != "ok" || a.Records != uint64(len(records)) {
			t.Errorf("%s: want ok, answered %+v (detail %s)", requests[i].Format, a, deref(a.Detail))
		}
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
	t.Run("jsonl", func(t *testing.T) {
		// The fixture's records are objects: a member's key changes.
		mismatchAt(t, workload.JSONLSpec, 3, func(r *workload.JSONRecord) { r.Value.Keys[0] += "x" })
	})
	t.Run("csv", func(t *testing.T) {
		// Every record is an object, maybe an empty one (a row of empty
		// cells): it gains a member.
		mismatchAt(t, workload.CSVSpec, 3, func(r *workload.JSONRecord) {
			r.Value.Keys = append(r.Value.Keys, "added")
			r.Value.Items = append(r.Value.Items, workload.JSONValue{Kind: workload.JSONNull})
		})
	})
}

func mismatchAt[R, S any](t *testing.T, ws workload.Spec[R, S], k int, change func(*R)) {
	records, _ := workloadtest.Fixture(t, ws)
	mismatchIn(t, ws, spec.Fixture(t, ws.Name), records, k, change)
}

// mismatchIn checks that the dataset original, its records with record k
// changed, encoded by every format and decoded against it is a mismatch
// naming record k.
func mismatchIn[R, S any](t *testing.T, ws workload.Spec[R, S], original string, records []R, k int, change func(*R)) {
	// The formats that carry the original exactly: a loss of their own
	// would show before the change.
	exact := map[string]bool{}
	odir, originals := encodeSample(t, original)
	for _, a := range decode(t, original, streams(odir, originals)) {
		exact[a.Format] = a.Status == "ok"
	}
	change(&records[k])
	changed := filepath.Join(t.TempDir(), "changed.jsonl")
	workloadtest.WriteDataset(t, changed, ws, "a test's records", records)
	dir, manifests := encodeSample(t, changed)
	requests := slices.DeleteFunc(streams(dir, manifests), func(r interopstream.Request) bool { return !exact[r.Format] })
	if len(requests) == 0 {
		t.Fatal("no format carries the original exactly")
	}
	want := fmt.Sprintf("record %d: ", k)
	for i, a := range decode(t, original, requests) {
		if a.Status != "mismatch" || a.Detail == nil || !strings.HasPrefix(*a.Detail, want) {
			t.Errorf("%s: want a mismatch at %q, answered %+v (detail %s)", requests[i].Format, want, a, deref(a.Detail))
		}
	}
}

// The record that differs found in a later window of both the dataset and
// the stream.
func TestAMismatchInALaterWindowNamesItsRecord(t *testing.T) {
	fixture, _ := workloadtest.Fixture(t, workload.UserSpec)
	var records []workload.User
	for len(records) < 2*4096+100 {
		records = append(records, fixture...)
	}
	original := filepath.Join(t.TempDir(), "user.jsonl")
	workloadtest.WriteDataset(t, original, workload.UserSpec, "a test's records", records)
	mismatchIn(t, workload.UserSpec, original, records, 2*4096+42, func(u *workload.User) { u.Nickname += "x" })
}

func TestRequestsForOtherFormatsAreAnsweredNotFatal(t *testing.T) {
	dataset := spec.Fixture(t, "iex")
	answers := decode(t, dataset, []interopstream.Request{
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
