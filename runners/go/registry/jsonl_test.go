package registry

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"shootout/harness"
	specfiles "shootout/internal/spec"
	"shootout/internal/workloadtest"
	"shootout/workload"
)

// jsonlModelLosses are, per format, the findings its library's dynamic
// model can show on any JSON Lines data (the edge tests below show each):
// on the jsonl fixture, whose content the Rust side chooses, a format must
// match its reference or show one of them. Every model whose objects are
// maps keeps one value per key.
var jsonlModelLosses = map[string][]string{
	"json-std":       {duplicateKeys},
	"json-goccy":     {duplicateKeys},
	"json-sonic":     {duplicateKeys},
	"cbor-fxamacker": {duplicateKeys},
	"gob":            {duplicateKeys},
	// v2 reads every number as a float64 and writes an integral one without
	// a fraction: a reader that keeps numbers' kinds reads it as an integer.
	"json-v2": {duplicateKeys, "integers beyond 64 bits: ", "integers beyond ±2^53: ", "integers read back as floats: ",
		"floats with integral values read back as integers: "},
	"msgpack-map":  {duplicateKeys, "a []uint8 is not a JSON value"},
	"msgpack-msgp": {duplicateKeys, `msgp: type "big.Int" not supported`},
	"bson": {"a BSON document is an object; this record is a JSON ", "overflows int64", "integers beyond 64 bits: ",
		"BSON element key cannot contain null bytes"},
	// A format with a schema codec runs a dataset's projections, which its
	// message or generic record holds exactly (its own tests pin each
	// projection's edge values).
	"protobuf-dynamic": nil,
	"protobuf-hyperpb": nil,
	"avro-generic":     nil,
}

const duplicateKeys = "the library keeps one value per key"

// allowed says whether err is nil or one of the findings listed.
func allowed(err error, findings []string) bool {
	return err == nil || slices.ContainsFunc(findings, func(f string) bool { return strings.Contains(err.Error(), f) })
}

// jsonlTests are the typed tests of the jsonl workload, or of csv (spec),
// whose records are jsonl's: its records are read from files, and what a
// format shows on the fixture depends on the fixture's content
// (jsonlModelLosses); the edge records pin each loss.
func jsonlTests(spec workloadtest.JSONSpec) workloadTests {
	return workloadTests{
		name: spec.Name,
		fixture: func(t *testing.T) {
			records, check := workloadtest.Fixture(t, spec)
			jsonlFixture(t, spec, Entries(spec), records, check)
			for name, path := range schemaFixtures(t, spec) {
				t.Run("with a schema: "+name, func(t *testing.T) {
					records, check := workloadtest.Dataset(t, spec, path)
					jsonlFixture(t, spec, boundEntries(t, path), records, check)
				})
			}
		},
		crossRead: func(t *testing.T) {
			records, check := workloadtest.Fixture(t, spec)
			crossReadAllowing(t, Entries(spec), spec, records, check, jsonlModelLosses)
		},
		edges: func(t *testing.T) {
			jsonlEdges(t, spec)
		},
		corrupted: func(t *testing.T) {
			records, _ := workloadtest.Fixture(t, spec)
			corrupt(t, Entries(spec), spec, records)
			for name, path := range schemaFixtures(t, spec) {
				t.Run("with a schema: "+name, func(t *testing.T) {
					records, _ := workloadtest.Dataset(t, spec, path)
					withSchema := slices.DeleteFunc(boundEntries(t, path), func(e jsonlEntry) bool {
						return slices.ContainsFunc(Entries(spec), func(s jsonlEntry) bool { return s.Info.Name == e.Info.Name })
					})
					corrupt(t, withSchema, spec, records)
				})
			}
		},
	}
}

type jsonlEntry = harness.Entry[workload.JSONRecord, *workload.JSONSink]

// jsonlFixture trips a fixture's records through entries: each must match
// its reference or show a loss of its library's model.
func jsonlFixture(t *testing.T, spec workloadtest.JSONSpec, entries []jsonlEntry, records []workload.JSONRecord, check func(*workload.JSONSink) string) {
	for _, e := range entries {
		t.Run(e.Info.Name, func(t *testing.T) {
			if err := trip(e.New(), spec, records, check); !allowed(err, jsonlModelLosses[e.Info.Name]) {
				t.Fatal(err)
			} else if err != nil {
				t.Logf("a loss of the library's model: %v", err)
			}
		})
	}
}

