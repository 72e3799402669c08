// Command rowgen writes the Go code of the tabular workloads (mixed,
// strings, longs: rows of 20 optional cells) from their Avro schemas
// (schemas/records/{mixed,strings,longs}.avsc, the plainest statement of each
// cell's name and type): the row types and their Visit (package workload),
// and each IDL format's mapping between a row and its generated message
// (formats/{sbe,capnp,flatbuf,thrift,protobuf}/rows_gen.go), and mus's
// hand-written serializer of each row (formats/mus/rows_gen.go). The code is
// written out field by field, as by hand, so the timed path has no
// reflection and no loop over cells. scripts/regenerate/go-rows.sh runs it.
// It prints each file it wrote, one a line, relative to runners/go; with
// -list it writes nothing and prints the files it would write, which is how
// scripts/regenerate.sh --check knows what to compare.
//
//	go run ./internal/rowgen ../../schemas/records/mixed.avsc ../../schemas/records/strings.avsc ../../schemas/records/longs.avsc
//	go run ./internal/rowgen -list
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"text/template"
)

// row is one tabular workload's record.
type row struct {
	// Workload is the workload's name (mixed), Name the same capitalised
	// (Mixed), Type the record's (MixedRow).
	Workload, Name, Type string
	Cells                []cell
}

// cell is one optional field.
type cell struct {
	// Index is its position: the sink's field, SBE's presence bit, Cap'n
	// Proto's present bit, FlatBuffers' slot.
	Index int
	// Name is the schema's (f1), Field the Go field's (F1).
	Name, Field string
	// Avro is its type in the .avsc: string, int, long, float or double.
	Avro string
}

// kinds are what the generated code needs of each Avro type.
var kinds = map[string]struct {
	goType string
	// sink is the FieldSink method a value feeds, widen the conversion
	// its argument needs.
	sink, widen string
	// size is the bytes a FlatBuffers scalar takes; 0 for a string.
	size int
}{
	"string": {"string", "String", "", 0},
	"int":    {"int32", "Int", "int64", 4},
	"long":   {"int64", "Int", "", 8},
	"float":  {"float32", "Float", "float64", 4},
	"double": {"float64", "Float", "", 8},
}

func (c cell) Text() bool     { return c.Avro == "string" }
func (c cell) GoType() string { return kinds[c.Avro].goType }

// TypeName is its Go type capitalised, as method names spell it (Int32).
func (c cell) TypeName() string { return strings.ToUpper(c.GoType()[:1]) + c.GoType()[1:] }

// FlatbuffersGet is the flatbuffers.Table getter of a scalar cell.
func (c cell) FlatbuffersGet() string {
	return "Get" + c.TypeName()
}

func (c cell) FlatbuffersSize() int { return kinds[c.Avro].size }

// Feed is the sink call that feeds value, a Go value of the cell's type (a
// []byte for text when viewed is set), to the cell's field.
func (c cell) Feed(value string, viewed bool) string {
	k := kinds[c.Avro]
	switch {
	case c.Text() && viewed:
		return fmt.Sprintf("s.Text(%d, %s)", c.Index, value)
	case k.widen != "":
		return fmt.Sprintf("s.%s(%d, %s(%s))", k.sink, c.Index, k.widen, value)
	}
	return fmt.Sprintf("s.%s(%d, %s)", k.sink, c.Index, value)
}

// Scalars says whether any cell is not text (Cap'n Proto then keeps their
// presence in a bit mask).
func (r row) Scalars() bool {
	for _, c := range r.Cells {
		if !c.Text() {
			return true
		}
	}
	return false
}

// TextOnly are the text cells: SBE's var-data fields.
func (r row) TextOnly() []cell {
	var texts []cell
	for _, c := range r.Cells {
		if c.Text() {
			texts = append(texts, c)
		}
	}
	return texts
}

