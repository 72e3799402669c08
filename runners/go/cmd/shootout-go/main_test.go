package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"shootout/registry"
)

func TestRunWritesAResultsFileWithEveryFormatMeasuredOrNotRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "results.json")
	args := []string{"shootout-go", "--dataset", "../../testdata/user.jsonl", "--runs", "2", "--warmup", "0", "--window", "128", "--out", out}
	if code, err := run(args); code != 0 || err != nil {
		t.Fatalf("exit %d: %v", code, err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
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
	if r.Schema != "shootout-results/2" || r.Runner["language"] != "go" {
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
