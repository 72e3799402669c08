package workload

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// DatasetSchema is the only dataset version this runner reads.
const DatasetSchema = "shootout-dataset/1"

// Header is a dataset's first line.
type Header struct {
	Schema   string          `json:"schema"`
	Workload string          `json:"workload"`
	Records  uint64          `json:"records"`
	Source   string          `json:"source"`
	Input    json.RawMessage `json:"input"`
	Fields   []string        `json:"fields"`
	// RecordSchemas, in a jsonl or csv dataset run with schemas, are the
	// schemas its records were checked against and projected by; absent,
	// none.
	RecordSchemas RecordSchemas   `json:"record_schemas,omitzero"`
	Reference     json.RawMessage `json:"reference"`
}

// RecordSchemas are a header's record_schemas (docs/dataset-format.md,
// "With a schema"): each kind nil when the run had none of it.
type RecordSchemas struct {
	Protobuf *ProtobufSchema `json:"protobuf,omitempty"`
	Avro     *AvroSchema     `json:"avro,omitempty"`
}

// ProtobufSchema is the record's message, its .proto compiled. Reason,
// instead of the rest, is why the run could not build it (a csv column
// whose name is no identifier): the format it serves shows it as its
// reason not to run.
type ProtobufSchema struct {
	File    string `json:"file,omitempty"`
	Message string `json:"message,omitempty"`
	// DescriptorSet is a FileDescriptorSet holding the file and its
	// imports; the header's base64 is standard with padding, as
	// encoding/json reads a []byte.
	DescriptorSet []byte `json:"descriptor_set,omitempty"`
	Reason        string `json:"reason,omitempty"`
}