func readRow(path string) (row, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return row{}, err
	}
	var schema struct {
		Name   string `json:"name"`
		Fields []struct {
			Name string `json:"name"`
			Type any    `json:"type"`
		} `json:"fields"`
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		return row{}, fmt.Errorf("%s: %w", path, err)
	}
	name, ok := strings.CutSuffix(schema.Name, "Row")
	if !ok {
		return row{}, fmt.Errorf("%s: record %q is not a tabular row (…Row)", path, schema.Name)
	}
	r := row{Workload: strings.ToLower(name), Name: name, Type: schema.Name}
	for i, f := range schema.Fields {
		union, _ := f.Type.([]any)
		avro := ""
		if len(union) == 2 && union[0] == "null" {
			avro, _ = union[1].(string)
		}
		if _, known := kinds[avro]; !known {
			return row{}, fmt.Errorf("%s: field %s is %v, not an optional string, int, long, float or double", path, f.Name, f.Type)
		}
		r.Cells = append(r.Cells, cell{Index: i, Name: f.Name, Field: strings.ToUpper(f.Name[:1]) + f.Name[1:], Avro: avro})
	}
	return r, nil
}

// outputs are the files written, relative to runners/go, and their templates.
var outputs = []struct{ path, template string }{
	{"workload/rows_gen.go", workloadRows},
	{"formats/sbe/rows_gen.go", sbeRows},
	{"formats/capnp/rows_gen.go", capnpRows},
	{"formats/flatbuf/rows_gen.go", flatbufRows},
	{"formats/thrift/rows_gen.go", thriftRows},
	{"formats/protobuf/rows_gen.go", protobufRows},
	{"formats/mus/rows_gen.go", musRows},
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "rowgen:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 1 && args[0] == "-list" {
		for _, out := range outputs {
			fmt.Println(out.path)
		}
		return nil
	}
	if len(args) == 0 {
		return fmt.Errorf("usage: rowgen SCHEMA.avsc... | rowgen -list")
	}
	return generate(args)
}

// generate writes every output from the rows of schemas.
func generate(schemas []string) error {
	var rows []row
	var names []string
	for _, path := range schemas {
		r, err := readRow(path)
		if err != nil {
			return err
		}
		rows = append(rows, r)
		names = append(names, strings.TrimSuffix(filepath.Base(path), ".avsc"))
	}
	header := fmt.Sprintf("// Code generated by scripts/regenerate.sh (go-rows) from schemas/records/{%s}.avsc. DO NOT EDIT.\n\n", strings.Join(names, ","))
	for _, out := range outputs {
		t, err := template.New(out.path).Parse(out.template)
		if err != nil {
			return err
		}
		var code bytes.Buffer
		code.WriteString(header)
		if err := t.Execute(&code, rows); err != nil {
			return fmt.Errorf("%s: %w", out.path, err)
		}
		formatted, err := format.Source(code.Bytes())
		if err != nil {
			return fmt.Errorf("%s: %w", out.path, err)
		}
		if err := os.WriteFile(out.path, formatted, 0o644); err != nil {
			return err
		}
		fmt.Println(out.path)
	}
	return nil
}

const workloadRows = `package workload

{{range .}}
// {{.Type}} is the {{.Workload}} workload's record: a nil cell is absent.
type {{.Type}} struct {
{{- range .Cells}}
	{{.Field}} *{{.GoType}} ` + "`" + `json:"{{.Name}}" msgpack:"{{.Name}}" cbor:"{{.Name}}"` + "`" + `
{{- end}}
}

// Visit feeds every present cell to the sink, at its position.
func (r *{{.Type}}) Visit(s *FieldSink) {
	s.Record()
{{- range .Cells}}
	if r.{{.Field}} != nil {
		{{.Feed (printf "*r.%s" .Field) false}}
	}
{{- end}}
}
{{end}}`

