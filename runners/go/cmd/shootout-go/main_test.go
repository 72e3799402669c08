package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"shootout/internal/spec"
	"shootout/internal/workloadtest"
	"shootout/registry"
	"shootout/workload"
)

// TestMain runs the command itself when a test starts this binary as a child
// with runMainEnv set: exit status and stderr are main's, not run's.
func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
	}
	os.Exit(m.Run())
}

const runMainEnv = "SHOOTOUT_GO_TEST_RUN_MAIN"

// child runs this binary as the command (main, not run) with args: its exit
// status and standard error.
func child(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), stderr.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, stderr.String()
}

// command runs the command (run, not main) with args and --out into a
// fresh folder, wants exit status code and no error, and reads the file it
// wrote.
func command(t *testing.T, code int, args ...string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out.json")
	if got, err := run(append(append([]string{"shootout-go"}, args...), "--out", out)); got != code || err != nil {
		t.Fatalf("%v: exit %d, %v; want %d", args, got, err, code)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// results runs the runner on the user fixture with args and reads the
// results file it writes.
func results(t *testing.T, args ...string) []byte {
	t.Helper()
	return command(t, 0, append([]string{"--dataset", spec.Fixture(t, "user"), "--window", "128"}, args...)...)
}

// outcome is what a run of every format says of each: measured, failed
// (with its reason) or not run (with its reason), each list sorted, and
// the workload's name.
type outcome struct {
	workload                 string
	measured, failed, notRun []string
}

// runOn runs the command on dataset with every format, one run, wants exit
// status 3 (some failed), and checks the results file against the shared
// schema and that each format is listed once: measured, failed or not run
// with a reason.
func runOn(t *testing.T, dataset string) outcome {
	t.Helper()
	b := command(t, 3, "--dataset", dataset, "--runs", "1", "--warmup", "0", "--window", "2")
	spec.Validate(t, "results.schema.json", b)
	var r struct {
		Workload struct {
			Name string `json:"name"`
		} `json:"workload"`
		Formats []struct {
			Name string `json:"name"`
		} `json:"formats"`
		Failed []struct {
			Name   string `json:"name"`
			Reason string `json:"reason"`
		} `json:"failed"`
		NotRun []struct {
			Name   string `json:"name"`
			Reason string `json:"reason"`
		} `json:"not_run"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	o := outcome{workload: r.Workload.Name}
	for _, f := range r.Formats {
		o.measured = append(o.measured, f.Name)
	}
	for _, f := range r.Failed {
		o.failed = append(o.failed, f.Name+": "+f.Reason)
	}
	for _, f := range r.NotRun {
		o.notRun = append(o.notRun, f.Name+": "+f.Reason)
		if f.Reason == "" || f.Reason == "no mapping yet" {
			t.Errorf("%s: not run without its reason: %q", f.Name, f.Reason)
		}
	}
	slices.Sort(o.measured)
	slices.Sort(o.failed)
	slices.Sort(o.notRun)
	// The baseline is measured beside the registered formats.
	if listed := len(o.measured) - 1 + len(o.failed) + len(o.notRun); listed != len(registry.Formats)+len(registry.Unavailable) {
		t.Errorf("%d formats listed, %d registered: %+v", listed, len(registry.Formats)+len(registry.Unavailable), o)
	}
	return o
}

func TestRunWritesAResultsFileWithEveryFormatMeasuredOrNotRun(t *testing.T) {
	b := results(t, "--runs", "2", "--warmup", "0")
	var r struct {
		Schema  string            `json:"schema"`
		Runner  map[string]string `json:"runner"`
		Formats []struct {
			Name           string `json:"name"`
			LibraryVersion string `json:"library_version"`
			Decode         struct {
				Runs []json.RawMessage `json:"runs"`
			} `json:"decode"`
		} `json:"formats"`
		NotRun   []map[string]string `json:"not_run"`
		Warnings []string            `json:"warnings"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Schema != "shootout-results/3" || r.Runner["language"] != "go" {
		t.Fatalf("schema %q, runner %v", r.Schema, r.Runner)
	}
	// The baseline is measured too; the formats without a user codec and
	// those no Go library has are not run.
	user, notRun := 1, len(registry.Unavailable)
	for _, f := range registry.Formats {
		if slices.Contains(registry.RunsOn(f), "user") {
			user++
		} else {
			notRun++
		}
	}
	if len(r.Formats) != user {
		t.Fatalf("%d formats measured, %d registered for user", len(r.Formats), user)
	}
	for _, f := range r.Formats {
		if len(f.Decode.Runs) != 2 || f.LibraryVersion == "" {
			t.Errorf("%s: %d runs, version %q", f.Name, len(f.Decode.Runs), f.LibraryVersion)
		}
	}
	if len(r.NotRun) != notRun || len(r.Warnings) == 0 {
		t.Fatalf("not_run %v; warnings %v (--warmup 0 must warn)", r.NotRun, r.Warnings)
	}
}

func TestEachRunHoldsTheRawFiguresOnly(t *testing.T) {
	var r map[string]any
	if err := json.Unmarshal(results(t, "--runs", "2", "--formats", "json-std"), &r); err != nil {
		t.Fatal(err)
	}
	if _, ok := r["noisy"]; ok || r["schema"] != "shootout-results/3" {
		t.Fatalf("schema %v, noisy %v", r["schema"], r["noisy"])
	}
	if rounds := r["settings"].(map[string]any)["throughput_rounds"]; rounds != 1.0 {
		t.Fatalf("settings.throughput_rounds %v, want the default 1", rounds)
	}
	raw := []string{"allocated_bytes_per_op", "allocations_per_op", "histogram", "ops", "order_position", "round_ns", "total_ns"}
	for _, f := range r["formats"].([]any) {
		f := f.(map[string]any)
		for _, d := range []string{"encode", "decode"} {
			dir := f[d].(map[string]any)
			if keys := slices.Sorted(maps.Keys(dir)); !slices.Equal(keys, []string{"runs"}) {
				t.Fatalf("%s %s: keys %v, want runs only", f["name"], d, keys)
			}
			runs := dir["runs"].([]any)
			if len(runs) != 2 {
				t.Fatalf("%s %s: %d runs, want 2", f["name"], d, len(runs))
			}
			for _, run := range runs {
				run := run.(map[string]any)
				if keys := slices.Sorted(maps.Keys(run)); !slices.Equal(keys, raw) {
					t.Fatalf("%s %s: run keys %v, want %v", f["name"], d, keys, raw)
				}
				// One round (the default), which is the whole run.
				if rounds := run["round_ns"].([]any); len(rounds) != 1 || rounds[0] != run["total_ns"] {
					t.Fatalf("%s %s: round_ns %v, total_ns %v", f["name"], d, rounds, run["total_ns"])
				}
			}
		}
	}
}

func TestTheRunnerMakesExactlyTheRunsAskedFor(t *testing.T) {
	var r struct {
		Settings map[string]any `json:"settings"`
		Runs     []struct {
			Warmup bool `json:"warmup"`
		} `json:"runs"`
		Workload struct {
			Records uint64 `json:"records"`
		} `json:"workload"`
		Formats []struct {
			Name   string `json:"name"`
			Encode struct {
				Runs []struct{ Ops uint64 } `json:"runs"`
			} `json:"encode"`
			Decode struct {
				Runs []struct{ Ops uint64 } `json:"runs"`
			} `json:"decode"`
		} `json:"formats"`
	}
	if err := json.Unmarshal(results(t, "--runs", "2", "--warmup", "1", "--throughput-rounds", "3", "--order-seed", "9", "--formats", "json-std"), &r); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"warmup_runs": 1.0, "runs": 2.0, "throughput_rounds": 3.0, "window": 128.0, "order_seed": 9.0}
	if !maps.Equal(r.Settings, want) {
		t.Fatalf("settings %v, want %v", r.Settings, want)
	}
	if len(r.Runs) != 3 || !r.Runs[0].Warmup || r.Runs[1].Warmup || r.Runs[2].Warmup {
		t.Fatalf("runs %+v, want one warm-up then two measured", r.Runs)
	}
	if len(r.Formats) != 2 {
		t.Fatalf("%d formats, want json-std and the baseline", len(r.Formats))
	}
	for _, f := range r.Formats {
		if len(f.Encode.Runs) != 2 || len(f.Decode.Runs) != 2 {
			t.Errorf("%s: %d encode and %d decode runs, want exactly 2", f.Name, len(f.Encode.Runs), len(f.Decode.Runs))
		}
		for _, run := range append(f.Encode.Runs, f.Decode.Runs...) {
			if r.Workload.Records == 0 || run.Ops != 3*r.Workload.Records {
				t.Errorf("%s: %d ops in a run, want 3 rounds of %d records", f.Name, run.Ops, r.Workload.Records)
			}
		}
	}
}

func TestBadRunCountsAreOneLineUsageErrors(t *testing.T) {
	for _, c := range []struct{ flag, value string }{
		{"--runs", "0"}, {"--runs", "-1"}, {"--warmup", "-1"}, {"--window", "0"},
		{"--throughput-rounds", "0"}, {"--throughput-rounds", "101"},
	} {
		out := filepath.Join(t.TempDir(), "r.json")
		code, stderr := child(t, "--dataset", spec.Fixture(t, "user"), "--out", out, c.flag, c.value)
		if code != 2 {
			t.Errorf("%s %s: exit status %d, want 2", c.flag, c.value, code)
		}
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if len(lines) != 1 || !strings.HasPrefix(lines[0], "shootout-go: "+c.flag+" ") {
			t.Errorf("%s %s: stderr %q, want one line naming the flag", c.flag, c.value, stderr)
		}
		if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s %s: a results file was written (%v)", c.flag, c.value, err)
		}
	}
}

func TestAnUnknownFormatIsAUsageError(t *testing.T) {
	args := []string{"shootout-go", "--dataset", spec.Fixture(t, "user"), "--formats", "nope", "--out", filepath.Join(t.TempDir(), "r.json")}
	if code, err := run(args); code != 2 || err == nil {
		t.Fatalf("exit %d, %v; want 2 and an error", code, err)
	}
}

func TestInteropModesRoundTripThroughTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	dataset := spec.Fixture(t, "object")
	if code, err := run([]string{"shootout-go", "--dataset", dataset, "--interop-encode", dir, "--formats", "protobuf,capnp-packed,sbe"}); code != 0 || err != nil {
		t.Fatalf("encode: exit %d: %v", code, err)
	}
	var sbe struct {
		Error  *string `json:"error"`
		Stream *string `json:"stream"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "go-sbe.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sbe); err != nil || sbe.Error == nil || sbe.Stream != nil {
		t.Fatalf("sbe cannot encode u8 255 (its null): want the error in its manifest, got %s (%v)", b, err)
	}
	list := filepath.Join(dir, "list")
	requests := "protobuf\t" + filepath.Join(dir, "go-protobuf.bin") + "\ncapnp-packed\t" + filepath.Join(dir, "go-capnp-packed.bin") + "\n"
	if err := os.WriteFile(list, []byte(requests), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, err := run([]string{"shootout-go", "--dataset", dataset, "--interop-decode", list}); code != 0 || err != nil {
		t.Fatalf("decode: exit %d: %v", code, err)
	}
}

func TestInteropUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--dataset", spec.Fixture(t, "user"), "--interop-encode", dir, "--interop-decode", "list"},
		{"--dataset", spec.Fixture(t, "user"), "--interop-encode", dir, "--out", "r.json"},
		{"--interop-encode", dir},
		{"--dataset", spec.Fixture(t, "user"), "--interop-encode", dir, "--formats", "nope"},
		{"--dataset", spec.Fixture(t, "user"), "--interop-encode", dir, "--formats", "baseline"},
		{"--dataset", spec.Fixture(t, "user"), "--interop-decode", "list", "--formats", "protobuf"},
	} {
		if code, err := run(append([]string{"shootout-go"}, args...)); code != 2 || err == nil {
			t.Errorf("%v: exit %d, %v; want 2 and an error", args, code, err)
		}
	}
	if code, err := run([]string{"shootout-go", "--dataset", spec.Fixture(t, "user"), "--interop-decode", filepath.Join(dir, "absent")}); code != 1 || err == nil {
		t.Errorf("an unreadable list: exit %d, %v; want 1 and an error", code, err)
	}
}

func TestListJSONGivesEachFormatsWireAndFraming(t *testing.T) {
	var out bytes.Buffer
	if err := printList(&out); err != nil {
		t.Fatal(err)
	}
	var listed []listEntry
	if err := json.Unmarshal(out.Bytes(), &listed); err != nil {
		t.Fatal(err)
	}
	if len(listed) != len(registry.Formats)+len(registry.Unavailable) {
		t.Fatalf("%d entries listed", len(listed))
	}
	for i, f := range registry.Formats {
		if e := listed[i]; e.Name != f.Info.Name || e.Wire == "" || e.Wire != f.Info.Wire || e.Framing != f.Info.Framing {
			t.Errorf("%s: listed as %s, wire %q, framing %q", f.Info.Name, e.Name, e.Wire, e.Framing)
		}
	}
	// csv is jsonl under another name: listed where jsonl is, and only there.
	jsonl := 0
	for _, e := range listed {
		if slices.Contains(e.Workloads, "csv") != slices.Contains(e.Workloads, "jsonl") {
			t.Errorf("%s: workloads %v, want csv exactly where jsonl is", e.Name, e.Workloads)
		}
		if slices.Contains(e.Workloads, "jsonl") {
			jsonl++
		}
	}
	if jsonl == 0 {
		t.Error("no format lists jsonl")
	}
}

// The results file is what spec/results.schema.json (every runner's) says:
// measured, failed and not-run formats alike.
func TestTheResultsFileMatchesTheSharedSchema(t *testing.T) {
	// sbe fails on the fixture's level of 255, its null.
	b := command(t, 3, "--dataset", spec.Fixture(t, "object"), "--runs", "1", "--warmup", "0", "--window", "128",
		"--formats", "json-std,sbe")
	spec.Validate(t, "results.schema.json", b)
}

func TestStudyWritesItsFiguresAndNamesTheKnownOnesWhenAskedForAnother(t *testing.T) {
	b := command(t, 0, "--study", "go-flatbuffers-json", "--benchtime", "1x")
	var figures struct{ Schema string }
	if err := json.Unmarshal(b, &figures); err != nil || figures.Schema != "shootout-study-figures/1" {
		t.Fatalf("schema %q, %v", figures.Schema, err)
	}
	code, err := run([]string{"shootout-go", "--study", "nope", "--out", filepath.Join(t.TempDir(), "figures.json")})
	if code != 2 || err == nil || !strings.Contains(err.Error(), "known: go-flatbuffers-json") {
		t.Fatalf("exit %d, %v; want 2 and the known studies", code, err)
	}
}

// replayPlan writes a shootout-replay-plan/1 file over the iex fixture's 184
// records, sent 10 µs apart, with one run of its first 40 at max.
func replayPlan(t *testing.T, schema string, send []int64) string {
	t.Helper()
	if send == nil {
		send = make([]int64, 184)
		for i := range send {
			send[i] = int64(i) * 10_000
		}
	}
	return spec.WriteJSON(t, "plan.json", map[string]any{"schema": schema, "send_time_ns": send, "busiest_second": map[string]int{"first": 0, "end": 184},
		"transports": []string{"ring"}, "warmup_records": 10, "runs": []map[string]any{{"speed": "max", "first": 0, "end": 40}}})
}

func TestReplayWritesItsRunsAndRefusesABadPlanInOneLine(t *testing.T) {
	args := []string{"--dataset", spec.Fixture(t, "iex"), "--replay", replayPlan(t, "shootout-replay-plan/1", nil), "--formats", "protobuf"}
	b := command(t, 0, args...)
	var r struct {
		Schema string `json:"schema"`
		Runs   []struct {
			Format   string  `json:"format"`
			Received uint64  `json:"received"`
			Error    *string `json:"error"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Schema != "shootout-replay-runs/1" || len(r.Runs) != 1 || r.Runs[0].Format != "protobuf" || r.Runs[0].Received != 40 || r.Runs[0].Error != nil {
		t.Fatalf("%s", b)
	}
	out := filepath.Join(t.TempDir(), "runs.json")
	if code, err := run(append([]string{"shootout-go", "--runs", "2", "--out", out}, args...)); code != 2 || err == nil || !strings.Contains(err.Error(), "not --runs") {
		t.Fatalf("--replay with --runs: exit %d, %v; want a usage error", code, err)
	}

	decreasing := make([]int64, 184)
	decreasing[0] = 5
	for _, c := range []struct {
		plan, dataset, want string
	}{
		{replayPlan(t, "shootout-replay-plan/9", nil), spec.Fixture(t, "iex"), `schema "shootout-replay-plan/9", expected "shootout-replay-plan/1"`},
		{replayPlan(t, "shootout-replay-plan/1", decreasing), spec.Fixture(t, "iex"), "expected non-decreasing send times"},
		{replayPlan(t, "shootout-replay-plan/1", nil), spec.Fixture(t, "user"), `workload "user", expected "iex"`},
	} {
		code, stderr := child(t, "--dataset", c.dataset, "--replay", c.plan, "--out", out)
		if code != 1 {
			t.Errorf("%s: exit status %d, want 1", c.want, code)
		}
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if len(lines) != 1 || !strings.HasPrefix(lines[0], "shootout-go: ") || !strings.Contains(lines[0], c.want) ||
			!(strings.Contains(lines[0], c.plan) || strings.Contains(lines[0], c.dataset)) {
			t.Errorf("stderr %q, want one line naming the file and saying %q", stderr, c.want)
		}
	}
}

// A jsonl dataset runs end to end: every format with a codec through its
// dynamic model is measured or failed with its model's loss, every other
// one is not run with its reason, and the file is what the schema says.
func TestAJsonlDatasetRunsEveryFormatOrSaysWhy(t *testing.T) {
	// The five records of every kind: json-v2 reads its integers as floats,
	// and bson cannot write its third, an array, as a document.
	o := runOn(t, spec.Testdata(t, "jsonl/kinds.jsonl"))
	want := []string{"baseline", "cbor-fxamacker", "gob", "json-goccy", "json-sonic", "json-std", "msgpack-map", "msgpack-msgp"}
	if !slices.Equal(o.measured, want) {
		t.Errorf("measured %v, want %v", o.measured, want)
	}
	if len(o.failed) != 2 || !strings.HasPrefix(o.failed[0], "bson: encoding failed: a BSON document is an object; this record is a JSON array") ||
		!strings.Contains(o.failed[1], "json-v2: decoded data does not match the reference aggregate (throughput pass): integers read back as floats") {
		t.Errorf("failed %q", o.failed)
	}
}

// A csv dataset (a CSV file's rows, as the Rust side hands them over: jsonl
// objects under another name) runs end to end as the same records as a
// jsonl dataset do: the same formats measured, failed and not run, for the
// same reasons, and its results name the workload csv.
func TestACsvDatasetRunsAsTheSameJsonlDatasetDoes(t *testing.T) {
	// Columns id (integer), name (text), price (float), active (boolean)
	// and note (text, its empty cells absent members).
	rows := []string{
		`{"id":1,"name":"ünï","price":1.5,"active":true,"note":"a, \"quoted\" cell"}`,
		`{"id":2,"name":"b","price":-0.25,"active":false}`,
		`{"id":-3,"name":"c","price":100.0,"active":true,"note":"x"}`,
		`{"id":9007199254740993,"name":"d","price":1e-7,"active":false}`,
	}
	var records []workload.JSONRecord
	for _, row := range rows {
		records = append(records, workloadtest.JSONRecord(t, row))
	}
	dir := t.TempDir()
	datasets := map[string]string{}
	for _, ws := range []workloadtest.JSONSpec{workload.JSONLSpec, workload.CSVSpec} {
		datasets[ws.Name] = filepath.Join(dir, ws.Name+".jsonl")
		workloadtest.WriteDataset(t, datasets[ws.Name], ws, "rows of a CSV file", records)
	}
	csv := runOn(t, datasets["csv"])
	if csv.workload != "csv" {
		t.Errorf("results name the workload %q, want csv", csv.workload)
	}
	// v2 reads every number as a float64, and 2^53+1 is not one (the first
	// finding of its losses); every other model keeps the rows.
	want := []string{"baseline", "bson", "cbor-fxamacker", "gob", "json-goccy", "json-sonic", "json-std", "msgpack-map", "msgpack-msgp"}
	if !slices.Equal(csv.measured, want) {
		t.Errorf("measured %v, want %v", csv.measured, want)
	}
	if len(csv.failed) != 1 || !strings.HasPrefix(csv.failed[0], "json-v2: decoded data does not match the reference aggregate (throughput pass): integers beyond ±2^53: 1 in the input, 0 decoded") {
		t.Errorf("failed %q", csv.failed)
	}
	jsonl := runOn(t, datasets["jsonl"])
	if jsonl.workload != "jsonl" || !slices.Equal(csv.measured, jsonl.measured) || !slices.Equal(csv.failed, jsonl.failed) || !slices.Equal(csv.notRun, jsonl.notRun) {
		t.Errorf("csv: %+v\njsonl: %+v", csv, jsonl)
	}
}

// A jsonl dataset run with a schema measures the formats of its schema,
// and names the one whose schema it lacks not run, with the reason; the
// results file is what the schema says, api "dynamic" included.
func TestASchemaDatasetRunsItsSchemaFormat(t *testing.T) {
	b := command(t, 0, "--dataset", spec.Fixture(t, "jsonl-protobuf"), "--runs", "1", "--warmup", "0", "--window", "64",
		"--formats", "protobuf-dynamic,protobuf-hyperpb,avro-generic")
	spec.Validate(t, "results.schema.json", b)
	var r struct {
		Formats []struct {
			Name   string `json:"name"`
			Labels struct {
				API string `json:"api"`
			} `json:"labels"`
		} `json:"formats"`
		NotRun []map[string]string `json:"not_run"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Formats) != 3 || r.Formats[1].Name != "protobuf-dynamic" || r.Formats[2].Name != "protobuf-hyperpb" ||
		r.Formats[1].Labels.API != "dynamic" || r.Formats[2].Labels.API != "dynamic" {
		t.Errorf("measured %+v, want the baseline, protobuf-dynamic and protobuf-hyperpb", r.Formats)
	}
	i := slices.IndexFunc(r.NotRun, func(n map[string]string) bool { return n["name"] == "avro-generic" })
	if i < 0 || r.NotRun[i]["reason"] != "no Avro schema: run with --schema FILE.avsc (a csv run builds one from its columns)" {
		t.Errorf("not run %v, want avro-generic with its reason", r.NotRun)
	}
}
