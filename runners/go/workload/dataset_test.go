package workload

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"shootout/internal/spec"
)

// readAll reads the dataset at path, window records at a time.
func readAll[R, S any](t *testing.T, path string, dataset Spec[R, S], window int) ([]R, Header) {
	t.Helper()
	r, err := OpenDataset(path, dataset)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var all []R
	for {
		w, err := r.Next(window)
		if err != nil {
			t.Fatal(err)
		}
		if len(w) == 0 {
			return all, r.Header
		}
		all = append(all, w...)
	}
}

func TestTheFixtureReadInWindowsAddsUpToItsReference(t *testing.T) {
	records, header := readAll(t, spec.Fixture(t, "user"), UserSpec, 7)
	if len(records) != 300 {
		t.Fatalf("read %d records, want 300", len(records))
	}
	check, err := UserSpec.Checker(header.Reference)
	if err != nil {
		t.Fatal(err)
	}
	sink := UserSpec.NewSink()
	for i := range records {
		records[i].Visit(sink)
	}
	if d := check(sink); d != "" {
		t.Fatal(d)
	}
	records[5].Nickname += "x"
	sink = UserSpec.NewSink()
	for i := range records {
		records[i].Visit(sink)
	}
	if d := check(sink); !strings.HasPrefix(d, "field nickname:") {
		t.Fatalf("an altered nickname must show as a nickname difference, got %q", d)
	}
}

// hashVectors are spec/vectors.json's: the texts and JSON values every
// language hashes to the same figures.
type hashVectors struct {
	TextHash struct {
		Vectors []struct {
			Text      string `json:"text"`
			UTF8Bytes uint64 `json:"utf8_bytes"`
			Hash      uint64 `json:"hash,string"`
		} `json:"vectors"`
	} `json:"text_hash"`
	JSONLHash struct {
		Vectors []struct {
			JSON string `json:"json"`
			Hash uint64 `json:"hash,string"`
		} `json:"vectors"`
	} `json:"jsonl_hash"`
}

// sharedVectors reads spec/vectors.json, every section holding some.
func sharedVectors(t *testing.T) hashVectors {
	t.Helper()
	b, err := os.ReadFile(spec.Path(t, "vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vectors hashVectors
	if err := json.Unmarshal(b, &vectors); err != nil {
		t.Fatal(err)
	}
	if len(vectors.TextHash.Vectors) == 0 || len(vectors.JSONLHash.Vectors) == 0 {
		t.Fatalf("spec/vectors.json holds %d text_hash and %d jsonl_hash vectors; want some of each",
			len(vectors.TextHash.Vectors), len(vectors.JSONLHash.Vectors))
	}
	return vectors
}

// The text hash of docs/dataset-format.md, on spec/vectors.json's texts
// (every language checks its own against the same file).
func TestTextHashMatchesTheSharedVectors(t *testing.T) {
	for _, v := range sharedVectors(t).TextHash.Vectors {
		sink := NewFieldSink(2)
		sink.Text(0, []byte(v.Text))
		sink.String(1, v.Text)
		for _, got := range sink.fields {
			if got.TextHash != v.Hash || got.TextBytes != v.UTF8Bytes {
				t.Errorf("%q: hash %d over %d bytes, want %d over %d", v.Text, got.TextHash, got.TextBytes, v.Hash, v.UTF8Bytes)
			}
		}
	}
}

func TestFloatsCompareByBits(t *testing.T) {
	names := []string{"f"}
	a, b := NewFieldSink(1), NewFieldSink(1)
	a.Float(0, 0.0)
	b.Float(0, math.Copysign(0, -1))
	if d := a.Finish(names).FirstDifference(b.Finish(names), names); d == "" {
		t.Fatal("+0 and -0 must differ")
	}
	n1, n2 := NewFieldSink(1), NewFieldSink(1)
	n1.Float(0, math.NaN())
	n2.Float(0, math.NaN())
	if d := n1.Finish(names).FirstDifference(n2.Finish(names), names); d != "" {
		t.Fatalf("NaN must equal NaN by bits: %s", d)
	}
}

func TestABadDatasetIsAnErrorNamingWhy(t *testing.T) {
	dir := t.TempDir()
	sample, err := os.ReadFile(spec.Fixture(t, "user"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(sample), "\n")
	cases := map[string]struct{ content, want string }{
		"wrong workload": {strings.Replace(string(sample), `"workload":"user"`, `"workload":"sql"`, 1), `workload "sql"`},
		"short":          {strings.Join(lines[:10], ""), "announces 300 records, the file holds 9"},
		"bad record":     {strings.Join(lines[:3], "") + "{\"uid\": \"x\"}\n", "line 4"},
	}
	for name, c := range cases {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(c.content), 0o644)
		r, err := OpenDataset(path, UserSpec)
		for err == nil {
			var w []User
			if w, err = r.Next(100); err == nil && len(w) == 0 {
				break
			}
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", name, err, c.want)
		}
	}
}

// A header's record_schemas are read as the spec writes them: absent, none;
// each kind's schema, or the reason the run could not build it; a header
// without them is written without the key.
func TestTheHeaderReadsItsRecordSchemas(t *testing.T) {
	h, err := ReadHeader(spec.Fixture(t, "jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if h.RecordSchemas != (RecordSchemas{}) {
		t.Errorf("jsonl's fixture: record schemas %+v, want none", h.RecordSchemas)
	}
	h, err = ReadHeader(spec.Fixture(t, "jsonl-protobuf"))
	if err != nil {
		t.Fatal(err)
	}
	p := h.RecordSchemas.Protobuf
	noAvro := "no Avro schema: run with --schema FILE.avsc (a csv run builds one from its columns)"
	if a := h.RecordSchemas.Avro; p == nil || p.File != "events.proto" || p.Message != "shootout.events.Event" || len(p.DescriptorSet) == 0 || a == nil || a.Reason != noAvro {
		t.Errorf("jsonl-protobuf's fixture: record schemas %+v", h.RecordSchemas)
	}
	h, err = ReadHeader(spec.Fixture(t, "jsonl-avro"))
	if err != nil {
		t.Fatal(err)
	}
	noProtobuf := "no protobuf schema: run with --schema FILE.proto (a csv run builds one from its columns)"
	if a, p := h.RecordSchemas.Avro, h.RecordSchemas.Protobuf; a == nil || a.File != "events.avsc" || !strings.Contains(a.Schema, `"name": "Event"`) || p == nil || p.Reason != noProtobuf {
		t.Errorf("jsonl-avro's fixture: record schemas %+v", h.RecordSchemas)
	}
	var reasons Header
	line := `{"schema":"shootout-dataset/1","workload":"csv","record_schemas":{"protobuf":{"reason":"why"},"avro":{"reason":"why not"}}}`
	if err := json.Unmarshal([]byte(line), &reasons); err != nil {
		t.Fatal(err)
	}
	if s := reasons.RecordSchemas; s.Protobuf == nil || s.Protobuf.Reason != "why" || s.Avro == nil || s.Avro.Reason != "why not" {
		t.Errorf("reasons read as %+v", s)
	}
	b, err := json.Marshal(Header{Schema: DatasetSchema, Workload: "jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "record_schemas") {
		t.Errorf("a header without schemas is written %s", b)
	}
}
