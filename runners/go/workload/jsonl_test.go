package workload

import (
	"encoding/json"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"shootout/internal/spec"
)

// valueHash is the value hash of one canonical value, as a sink of one
// record adds it up.
func valueHash(t *testing.T, text string) uint64 {
	t.Helper()
	var r JSONRecord
	if err := ReadJSONRecord([]byte(text), &r); err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	s := NewJSONSink()
	FeedJSON(&r, s)
	return s.Finish().Hash
}

// The value hash of docs/dataset-format.md on spec/vectors.json's texts
// (every language checks its own against the same file).
func TestJSONValueHashMatchesTheSharedVectors(t *testing.T) {
	for _, v := range sharedVectors(t).JSONLHash.Vectors {
		if got := valueHash(t, v.JSON); got != v.Hash {
			t.Errorf("%s: hash %d, want %d", v.JSON, got, v.Hash)
		}
		// Written back canonically and read again, the value is the same.
		var r JSONRecord
		ReadJSONRecord([]byte(v.JSON), &r)
		if again := string(AppendJSON(nil, &r.Value)); valueHash(t, again) != v.Hash {
			t.Errorf("%s written as %s: hash %d, want %d", v.JSON, again, valueHash(t, again), v.Hash)
		}
	}
}

// Each integer's hash goes by its value, whichever sink method a library's
// type takes it through.
func TestIntegersHashByValueWhateverTheirType(t *testing.T) {
	for _, text := range []string{"0", "-1", "9007199254740993", "9223372036854775807", "-9223372036854775808",
		"9223372036854775808", "18446744073709551615", "18446744073709551616", "-9223372036854775809",
		"123456789012345678901234567890", "-123456789012345678901234567890"} {
		want := valueHash(t, text)
		b, _ := new(big.Int).SetString(text, 10)
		sinks := map[string]func(*JSONSink){
			"BigInt": func(s *JSONSink) { s.BigInt(b) },
			"Number": func(s *JSONSink) {
				if err := s.Number(text); err != nil {
					t.Fatal(err)
				}
			},
		}
		if b.IsInt64() {
			sinks["Int"] = func(s *JSONSink) { s.Int(b.Int64()) }
		}
		if b.IsUint64() {
			sinks["Uint"] = func(s *JSONSink) { s.Uint(b.Uint64()) }
		}
		for name, feed := range sinks {
			s := NewJSONSink()
			feed(s)
			if got := s.Finish().Hash; got != want {
				t.Errorf("%s through %s: hash %d, want %d", text, name, got, want)
			}
		}
	}
}

// The records of every kind and the edge records were written, header and
// reference included, by an independent oracle of the spec: read here and
// fed to the sink, each adds up to its reference exactly (duplicate_keys
// too), and written back canonically it reads the same.
func TestTheOraclesDatasetsAddUpToTheirReferences(t *testing.T) {
	for _, path := range []string{spec.Testdata(t, "jsonl/kinds.jsonl"), spec.Testdata(t, "jsonl/edge.jsonl"), spec.Testdata(t, "jsonl/edges.jsonl")} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			records, header := readAll(t, path, JSONLSpec, 2)
			var want JSONAggregate
			if err := json.Unmarshal(header.Reference, &want); err != nil {
				t.Fatal(err)
			}
			sink := NewJSONSink()
			for i := range records {
				FeedJSON(&records[i], sink)
			}
			if got := sink.Finish(); got != want {
				t.Fatalf("aggregate %+v, want %+v", got, want)
			}
			// The dataset written back reads as the same records.
			again := filepath.Join(t.TempDir(), "again.jsonl")
			f, err := os.Create(again)
			if err != nil {
				t.Fatal(err)
			}
			if err := WriteDataset(f, JSONLSpec, "again", records); err != nil {
				t.Fatal(err)
			}
			f.Close()
			_, header2 := readAll(t, again, JSONLSpec, 100)
			var got JSONAggregate
			json.Unmarshal(header2.Reference, &got)
			if got != want {
				t.Fatalf("written back: %+v, want %+v", got, want)
			}
		})
	}
}

