package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"

	"shootout/codec"
	specfiles "shootout/internal/spec"
)

// formatRow is one row of spec/formats.json (spec/README.md).
type formatRow struct {
	Language  string       `json:"language"`
	Name      string       `json:"name"`
	Family    string       `json:"family"`
	Wire      *string      `json:"wire"`
	Framing   string       `json:"framing"`
	Labels    codec.Labels `json:"labels"`
	Workloads []string     `json:"workloads"`
}

type formatsFile struct {
	Schema  string            `json:"schema"`
	Formats []json.RawMessage `json:"formats"`
}

const (
	formatsSchema = "shootout-formats/1"
	language      = "go"
)

// goRows are the registry's formats as spec/formats.json has them, in
// registry order.
func goRows() []formatRow {
	rows := []formatRow{}
	for _, f := range Formats {
		row := formatRow{Language: language, Name: f.Info.Name, Family: f.Info.Family, Framing: f.Info.Framing,
			Labels: f.Info.Labels, Workloads: RunsOn(f)}
		if f.Info.Wire != "" {
			row.Wire = &f.Info.Wire
		}
		rows = append(rows, row)
	}
	return rows
}

func readFormats(t *testing.T, path string) formatsFile {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return formatsFile{Schema: formatsSchema}
	}
	if err != nil {
		t.Fatal(err)
	}
	var file formatsFile
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return file
}

func rowLanguage(t *testing.T, raw json.RawMessage) string {
	var row struct {
		Language string `json:"language"`
	}
	if err := json.Unmarshal(raw, &row); err != nil {
		t.Fatal(err)
	}
	return row.Language
}

// The Go registry is what spec/formats.json says of Go; with
// SHOOTOUT_UPDATE_EXPECTED=1 the test rewrites the Go rows (only them) where
// they differ.
func TestTheRegistryIsSpecFormatsGoRows(t *testing.T) {
	path := specfiles.Path(t, "formats.json")
	want := goRows()
	diff := rowsDiff(want, fileGoRows(t, path))
	if diff != "" && os.Getenv("SHOOTOUT_UPDATE_EXPECTED") == "1" {
		writeGoRows(t, path, want)
		diff = rowsDiff(want, fileGoRows(t, path))
	}
	if diff != "" {
		t.Fatalf("the registry and %s's go rows differ (- registry, + file; SHOOTOUT_UPDATE_EXPECTED=1 go test ./registry rewrites the file's):\n%s", path, diff)
	}
}

func fileGoRows(t *testing.T, path string) []formatRow {
	file := readFormats(t, path)
	if file.Schema != formatsSchema {
		t.Fatalf("%s: schema %q, want %q", path, file.Schema, formatsSchema)
	}
	var rows []formatRow
	for _, raw := range file.Formats {
		if rowLanguage(t, raw) != language {
			continue
		}
		var row formatRow
		if err := json.Unmarshal(raw, &row); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row)
	}
	return rows
}

// rowsDiff lists the rows that differ, one JSON line each, or returns "".
func rowsDiff(want, got []formatRow) string {
	line := func(r formatRow) string {
		b, _ := json.Marshal(r)
		return string(b)
	}
	var diff strings.Builder
	for i := range max(len(want), len(got)) {
		switch {
		case i >= len(got):
			diff.WriteString("- " + line(want[i]) + "\n")
		case i >= len(want):
			diff.WriteString("+ " + line(got[i]) + "\n")
		case line(want[i]) != line(got[i]):
			diff.WriteString("- " + line(want[i]) + "\n+ " + line(got[i]) + "\n")
		}
	}
	return diff.String()
}

// writeGoRows replaces the file's go rows with rows, after the rust rows and
// before every other language's, keeping those as they are.
func writeGoRows(t *testing.T, path string, rows []formatRow) {
	file := readFormats(t, path)
	var rust, others []json.RawMessage
	for _, raw := range file.Formats {
		switch rowLanguage(t, raw) {
		case "rust":
			rust = append(rust, raw)
		case language:
		default:
			others = append(others, raw)
		}
	}
	ours := make([]json.RawMessage, len(rows))
	for i, row := range rows {
		b, err := json.Marshal(row)
		if err != nil {
			t.Fatal(err)
		}
		ours[i] = b
	}
	file.Formats = slices.Concat(rust, ours, others)
	var out bytes.Buffer
	encoder := json.NewEncoder(&out)
	encoder.SetEscapeHTML(false)
	encoder.SetIndent("", "  ")
	if err := encoder.Encode(file); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
