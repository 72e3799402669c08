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