// schemaFixtures are the shared fixtures of a jsonl run with a schema
// (spec/fixtures/jsonl-protobuf.jsonl and jsonl-avro.jsonl: jsonl's events
// projected by events.proto, events.avsc), by name, as datasets of spec's
// workload: csv's are copies whose header names csv.
func schemaFixtures(t *testing.T, spec workloadtest.JSONSpec) map[string]string {
	t.Helper()
	paths := map[string]string{}
	for _, name := range []string{"jsonl-protobuf", "jsonl-avro"} {
		paths[name] = specfiles.Fixture(t, name)
		if spec.Name == workload.JSONLSpec.Name {
			continue
		}
		b, err := os.ReadFile(paths[name])
		if err != nil {
			t.Fatal(err)
		}
		renamed := bytes.Replace(b, []byte(`"workload":"jsonl"`), []byte(`"workload":"`+spec.Name+`"`), 1)
		paths[name] = filepath.Join(t.TempDir(), name+".jsonl")
		if err := os.WriteFile(paths[name], renamed, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return paths
}

// boundWorkload is the workload of the dataset at path, bound to its record
// schemas as the runner binds it (WorkloadOf).
func boundWorkload(t *testing.T, path string) Workload {
	t.Helper()
	header, err := workload.ReadHeader(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := WorkloadOf(path, header)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// boundEntries are the entries, baseline first, of the jsonl or csv dataset
// at path: its formats with schema codecs run as its schemas let them.
func boundEntries(t *testing.T, path string) []jsonlEntry {
	t.Helper()
	return boundWorkload(t, path).entries.([]jsonlEntry)
}

// crossReadAllowing is crossRead where a reader may show its own or the
// writer's model's losses.
func crossReadAllowing[R, S any](t *testing.T, entries []harness.Entry[R, S], spec workload.Spec[R, S], records []R, check func(S) string,
	losses map[string][]string) {
	for _, writer := range entries {
		encoder := writer.New()
		var stream []byte
		var err error
		for i := range records {
			if stream, err = encoder.Encode(stream, &records[i]); err != nil {
				break
			}
		}
		if !allowed(err, losses[writer.Info.Name]) {
			t.Fatalf("%s: %v", writer.Info.Name, err)
		}
		for _, reader := range entries {
			if err != nil || reader.Info.Name == writer.Info.Name || reader.Info.Wire != writer.Info.Wire || reader.Info.Framing != writer.Info.Framing {
				continue
			}
			t.Run(writer.Info.Name+"/"+reader.Info.Name, func(t *testing.T) {
				either := slices.Concat(losses[writer.Info.Name], losses[reader.Info.Name])
				if err := decodeAll(reader.New(), spec, stream, check); !allowed(err, either) {
					t.Fatal(err)
				}
			})
		}
	}
}

// jsonlOutcome is what one format shows on a dataset: "" for a match, or a
// part of its error (an encode or decode error, or the aggregate's finding).
type jsonlOutcome = map[string]string

// The oracle's records of every kind (testdata/jsonl/kinds.jsonl: five
// records, three of them not objects) as it is, whatever spec/fixtures
// holds: every format but these two matches its reference.
var sampleOutcomes = jsonlOutcome{
	// v2 unmarshals every number into an any as a float64.
	"json-v2": "integers read back as floats: integers: 10 in the input, 0 decoded; floats: 5 in the input, 15 decoded",
	// A BSON message is a document; record 2 is an array.
	"bson": "record 2: a BSON document is an object; this record is a JSON array",
}

// The edge record (testdata/jsonl/edge.jsonl): 2^60, 2^64-1, an integer
// beyond 64 bits, -0.0, 1.0, a key twice and 200 nested arrays, in one
// object. Each format shows its first loss only; edgeOutcomes has them all.
var edgeOutcome = jsonlOutcome{
	"json-std":       "members: 8 in the input, 7 decoded (the input has 1 duplicate key: the library keeps one value per key)",
	"json-goccy":     "members: 8 in the input, 7 decoded (the input has 1 duplicate key",
	"json-sonic":     "members: 8 in the input, 7 decoded (the input has 1 duplicate key",
	"json-v2":        "members: 8 in the input, 7 decoded (the input has 1 duplicate key",
	"cbor-fxamacker": "members: 8 in the input, 7 decoded (the input has 1 duplicate key",
	"gob":            "members: 8 in the input, 7 decoded (the input has 1 duplicate key",
	"msgpack-map":    "record 0 at byte 0: a []uint8 is not a JSON value",
	"msgpack-msgp":   `record 0: msgp: type "big.Int" not supported`,
	"bson":           "record 0: 18446744073709551615 overflows int64",
}

// edgeOutcomes are the edge values each alone, one record each
// (testdata/jsonl/edges.jsonl, in this order), so every loss shows: record
// → format → outcome, a format not named matching.
var edgeOutcomes = []jsonlOutcome{
	// 2^60: v2's float64 holds it exactly, but as a float.
	{"json-v2": "integers beyond ±2^53: 1 in the input, 0 decoded"},
	// 2^64-1: a float64 rounds it to 2^64; BSON has no unsigned integer,
	// and the driver refuses a uint64 above 2^63-1.
	{"json-v2": "integers beyond ±2^53: 1 in the input, 0 decoded", "bson": "record 0: 18446744073709551615 overflows int64"},
	// 123456789012345678901234567890 as a *big.Int: vmihailenco writes its
	// MarshalText as MessagePack bin, which reads back as []byte; msgp's
	// AppendIntf has no case for it; the BSON driver writes it as the
	// struct it is, with no exported field: an empty document. fxamacker
	// writes a CBOR bignum and reads back a big.Int; gob uses its GobEncode.
	{
		"json-v2":      "integers beyond 64 bits: 1 in the input, 0 decoded",
		"msgpack-map":  "record 0 at byte 0: a []uint8 is not a JSON value",
		"msgpack-msgp": `record 0: msgp: type "big.Int" not supported`,
		"bson":         "integers beyond 64 bits: 1 in the input, 0 decoded",
	},
	// -0.0: every model keeps it; json.Number keeps its text.
	{},
	// 1.0: every model keeps it a float.
	{},
	// 200 nested arrays: within every library's limit (fxamacker's is raised
	// to the spec's 512 from its default 32).
	{},
	// {"k":1,"k":2}: a map keeps one value per key; bson.D keeps both.
	{
		"json-std": duplicateKeys, "json-goccy": duplicateKeys, "json-sonic": duplicateKeys, "json-v2": duplicateKeys,
		"cbor-fxamacker": duplicateKeys, "gob": duplicateKeys, "msgpack-map": duplicateKeys, "msgpack-msgp": duplicateKeys,
	},
}

// checkOutcomes trips records through every format of spec's workload
// (jsonl or csv) and checks each shows exactly its outcome.
func checkOutcomes(t *testing.T, spec workloadtest.JSONSpec, records []workload.JSONRecord,
	check func(*workload.JSONSink) string, want jsonlOutcome) {
	t.Helper()
	for _, e := range Entries(spec) {
		err := trip(e.New(), spec, records, check)
		w := want[e.Info.Name]
		switch {
		case w == "" && err != nil:
			t.Errorf("%s: want a match, got %v", e.Info.Name, err)
		case w != "" && (err == nil || !strings.Contains(err.Error(), w)):
			t.Errorf("%s: want %q, got %v", e.Info.Name, w, err)
		}
		if w != "" && !allowed(err, jsonlModelLosses[e.Info.Name]) {
			t.Errorf("%s: %v is not among the losses its model is listed with", e.Info.Name, err)
		}
	}
}

// jsonlEdges checks the outcomes of the edge records (jsonl datasets in
// testdata/jsonl) through the formats of spec's workload: on csv, the same
// codecs must show the same losses.
func jsonlEdges(t *testing.T, spec workloadtest.JSONSpec) {
	t.Run("sample", func(t *testing.T) {
		records, check := workloadtest.Dataset(t, workload.JSONLSpec, specfiles.Testdata(t, "jsonl/kinds.jsonl"))
		checkOutcomes(t, spec, records, check, sampleOutcomes)
	})
	t.Run("edge record", func(t *testing.T) {
		records, check := workloadtest.Dataset(t, workload.JSONLSpec, specfiles.Testdata(t, "jsonl/edge.jsonl"))
		checkOutcomes(t, spec, records, check, edgeOutcome)
	})
	records, _ := workloadtest.Dataset(t, workload.JSONLSpec, specfiles.Testdata(t, "jsonl/edges.jsonl"))
	if len(records) != len(edgeOutcomes) {
		t.Fatalf("%d edge records, %d outcomes", len(records), len(edgeOutcomes))
	}
	for i := range records {
		t.Run(fmt.Sprintf("edge %d", i), func(t *testing.T) {
			one := records[i : i+1]
			checkOutcomes(t, spec, one, referenceOf(t, spec, one), edgeOutcomes[i])
		})
	}
}

// Every format is on jsonl: a codec through its dynamic model, or a reason.
func TestEveryFormatRunsJsonlOrSaysWhyNot(t *testing.T) {
	w, err := WorkloadOf("", workload.Header{Workload: "jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range w.NotRun() {
		if n.Reason == noMapping {
			t.Errorf("%s: %s", n.Name, n.Reason)
		}
	}
	for name := range jsonlModelLosses {
		if !slices.ContainsFunc(Formats, func(f Format) bool { return f.Info.Name == name && w.Runs(f) }) {
			t.Errorf("%s is listed with its losses but does not run jsonl", name)
		}
	}
	for _, f := range Formats {
		if _, listed := jsonlModelLosses[f.Info.Name]; w.Runs(f) && !listed {
			t.Errorf("%s runs jsonl but its model's losses are not listed", f.Info.Name)
		}
	}
}

// A deeper record than the spec reads never reaches a codec, but the
// deepest it reads goes through every one.
func TestTheDeepestRecordTheSpecReadsGoesThroughEveryFormat(t *testing.T) {
	text := `{"v":` + strings.Repeat("[", workload.MaxJSONDepth-1) + strings.Repeat("]", workload.MaxJSONDepth-1) + `}`
	one := []workload.JSONRecord{workloadtest.JSONRecord(t, text)}
	checkOutcomes(t, workload.JSONLSpec, one, referenceOf(t, workload.JSONLSpec, one), jsonlOutcome{})
}

// A csv dataset holds jsonl records under another name: every format runs
// it with the codec it runs jsonl with, or gives the reason it gives there.
func TestCsvRunsAsJsonlInEveryFormat(t *testing.T) {
	jsonl, err := WorkloadOf("", workload.Header{Workload: "jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	csv, err := WorkloadOf("", workload.Header{Workload: "csv"})
	if err != nil {
		t.Fatal(err)
	}
	if csv.As != jsonl.Name || jsonl.As != jsonl.Name {
		t.Fatalf("csv runs as %q, jsonl as %q; want both as jsonl", csv.As, jsonl.As)
	}
	for _, f := range Formats {
		if csv.Runs(f) != jsonl.Runs(f) || slices.Contains(RunsOn(f), "csv") != slices.Contains(RunsOn(f), "jsonl") {
			t.Errorf("%s: runs csv %v, jsonl %v; RunsOn %v", f.Info.Name, csv.Runs(f), jsonl.Runs(f), RunsOn(f))
		}
	}
	if got, want := csv.NotRun(), jsonl.NotRun(); !slices.Equal(got, want) {
		t.Errorf("not run on csv:\n%v\non jsonl:\n%v", got, want)
	}
	codecs := func(entries []harness.Entry[workload.JSONRecord, *workload.JSONSink]) []string {
		var out []string
		for _, e := range entries {
			out = append(out, fmt.Sprintf("%s %s %s %T", e.Info.Name, e.Info.Wire, e.Info.Framing, e.New()))
		}
		return out
	}
	if got, want := codecs(Entries(workload.CSVSpec)), codecs(Entries(workload.JSONLSpec)); !slices.Equal(got, want) {
		t.Errorf("csv's codecs %v, jsonl's %v", got, want)
	}
}

// The formats with schema codecs run a jsonl or csv dataset whose header
// holds their schema; on one without, they are not run, with the reason
// that says how to give one or the reason the header gives instead; they
// run no other workload.
func TestTheSchemaFormatsRunWithTheirSchemaOrSayWhyNot(t *testing.T) {
	const (
		noProtobuf = "no protobuf schema: run with --schema FILE.proto (a csv run builds one from its columns)"
		noAvro     = "no Avro schema: run with --schema FILE.avsc (a csv run builds one from its columns)"
		columns    = `column 2's name, "unit price", is not an identifier`
	)
	withReasons := workload.RecordSchemas{Protobuf: &workload.ProtobufSchema{Reason: columns}, Avro: &workload.AvroSchema{Reason: columns + "!"}}
	// The formats with schema codecs, each of a protobuf or an Avro schema:
	// its wire.
	var schemaFormats []Format
	for _, f := range Formats {
		if f.JsonlWithSchema == nil {
			continue
		}
		if f.Info.Wire != "protobuf" && f.Info.Wire != "avro" {
			t.Fatalf("%s: a schema format of wire %q; this test knows the protobuf and avro schemas' reasons", f.Info.Name, f.Info.Wire)
		}
		schemaFormats = append(schemaFormats, f)
	}
	for _, spec := range []workloadtest.JSONSpec{workload.JSONLSpec, workload.CSVSpec} {
		fixtures := schemaFixtures(t, spec)
		// The jsonl fixture has no schema; the csv fixture carries the two its columns give.
		own := map[string][2]string{"jsonl": {noProtobuf, noAvro}, "csv": {"", ""}}[spec.Name]
		for _, c := range []struct {
			dataset string
			w       Workload
			// What each shows: "" to run, or its reason not to.
			protobuf, avro string
		}{
			{"its fixture", boundWorkload(t, specfiles.Fixture(t, spec.Name)), own[0], own[1]},
			{"jsonl-protobuf", boundWorkload(t, fixtures["jsonl-protobuf"]), "", noAvro},
			{"jsonl-avro", boundWorkload(t, fixtures["jsonl-avro"]), noProtobuf, ""},
			{"reasons", mustWorkloadOf(t, workload.Header{Workload: spec.Name, RecordSchemas: withReasons}), columns, columns + "!"},
		} {
			for _, f := range schemaFormats {
				name, want := f.Info.Name, map[string]string{"protobuf": c.protobuf, "avro": c.avro}[f.Info.Wire]
				runs := slices.ContainsFunc(c.w.entries.([]jsonlEntry), func(e jsonlEntry) bool { return e.Info.Name == name })
				notRun := c.w.NotRun()
				i := slices.IndexFunc(notRun, func(n harness.NotRun) bool { return n.Name == name })
				switch {
				case want == "" && (!runs || i >= 0):
					t.Errorf("%s, %s: %s runs %v, not run %v; want it run", spec.Name, c.dataset, name, runs, i >= 0)
				case want != "" && (runs || i < 0 || notRun[i].Reason != want):
					t.Errorf("%s, %s: %s runs %v, not run %+v; want not run: %s", spec.Name, c.dataset, name, runs, notRun, want)
				}
			}
		}
	}
	for _, w := range Workloads {
		if w.As == workload.JSONLSpec.Name {
			continue
		}
		shown := 0
		for _, n := range w.NotRun() {
			if slices.ContainsFunc(schemaFormats, func(f Format) bool { return f.Info.Name == n.Name }) {
				shown++
				if n.Reason != "dynamic: runs only the jsonl and csv workloads, with a schema" {
					t.Errorf("%s: %s: %s", w.Name, n.Name, n.Reason)
				}
			}
		}
		if shown != len(schemaFormats) {
			t.Errorf("%s: %d of the %d schema formats listed not run", w.Name, shown, len(schemaFormats))
		}
	}
}

func mustWorkloadOf(t *testing.T, header workload.Header) Workload {
	t.Helper()
	w, err := WorkloadOf("", header)
	if err != nil {
		t.Fatal(err)
	}
	return w
}