func TestTheSampleLinesAreWrittenBackAsTheOracleWroteThem(t *testing.T) {
	b, err := os.ReadFile(spec.Testdata(t, "jsonl/kinds.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")[1:]
	for _, line := range lines {
		var r JSONRecord
		if err := ReadJSONRecord([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if got := string(AppendJSON(nil, &r.Value)); got != line {
			t.Errorf("read %s, wrote %s", line, got)
		}
	}
}

func TestFloatTextIsShortestWithAPointOrAnExponent(t *testing.T) {
	for f, want := range map[float64]string{1: "1.0", math.Copysign(0, -1): "-0.0", 0: "0.0", 1e300: "1e300", 1.5e-7: "1.5e-7",
		0.1: "0.1", -2.5e-8: "-2.5e-8", 1e16: "1e16", 1e15: "1000000000000000.0", 123.456: "123.456", 5e-324: "5e-324",
		math.MaxFloat64: "1.7976931348623157e308", 1e-5: "0.00001"} {
		if got := string(AppendFloatText(nil, f)); got != want {
			t.Errorf("%v: %s, want %s", f, got, want)
		}
		var v JSONValue
		if err := parseNumber(want, &v); err != nil || v.Kind != JSONFloat || v.Bits != math.Float64bits(f) {
			t.Errorf("%s reads back as %+v (%v)", want, v, err)
		}
	}
}

func TestReadingKeepsKindsOrderAndDuplicates(t *testing.T) {
	var r JSONRecord
	text := `{"b":1,"a":1.0,"b":-0,"c":[18446744073709551615,-9223372036854775809,1E2],"d":"\ud83d\ude00"}`
	if err := ReadJSONRecord([]byte(text), &r); err != nil {
		t.Fatal(err)
	}
	v := r.Value
	if strings.Join(v.Keys, ",") != "b,a,b,c,d" || r.DuplicateKeys != 1 {
		t.Fatalf("keys %v, %d duplicates", v.Keys, r.DuplicateKeys)
	}
	kinds := []JSONKind{v.Items[0].Kind, v.Items[1].Kind, v.Items[2].Kind, v.Items[3].Items[0].Kind, v.Items[3].Items[1].Kind, v.Items[3].Items[2].Kind}
	want := []JSONKind{JSONInt, JSONFloat, JSONInt, JSONUint, JSONBig, JSONFloat}
	for i := range want {
		if kinds[i] != want[i] {
			t.Errorf("value %d: kind %v, want %v", i, kinds[i], want[i])
		}
	}
	if v.Items[4].Text != "😀" {
		t.Errorf("a surrogate pair reads as %q", v.Items[4].Text)
	}
	// Many keys: the set past the first few finds the duplicates too.
	var many strings.Builder
	many.WriteString("{")
	for i := range 20 {
		many.WriteString(`"k` + string(rune('a'+i%10)) + `":0,`)
	}
	many.WriteString(`"z":0}`)
	if err := ReadJSONRecord([]byte(many.String()), &r); err != nil || r.DuplicateKeys != 10 {
		t.Fatalf("%d duplicates (%v), want 10", r.DuplicateKeys, err)
	}
}

func TestReadingRefusesWhatTheSpecRefuses(t *testing.T) {
	deep := strings.Repeat("[", MaxJSONDepth+1) + strings.Repeat("]", MaxJSONDepth+1)
	ok := strings.Repeat("[", MaxJSONDepth) + strings.Repeat("]", MaxJSONDepth)
	for text, want := range map[string]string{
		"1e400":              "beyond the double range",
		"-1e400":             "beyond the double range",
		`"\ud800"`:           "without its partner",
		`"\ud800x"`:          "without its partner",
		`["\ud800\u0041"]`:   "without its partner",
		`{"\udc00":1}`:       "without its first",
		deep:                 "nested deeper than 512",
		"":                   "no JSON value",
		"1 2":                "more than one JSON value",
		"{\"a\":1}x":         "invalid character",
		"\"\xff\"":           "not valid UTF-8",
		"[1,]":               "invalid character",
		`{"a" 1}`:            "invalid character",
		`"\\ud800"`:          "",
		`"\\\ud83d\ude00"`:   "",
		ok:                   "",
		"1e-400":             "",
		"123456789012345678": "",
	} {
		var r JSONRecord
		err := ReadJSONRecord([]byte(text), &r)
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("%.40s: got %v, want %q", text, err, want)
		}
	}
}

// A bad record is an error naming its line, as for every workload.
func TestABadJSONLRecordNamesItsLine(t *testing.T) {
	b, err := os.ReadFile(spec.Testdata(t, "jsonl/kinds.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	lines[3] = "[1e400]\n"
	path := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644)
	r, err := OpenDataset(path, JSONLSpec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = r.Next(100)
	if err == nil || !strings.Contains(err.Error(), "line 4: the float 1e400 is beyond the double range") {
		t.Fatalf("got %v", err)
	}
}

// Each difference is named as the spec orders them, with both figures.
func TestTheFirstDifferenceIsNamedInTheSpecsOrder(t *testing.T) {
	read := func(text string) *JSONSink {
		var r JSONRecord
		if err := ReadJSONRecord([]byte(text), &r); err != nil {
			t.Fatal(err)
		}
		s := NewJSONSink()
		FeedJSON(&r, s)
		return s
	}
	input := read(`{"a":1,"a":2,"big":123456789012345678901234567890,"n":[9007199254740993,-0.0,1.0,7,"x",null,true]}`)
	want := input.Finish()
	for decoded, finding := range map[string]string{
		`{"a":2,"big":123456789012345678901234567890,"n":[9007199254740993,-0.0,1.0,7,"x",null,true]}`:             "members: 4 in the input, 3 decoded (the input has 1 duplicate key: the library keeps one value per key)",
		`{"a":1,"a":2,"big":1.2345678901234568e29,"n":[9007199254740993,-0.0,1.0,7,"x",null,true]}`:                "integers beyond 64 bits: 1 in the input, 0 decoded",
		`{"a":1,"a":2,"big":123456789012345678901234567890,"n":[9007199254740992.0,-0.0,1.0,7,"x",null,true]}`:     "integers beyond ±2^53: 2 in the input, 1 decoded",
		`{"a":1,"a":2,"big":123456789012345678901234567890,"n":[9007199254740993,0.0,1.0,7,"x",null,true]}`:        "-0.0: 1 in the input, 0 decoded",
		`{"a":1.0,"a":2.0,"big":123456789012345678901234567890,"n":[9007199254740993,-0.0,1.0,7.0,"x",null,true]}`: "integers read back as floats: integers: 5 in the input, 2 decoded; floats: 2 in the input, 5 decoded",
		`{"a":1,"a":2,"big":123456789012345678901234567890,"n":[9007199254740993,-0.0,1,7,"x",null,true]}`:         "floats with integral values read back as integers: integers: 5 in the input, 6 decoded; floats: 2 in the input, 1 decoded",
		`{"a":1,"a":2,"big":123456789012345678901234567890,"n":[9007199254740993,-0.0,1.0,7,"x","null",true]}`:     "nulls: 1 in the input, 0 decoded",
		`{"a":1,"a":2,"big":123456789012345678901234567890,"n":[9007199254740993,-0.0,1.0,7,"y",null,true]}`:       "a value changed: hash",
		`{"a":1,"a":2,"big":123456789012345678901234567890,"n":[9007199254740993,-0.0,1.0,7,"x",null,true]}`:       "",
	} {
		got := want.FirstDifference(read(decoded))
		if (finding == "") != (got == "") || !strings.HasPrefix(got, finding) {
			t.Errorf("%s:\n got %q\nwant %q", decoded, got, finding)
		}
	}
	// A second record, and a sink fed out of order, are differences too.
	two := read(`1`)
	FeedJSON(&JSONRecord{}, two)
	if got := read(`1`).Finish().FirstDifference(two); got != "expected 1 records, decoded 2" {
		t.Errorf("got %q", got)
	}
	bad := NewJSONSink()
	bad.BeginObject()
	bad.Null()
	if got := want.FirstDifference(bad); !strings.Contains(got, "key was due") {
		t.Errorf("got %q", got)
	}
	open := NewJSONSink()
	open.BeginArray()
	if got := want.FirstDifference(open); !strings.Contains(got, "left 1 arrays or objects open") {
		t.Errorf("got %q", got)
	}
}

// After warm-up the sink allocates nothing per value, whatever the depth.
func TestTheSinkAllocatesNothingPerValueAfterWarmUp(t *testing.T) {
	var r JSONRecord
	text := `{"a":[1,2.5,"x",null,true,{"b":[[[18446744073709551615]]]}],"c":{}}`
	if err := ReadJSONRecord([]byte(text), &r); err != nil {
		t.Fatal(err)
	}
	s := NewJSONSink()
	FeedJSON(&r, s)
	if n := testing.AllocsPerRun(100, func() { FeedJSON(&r, s) }); n != 0 {
		t.Fatalf("%v allocations per record", n)
	}
}

// A csv dataset is a jsonl one under another name (docs/dataset-format.md):
// the same lines under a header saying "csv" read as the same records
// adding up to the same reference, and write back the same; each spec
// reads only a header naming its own workload.
func TestACsvDatasetIsAJsonlDatasetUnderAnotherName(t *testing.T) {
	jsonl := spec.Testdata(t, "jsonl/kinds.jsonl")
	b, err := os.ReadFile(jsonl)
	if err != nil {
		t.Fatal(err)
	}
	header, lines, _ := strings.Cut(string(b), "\n")
	if strings.Count(header, `"workload":"jsonl"`) != 1 {
		t.Fatalf("header %s", header)
	}
	csv := filepath.Join(t.TempDir(), "kinds-csv.jsonl")
	if err := os.WriteFile(csv, []byte(strings.Replace(header, `"workload":"jsonl"`, `"workload":"csv"`, 1)+"\n"+lines), 0o644); err != nil {
		t.Fatal(err)
	}
	if CSVSpec.Name != "csv" || JSONLSpec.Name != "jsonl" {
		t.Fatalf("names %q, %q", CSVSpec.Name, JSONLSpec.Name)
	}
	want, _ := readAll(t, jsonl, JSONLSpec, 2)
	got, h := readAll(t, csv, CSVSpec, 2)
	check, err := CSVSpec.Checker(h.Reference)
	if err != nil {
		t.Fatal(err)
	}
	sink := CSVSpec.NewSink()
	for i := range got {
		CSVSpec.Feed(&got[i], sink)
	}
	if d := check(sink); d != "" {
		t.Fatal(d)
	}
	var written strings.Builder
	if err := WriteDataset(&written, CSVSpec, "a test's records", got); err != nil {
		t.Fatal(err)
	}
	writtenHeader, writtenLines, _ := strings.Cut(written.String(), "\n")
	if writtenLines != lines || !strings.Contains(writtenHeader, `"workload":"csv"`) {
		t.Fatalf("written back:\n%s\nwant the lines\n%s", written.String(), lines)
	}
	if len(got) != len(want) {
		t.Fatalf("%d records as csv, %d as jsonl", len(got), len(want))
	}
	for i := range got {
		if g, w := AppendJSON(nil, &got[i].Value), AppendJSON(nil, &want[i].Value); string(g) != string(w) {
			t.Errorf("record %d: %s as csv, %s as jsonl", i, g, w)
		}
	}
	for _, c := range []struct {
		path string
		spec Spec[JSONRecord, *JSONSink]
		want string
	}{
		{csv, JSONLSpec, `workload "csv", expected "jsonl"`},
		{jsonl, CSVSpec, `workload "jsonl", expected "csv"`},
	} {
		if r, err := OpenDataset(c.path, c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			if r != nil {
				r.Close()
			}
			t.Errorf("%s as %s: %v, want %q", c.path, c.spec.Name, err, c.want)
		}
	}
}
