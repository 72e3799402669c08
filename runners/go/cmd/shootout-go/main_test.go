package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"shootout/registry"
)

// results runs the runner with args and reads the results file it writes.
func results(t *testing.T, args ...string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "results.json")
	args = append([]string{"shootout-go", "--dataset", "../../testdata/user.jsonl", "--window", "128", "--out", out}, args...)
	if code, err := run(args); code != 0 || err != nil {
		t.Fatalf("exit %d: %v", code, err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
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
	if len(r.Formats) != len(registry.User()) {
		t.Fatalf("%d formats measured, %d registered for user", len(r.Formats), len(registry.User()))
	}
	for _, f := range r.Formats {
		if len(f.Decode.Runs) != 2 || f.LibraryVersion == "" {
			t.Errorf("%s: %d runs, version %q", f.Name, len(f.Decode.Runs), f.LibraryVersion)
		}
	}
	if len(r.NotRun) != len(registry.Unavailable) || len(r.Warnings) == 0 {
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
	raw := []string{"allocated_bytes_per_op", "allocations_per_op", "histogram", "ops", "order_position", "total_ns"}
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
				if keys := slices.Sorted(maps.Keys(run.(map[string]any))); !slices.Equal(keys, raw) {
					t.Fatalf("%s %s: run keys %v, want %v", f["name"], d, keys, raw)
				}
			}
		}
	}
}

func TestATimeBudgetAddsRunsUpToMaxRuns(t *testing.T) {
	var r struct {
		Settings map[string]any `json:"settings"`
		Runs     []any          `json:"runs"`
		Formats  []struct {
			Encode struct {
				Runs []any `json:"runs"`
			} `json:"encode"`
		} `json:"formats"`
	}
	if err := json.Unmarshal(results(t, "--runs", "1", "--warmup", "1", "--time-budget-ms", "60000", "--max-runs", "3", "--formats", "json-std"), &r); err != nil {
		t.Fatal(err)
	}
	if r.Settings["runs"] != 1.0 || r.Settings["time_budget_ms"] != 60000.0 || r.Settings["max_runs"] != 3.0 {
		t.Fatalf("settings %v", r.Settings)
	}
	for _, f := range r.Formats {
		if n := len(f.Encode.Runs); n <= 1 || n > 3 || len(r.Runs) != n+1 {
			t.Fatalf("%d measured runs of %d, want more than 1, at most 3, after 1 warm-up", n, len(r.Runs))
		}
	}
}

func TestBadRunCountFlagsAreUsageErrors(t *testing.T) {
	for _, extra := range [][]string{{"--runs", "5", "--max-runs", "4"}, {"--time-budget-ms", "-1"}} {
		args := append([]string{"shootout-go", "--dataset", "../../testdata/user.jsonl", "--out", filepath.Join(t.TempDir(), "r.json")}, extra...)
		if code, err := run(args); code != 2 || err == nil {
			t.Errorf("%v: exit %d, %v; want 2 and an error", extra, code, err)
		}
	}
}

func TestAnUnknownFormatIsAUsageError(t *testing.T) {
	args := []string{"shootout-go", "--dataset", "../../testdata/user.jsonl", "--formats", "nope", "--out", filepath.Join(t.TempDir(), "r.json")}
	if code, err := run(args); code != 2 || err == nil {
		t.Fatalf("exit %d, %v; want 2 and an error", code, err)
	}
}

func TestInteropModesRoundTripThroughTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	dataset := "../../testdata/primitives.jsonl"
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
		t.Fatalf("sbe cannot encode i32 -2^31 (its null): want the error in its manifest, got %s (%v)", b, err)
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
		{"--dataset", "../../testdata/user.jsonl", "--interop-encode", dir, "--interop-decode", "list"},
		{"--dataset", "../../testdata/user.jsonl", "--interop-encode", dir, "--out", "r.json"},
		{"--interop-encode", dir},
		{"--dataset", "../../testdata/user.jsonl", "--interop-encode", dir, "--formats", "nope"},
		{"--dataset", "../../testdata/user.jsonl", "--interop-encode", dir, "--formats", "baseline"},
		{"--dataset", "../../testdata/user.jsonl", "--interop-decode", "list", "--formats", "protobuf"},
	} {
		if code, err := run(append([]string{"shootout-go"}, args...)); code != 2 || err == nil {
			t.Errorf("%v: exit %d, %v; want 2 and an error", args, code, err)
		}
	}
	if code, err := run([]string{"shootout-go", "--dataset", "../../testdata/user.jsonl", "--interop-decode", filepath.Join(dir, "absent")}); code != 1 || err == nil {
		t.Errorf("an unreadable list: exit %d, %v; want 1 and an error", code, err)
	}
}
