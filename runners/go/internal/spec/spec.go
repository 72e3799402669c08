// Package spec finds the repository's spec/ folder (spec/README.md): the
// facts the three languages share, which the Go tests check the runner
// against.
package spec

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Path is the spec/ file at name (e.g. "vectors.json"), found beside the
// test's working directory or one of its parents: go test runs each
// package's tests in the package's own folder, inside the repository.
func Path(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if info, err := os.Stat(filepath.Join(dir, "spec", "fixtures")); err == nil && info.IsDir() {
			return filepath.Join(dir, "spec", name)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no spec/fixtures folder above the working directory")
		}
		dir = parent
	}
}

// Fixture is the shared sample dataset of workload w (spec/fixtures/w.jsonl).
// A missing one fails the test, naming it: no test passes over a workload
// for want of its fixture.
func Fixture(t testing.TB, w string) string {
	t.Helper()
	path := Path(t, filepath.Join("fixtures", w+".jsonl"))
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("workload %s has no shared fixture: %v (the Rust side writes spec/fixtures/<workload>.jsonl, spec/README.md)", w, err)
	}
	return path
}

// Testdata is the file at name in the Go runner's own testdata/ folder
// (beside go.mod): inputs the Go tests share that are not the spec's.
func Testdata(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata", name)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod above the working directory")
		}
		dir = parent
	}
}

// WriteJSON writes v as JSON to a file named name in a fresh temporary
// folder of the test, and returns its path: an input the test makes up.
func WriteJSON(t testing.TB, name string, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Validate fails the test unless doc, a JSON document, is what the JSON
// Schema spec/schema (e.g. "results.schema.json") says, its formats
// asserted: every runner's output is held to the same file.
func Validate(t testing.TB, schema string, doc []byte) {
	t.Helper()
	compiler := jsonschema.NewCompiler()
	compiler.AssertFormat()
	compiled, err := compiler.Compile(Path(t, schema))
	if err != nil {
		t.Fatal(err)
	}
	value, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if err := compiled.Validate(value); err != nil {
		t.Fatal(err)
	}
}