// AvroSchema is the record's .avsc, its JSON text; Reason as
// ProtobufSchema's.
type AvroSchema struct {
	File   string `json:"file,omitempty"`
	Schema string `json:"schema,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Spec is what the harness needs of a workload: its sink, how a record feeds
// it (the source side of validation) and how a finished sink compares with
// the header's reference.
type Spec[R any, S any] struct {
	Name    string
	Fields  []string
	NewSink func() S
	Feed    func(*R, S)
	// Checker parses the header's reference; the function it returns names
	// the first difference of a sink from it, or returns "".
	Checker func(reference json.RawMessage) (func(S) string, error)
	// Reference is the aggregate of a sink, as the header writes it.
	Reference func(S) any
	// ReadLine and WriteLine convert a record from and to its dataset line
	// where that is not the record type's own JSON form.
	ReadLine  func([]byte, *R) error
	WriteLine func(*R) ([]byte, error)
}

// Renamed is the same workload under another name: a dataset of it is one
// of s's whose header names the other workload (as csv's is jsonl's).
func (s Spec[R, S]) Renamed(name string) Spec[R, S] {
	s.Name = name
	return s
}

func (s Spec[R, S]) readLine(line []byte, r *R) error {
	if s.ReadLine != nil {
		return s.ReadLine(line, r)
	}
	return json.Unmarshal(line, r)
}

func (s Spec[R, S]) writeLine(r *R) ([]byte, error) {
	if s.WriteLine != nil {
		return s.WriteLine(r)
	}
	return json.Marshal(r)
}

// FieldSpec is the Spec of a record-shaped workload.
func FieldSpec[R any](name string, fields []string, visit func(*R, *FieldSink)) Spec[R, *FieldSink] {
	return Spec[R, *FieldSink]{
		Name:    name,
		Fields:  fields,
		NewSink: func() *FieldSink { return NewFieldSink(len(fields)) },
		Feed:    visit,
		Checker: func(raw json.RawMessage) (func(*FieldSink) string, error) {
			var want FieldAggregate
			if err := json.Unmarshal(raw, &want); err != nil {
				return nil, fmt.Errorf("reading the reference aggregate: %w", err)
			}
			return func(s *FieldSink) string { return want.FirstDifference(s.Finish(fields), fields) }, nil
		},
		Reference: func(s *FieldSink) any { return s.Finish(fields) },
	}
}

var UserSpec = FieldSpec("user", UserFields, (*User).Visit)

// Reader reads a dataset's records window by window, so memory is bounded
// by the window, not the file.
type Reader[R any] struct {
	read1  func([]byte, *R) error
	file   *os.File
	in     *bufio.Reader
	Header Header
	line   int
	read   uint64
	window []R
}

// OpenDataset reads the header of the dataset at path and checks that it is
// a shootout-dataset/1 file of spec's workload.
func OpenDataset[R, S any](path string, spec Spec[R, S]) (*Reader[R], error) {
	want, fields := spec.Name, spec.Fields
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r := &Reader[R]{read1: spec.readLine, file: f, in: bufio.NewReaderSize(f, 1<<16)}
	line, err := r.next()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: reading the header: %w", path, err)
	}
	if err := json.Unmarshal(line, &r.Header); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s line 1: not a dataset header: %w", path, err)
	}
	h := r.Header
	switch {
	case h.Schema != DatasetSchema:
		err = fmt.Errorf("schema %q, this runner reads %q", h.Schema, DatasetSchema)
	case h.Workload != want:
		err = fmt.Errorf("workload %q, expected %q", h.Workload, want)
	case !equal(h.Fields, fields):
		err = fmt.Errorf("fields %v, this runner's %s records have %v", h.Fields, want, fields)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (r *Reader[R]) next() ([]byte, error) {
	line, err := r.in.ReadBytes('\n')
	if err == io.EOF && len(line) > 0 {
		err = nil
	}
	if err != nil {
		return nil, err
	}
	r.line++
	return bytes.TrimSuffix(line, []byte{'\n'}), nil
}

// Next returns up to n records, reusing the previous window's slice; an
// empty window means the end. The count must match the header's.
func (r *Reader[R]) Next(n int) ([]R, error) {
	r.window = r.window[:0]
	for len(r.window) < n {
		line, err := r.next()
		if err == io.EOF {
			if r.read != r.Header.Records {
				return nil, fmt.Errorf("line %d: the header announces %d records, the file holds %d", r.line, r.Header.Records, r.read)
			}
			break
		}
		if err != nil {
			return nil, err
		}
		var rec R
		if err := r.read1(line, &rec); err != nil {
			return nil, fmt.Errorf("line %d: %w", r.line, err)
		}
		r.window = append(r.window, rec)
		r.read++
	}
	return r.window, nil
}

// Position says where operation op (0-based) came from.
func Position(op uint64) string { return fmt.Sprintf("record %d (line %d)", op, op+2) }

func (r *Reader[R]) Close() error { return r.file.Close() }

// WriteDataset writes records as a shootout-dataset/1 file, with the
// reference aggregate computed from them.
func WriteDataset[R any, S any](w io.Writer, spec Spec[R, S], source string, records []R) error {
	sink := spec.NewSink()
	for i := range records {
		spec.Feed(&records[i], sink)
	}
	fields := spec.Fields
	if fields == nil {
		fields = []string{}
	}
	ref, err := json.Marshal(spec.Reference(sink))
	if err != nil {
		return err
	}
	header, err := json.Marshal(Header{Schema: DatasetSchema, Workload: spec.Name, Records: uint64(len(records)), Source: source,
		Input: json.RawMessage("null"), Fields: fields, Reference: ref})
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.Write(header)
	bw.WriteByte('\n')
	for i := range records {
		line, err := spec.writeLine(&records[i])
		if err != nil {
			return err
		}
		bw.Write(line)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// ReadHeader reads only a dataset's header, to learn its workload.
func ReadHeader(path string) (Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadBytes('\n')
	if err != nil && !(err == io.EOF && len(line) > 0) {
		return Header{}, fmt.Errorf("%s: reading the header: %w", path, err)
	}
	var h Header
	if err := json.Unmarshal(line, &h); err != nil {
		return Header{}, fmt.Errorf("%s line 1: not a dataset header: %w", path, err)
	}
	if h.Schema != DatasetSchema {
		return Header{}, fmt.Errorf("%s: schema %q, this runner reads %q", path, h.Schema, DatasetSchema)
	}
	return h, nil
}