const sbeRows = `package sbe

import (
	"shootout/codec"
	sbe "shootout/generated/sbe/iex_sbe"
	"shootout/workload"
)

// The tabular rows: the presence bitset says which cells hold a value; an
// absent scalar is written 0, an absent string as empty var data, neither read.
{{range .}}
func {{.Name}}() codec.Codec[workload.{{.Type}}, *workload.FieldSink] {
	return newFieldCodec(nil, {{len .TextOnly}}, to{{.Name}}, feed{{.Name}})
}

func to{{.Name}}(r *workload.{{.Type}}, m *sbe.{{.Type}}) {
	clear(m.Present[:])
{{- range .Cells}}
{{- if .Text}}
	m.{{.Field}} = m.{{.Field}}[:0]
	if r.{{.Field}} != nil {
		m.Present[{{.Index}}], m.{{.Field}} = true, append(m.{{.Field}}, *r.{{.Field}}...)
	}
{{- else}}
	m.{{.Field}} = 0
	if r.{{.Field}} != nil {
		m.Present[{{.Index}}], m.{{.Field}} = true, *r.{{.Field}}
	}
{{- end}}
{{- end}}
}

func feed{{.Name}}(m *sbe.{{.Type}}, s *workload.FieldSink) {
	s.Record()
{{- range .Cells}}
	if m.Present[{{.Index}}] {
		{{.Feed (printf "m.%s" .Field) true}}
	}
{{- end}}
}
{{end}}`

const capnpRows = `package capnp

import (
	"capnproto.org/go/capnp/v3"

	"shootout/generated/capnp/records"
	"shootout/workload"
)

// The tabular rows: a text cell is present when its pointer is non-null, a
// scalar cell when its bit (1 << i) is set in present (records.capnp).
{{range .}}
var {{.Name}}Unpacked, {{.Name}}Packed = both(build{{.Name}}, read{{.Name}})

func build{{.Name}}(seg *capnp.Segment, r *workload.{{.Type}}) error {
	m, err := records.NewRoot{{.Type}}(seg)
	if err != nil {
		return err
	}
{{- if .Scalars}}
	var present uint32
{{- end}}
{{- range .Cells}}
	if r.{{.Field}} != nil {
{{- if .Text}}
		if err := m.Set{{.Field}}(*r.{{.Field}}); err != nil {
			return err
		}
{{- else}}
		m.Set{{.Field}}(*r.{{.Field}})
		present |= 1 << {{.Index}}
{{- end}}
	}
{{- end}}
{{- if .Scalars}}
	m.SetPresent(present)
{{- end}}
	return nil
}

func read{{.Name}}(msg *capnp.Message, s *workload.FieldSink) error {
	m, err := records.ReadRoot{{.Type}}(msg)
	if err != nil {
		return err
	}
	s.Record()
{{- if .Scalars}}
	present := m.Present()
{{- end}}
{{- range .Cells}}
{{- if .Text}}
	if m.Has{{.Field}}() {
		b, err := m.{{.Field}}Bytes()
		if err != nil {
			return err
		}
		{{.Feed "b" true}}
	}
{{- else}}
	if present&(1<<{{.Index}}) != 0 {
		{{.Feed (printf "m.%s()" .Field) true}}
	}
{{- end}}
{{- end}}
	return nil
}
{{end}}`

const flatbufRows = `package flatbuf

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"shootout/codec"
	"shootout/generated/flatbuffers/shootout/records"
	"shootout/workload"
)

// The tabular rows: a string cell absent or an optional scalar (` + "`= null`" + `)
// written only when present. Read through the table by slot: the generated
// accessors return optional scalars through a pointer, an allocation each.
{{range .}}
func {{.Name}}() codec.Codec[workload.{{.Type}}, *workload.FieldSink] {
	return newTable({{.Workload}}Fields, build{{.Name}}, read{{.Name}})
}

var {{.Workload}}Fields = []field{
{{- range .Cells}}
{{- if .Text}}
	{kind: str},
{{- else}}
	{kind: inline, size: {{.FlatbuffersSize}}},
{{- end}}
{{- end}}
}

func build{{.Name}}(b *flatbuffers.Builder, r *workload.{{.Type}}) flatbuffers.UOffsetT {
{{- $type := .Type}}
{{- if .TextOnly}}
	// Strings first, as FlatBuffers builds bottom-up.
	var {{range $i, $c := .TextOnly}}{{if $i}}, {{end}}{{$c.Name}}{{end}} flatbuffers.UOffsetT
{{- range .TextOnly}}
	if r.{{.Field}} != nil {
		{{.Name}} = b.CreateString(*r.{{.Field}})
	}
{{- end}}
{{- end}}
	records.{{.Type}}Start(b)
{{- range .Cells}}
	if r.{{.Field}} != nil {
{{- if .Text}}
		records.{{$type}}Add{{.Field}}(b, {{.Name}})
{{- else}}
		records.{{$type}}Add{{.Field}}(b, *r.{{.Field}})
{{- end}}
	}
{{- end}}
	return records.{{.Type}}End(b)
}

func read{{.Name}}(buf []byte, pos flatbuffers.UOffsetT, s *workload.FieldSink) {
	t := flatbuffers.Table{Bytes: buf, Pos: pos}
	s.Record()
{{- range .Cells}}
	if o := flatbuffers.UOffsetT(t.Offset(slot({{.Index}}))); o != 0 {
{{- if .Text}}
		{{.Feed "t.ByteVector(o + pos)" true}}
{{- else}}
		{{.Feed (printf "t.%s(o + pos)" .FlatbuffersGet) true}}
{{- end}}
	}
{{- end}}
}
{{end}}`

const thriftRows = `package thrift

import (
	"shootout/codec"
	"shootout/generated/thrift/records"
	"shootout/workload"
)

// The tabular rows: optional fields; a float cell is a double in Thrift,
// widened exactly and narrowed back.
{{range .}}
func {{.Name}}Binary() codec.Codec[workload.{{.Type}}, *workload.FieldSink] {
	return fields(binary, to{{.Name}}, feed{{.Name}})
}

func {{.Name}}Compact() codec.Codec[workload.{{.Type}}, *workload.FieldSink] {
	return fields(compact, to{{.Name}}, feed{{.Name}})
}

func to{{.Name}}(r *workload.{{.Type}}, m *records.{{.Type}}) {
{{- range .Cells}}
{{- if eq .Avro "float"}}
	m.{{.Field}} = nil
	if r.{{.Field}} != nil {
		v := float64(*r.{{.Field}})
		m.{{.Field}} = &v
	}
{{- else}}
	m.{{.Field}} = r.{{.Field}}
{{- end}}
{{- end}}
}

func feed{{.Name}}(m *records.{{.Type}}, s *workload.FieldSink) {
	s.Record()
{{- range .Cells}}
	if m.{{.Field}} != nil {
{{- if eq .Avro "float"}}
		{{.Feed (printf "float32(*m.%s)" .Field) false}}
{{- else}}
		{{.Feed (printf "*m.%s" .Field) false}}
{{- end}}
	}
{{- end}}
}
{{end}}`

const protobufRows = `package protobuf

import (
	"shootout/codec"
	"shootout/generated/protobuf/records"
	"shootout/workload"
)

// The tabular rows: proto3 optional fields, the row's own Go types.
{{range .}}
func {{.Name}}With[X Marshaller]() codec.Codec[workload.{{.Type}}, *workload.FieldSink] {
	return &fieldCodec[workload.{{.Type}}, records.{{.Type}}, *records.{{.Type}}, X]{to: to{{.Name}}, from: feed{{.Name}}}
}

func to{{.Name}}(r *workload.{{.Type}}, m *records.{{.Type}}) {
{{- range .Cells}}
	m.{{.Field}} = r.{{.Field}}
{{- end}}
}

func feed{{.Name}}(m *records.{{.Type}}, s *workload.FieldSink) error {
	s.Record()
{{- range .Cells}}
	if m.{{.Field}} != nil {
		{{.Feed (printf "*m.%s" .Field) false}}
	}
{{- end}}
	return nil
}
{{end}}`

const musRows = `package mus

import (
	"shootout/codec"
	"shootout/workload"
)

// The tabular rows: each cell a flag byte, then its value when present (ord.NewPtrSer).
{{range .}}
func {{.Name}}() codec.Codec[workload.{{.Type}}, *workload.FieldSink] {
	return fields(write{{.Name}}, read{{.Name}}, (*workload.{{.Type}}).Visit)
}

func write{{.Name}}(o *out, r *workload.{{.Type}}) {
{{- range .Cells}}
	writeOptional(o, optional{{.TypeName}}, r.{{.Field}})
{{- end}}
}

func read{{.Name}}(f *in, r *workload.{{.Type}}) {
{{- range .Cells}}
	r.{{.Field}} = readOptional(f, optional{{.TypeName}})
{{- end}}
}
{{end}}`
