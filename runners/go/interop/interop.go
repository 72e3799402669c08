// Package interop is the Go runner's side of shootout-interop/1
// (docs/interop.md): encode a dataset in every Go format into streams other
// languages decode, and decode other languages' streams, re-framed for a Go
// codec, against the dataset's reference aggregate.
package interop

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"shootout/codec"
	"shootout/harness"
	"shootout/registry"
	"shootout/workload"
)

const (
	Schema = "shootout-interop/1"
	// Language names this runner's streams and manifests.
	Language = "go"
	// window is how many dataset records are in memory at a time.
	window = 4096
)

// UsageError is bad input from the caller (exit status 2), as opposed to an
// I/O failure (exit status 1).
type UsageError struct{ error }

// Manifest describes one encoded stream. After an encoder error no stream
// was written: Stream and SHA256 are null and Bytes is 0.
type Manifest struct {
	Schema   string  `json:"schema"`
	Language string  `json:"language"`
	Format   string  `json:"format"`
	Family   string  `json:"family"`
	Library  string  `json:"library"`
	Version  string  `json:"version"`
	Workload string  `json:"workload"`
	Records  uint64  `json:"records"`
	Framing  string  `json:"framing"`
	Stream   *string `json:"stream"`
	Bytes    uint64  `json:"bytes"`
	SHA256   *string `json:"sha256"`
	Error    *string `json:"error"`
}

// Answer is the decode mode's reply to one request line.
type Answer struct {
	Format  string  `json:"format"`
	Stream  string  `json:"stream"`
	Status  string  `json:"status"`
	Records uint64  `json:"records"`
	Detail  *string `json:"detail"`
}

// Request is one line of a decode list: a format and the stream to decode.
type Request struct{ Format, Stream string }

// workloadRun binds the two modes to one workload's record and sink types.
type workloadRun struct {
	encode func(dataset string, header workload.Header, dir string, names []string, log io.Writer) error
	decode func(dataset string, header workload.Header, requests []Request, out io.Writer) error
}

func bindWorkload[R, S any](spec workload.Spec[R, S], entries []harness.Entry[R, S]) workloadRun {
	var formats []harness.Entry[R, S]
	for _, e := range entries {
		if e.Info.Name != harness.BaselineName {
			formats = append(formats, e)
		}
	}
	w := workloadFormats[R, S]{spec: spec, formats: formats}
	return workloadRun{encode: w.encodeAll, decode: w.decodeAll}
}

func forWorkload(header workload.Header, dataset string) (workloadRun, error) {
	switch header.Workload {
	case "user":
		return bindWorkload(workload.UserSpec, registry.User()), nil
	case "iex":
		return bindWorkload(workload.IexSpec, registry.Iex()), nil
	case "sql":
		return bindWorkload(workload.SqlSpec, registry.Sql()), nil
	case "primitives":
		return bindWorkload(workload.PrimitivesSpec, registry.Primitives()), nil
	case "object":
		return bindWorkload(workload.ObjectSpec, registry.Object()), nil
	case "mixed":
		return bindWorkload(workload.MixedSpec, registry.Mixed()), nil
	case "strings":
		return bindWorkload(workload.StringsSpec, registry.Strings()), nil
	case "longs":
		return bindWorkload(workload.LongsSpec, registry.Longs()), nil
	}
	return workloadRun{}, fmt.Errorf("%s: workload %q is not one of the shootout's", dataset, header.Workload)
}

// Encode writes DIR/go-<format>.{bin,ends,json} for every format named (all
// when names is empty) that runs the dataset's workload, and a line per
// format to log. An encoder error is recorded in its manifest, not returned.
func Encode(dataset, dir string, names []string, log io.Writer) error {
	header, err := workload.ReadHeader(dataset)
	if err != nil {
		return err
	}
	for _, n := range names {
		if !slices.ContainsFunc(registry.Formats, func(f registry.Format) bool { return f.Info.Name == n }) {
			return UsageError{fmt.Errorf("--formats: no format %q in the go runner", n)}
		}
	}
	run, err := forWorkload(header, dataset)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return run.encode(dataset, header, dir, names, log)
}

// Decode answers every request, in order, with one JSON line on out. A
// request's own failure (an unknown format, an unreadable stream, a bad
// stream) is its answer; only the dataset's I/O fails the whole call.
func Decode(dataset string, requests []Request, out io.Writer) error {
	header, err := workload.ReadHeader(dataset)
	if err != nil {
		return err
	}
	run, err := forWorkload(header, dataset)
	if err != nil {
		return err
	}
	return run.decode(dataset, header, requests, out)
}

// ReadRequests parses a decode list: `<format>\t<stream path>` per line,
// blank lines ignored.
func ReadRequests(path string) ([]Request, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []Request
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		format, stream, ok := strings.Cut(line, "\t")
		if !ok || format == "" || stream == "" {
			return nil, UsageError{fmt.Errorf("%s line %d: expected <format><TAB><stream path>, got %q", path, i+1, line)}
		}
		out = append(out, Request{Format: format, Stream: stream})
	}
	return out, nil
}

type workloadFormats[R, S any] struct {
	spec    workload.Spec[R, S]
	formats []harness.Entry[R, S]
}

// encodeCall runs one Encode, a panic in the codec turned into an error.
func encodeCall[R, S any](c codec.Codec[R, S], stream []byte, r *R) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = stream, fmt.Errorf("codec panicked: %v", p)
		}
	}()
	return c.Encode(stream, r)
}

// decodeCall runs one Decode, a panic in the codec turned into an error.
func decodeCall[R, S any](c codec.Codec[R, S], stream []byte, sink S) (used int, err error) {
	defer func() {
		if p := recover(); p != nil {
			used, err = 0, fmt.Errorf("codec panicked: %v", p)
		}
	}()
	return c.Decode(stream, sink)
}

// encoding is one format's stream being written.
type encoding[R, S any] struct {
	info    codec.Info
	codec   codec.Codec[R, S]
	base    string // DIR/go-<format>, without extension
	bin     *os.File
	ends    *os.File
	binW    *bufio.Writer
	endsW   *bufio.Writer
	hash    hash.Hash
	window  []byte
	bytes   uint64
	records uint64
	err     error // the encoder's, with the record index
}

func (e *encoding[R, S]) open() error {
	var err error
	if e.bin, err = os.Create(e.base + ".bin"); err != nil {
		return err
	}
	if e.ends, err = os.Create(e.base + ".ends"); err != nil {
		e.bin.Close()
		return err
	}
	e.binW, e.endsW = bufio.NewWriterSize(e.bin, 1<<16), bufio.NewWriterSize(e.ends, 1<<12)
	return nil
}

// add encodes one window of records; the window's stream starts empty, as in
// the harness, and is appended to the file.
func (e *encoding[R, S]) add(records []R, first uint64) error {
	s := e.window[:0]
	var ends [8]byte
	for i := range records {
		var err error
		if s, err = encodeCall(e.codec, s, &records[i]); err != nil {
			e.err = fmt.Errorf("record %d: %w", first+uint64(i), err)
			return nil
		}
		binary.LittleEndian.PutUint64(ends[:], e.bytes+uint64(len(s)))
		if _, err := e.endsW.Write(ends[:]); err != nil {
			return err
		}
		e.records++
	}
	e.window = s
	e.bytes += uint64(len(s))
	e.hash.Write(s)
	_, err := e.binW.Write(s)
	return err
}

// close finishes the files; after an encoder error it removes them.
func (e *encoding[R, S]) close() error {
	var err error
	if e.err == nil {
		err = errors.Join(e.binW.Flush(), e.endsW.Flush())
	}
	err = errors.Join(err, e.bin.Close(), e.ends.Close())
	if e.err != nil {
		err = errors.Join(err, os.Remove(e.bin.Name()), os.Remove(e.ends.Name()))
	}
	return err
}

func (w workloadFormats[R, S]) encodeAll(dataset string, header workload.Header, dir string, names []string, log io.Writer) error {
	var streams []*encoding[R, S]
	for _, f := range w.formats {
		if len(names) > 0 && !slices.Contains(names, f.Info.Name) {
			continue
		}
		e := &encoding[R, S]{info: f.Info, codec: f.New(), base: filepath.Join(dir, Language+"-"+f.Info.Name), hash: sha256.New()}
		if err := e.open(); err != nil {
			return err
		}
		defer e.bin.Close()
		defer e.ends.Close()
		streams = append(streams, e)
	}
	for _, n := range names {
		if !slices.ContainsFunc(streams, func(e *encoding[R, S]) bool { return e.info.Name == n }) {
			fmt.Fprintf(log, "skipped %s-%s: it does not run the %s workload\n", Language, n, header.Workload)
		}
	}
	in, err := workload.OpenDataset(dataset, w.spec)
	if err != nil {
		return err
	}
	defer in.Close()
	var done uint64
	for {
		records, err := in.Next(window)
		if err != nil {
			return err
		}
		if len(records) == 0 {
			break
		}
		for _, e := range streams {
			if e.err == nil {
				if err := e.add(records, done); err != nil {
					return err
				}
			}
		}
		done += uint64(len(records))
	}
	for _, e := range streams {
		if err := e.close(); err != nil {
			return err
		}
		m := Manifest{Schema: Schema, Language: Language, Format: e.info.Name, Family: e.info.Family,
			Library: e.info.Library, Version: registry.Version(e.info.Library), Workload: header.Workload,
			Records: e.records, Framing: e.info.Framing}
		if e.err != nil {
			msg := e.err.Error()
			m.Error = &msg
			fmt.Fprintf(log, "encoded %s-%s: error after %d records: %s\n", Language, e.info.Name, e.records, msg)
		} else {
			stream, sum := filepath.Base(e.bin.Name()), hex.EncodeToString(e.hash.Sum(nil))
			m.Stream, m.Bytes, m.SHA256 = &stream, e.bytes, &sum
			fmt.Fprintf(log, "encoded %s-%s: %d records, %d bytes\n", Language, e.info.Name, e.records, e.bytes)
		}
		b, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(e.base+".json", append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func (w workloadFormats[R, S]) decodeAll(dataset string, header workload.Header, requests []Request, out io.Writer) error {
	check, err := w.spec.Checker(header.Reference)
	if err != nil {
		return fmt.Errorf("%s: %w", dataset, err)
	}
	enc := json.NewEncoder(out)
	for _, req := range requests {
		a, err := w.answer(dataset, header, check, req)
		if err != nil {
			return err
		}
		if err := enc.Encode(a); err != nil {
			return err
		}
	}
	return nil
}

// answer decodes one request's stream. Only the dataset's I/O is an error;
// everything wrong with the request or its stream is in the answer.
func (w workloadFormats[R, S]) answer(dataset string, header workload.Header, check func(S) string, req Request) (Answer, error) {
	a := Answer{Format: req.Format, Stream: req.Stream}
	result := func(status, detail string) (Answer, error) {
		a.Status = status
		if detail != "" {
			a.Detail = &detail
		}
		return a, nil
	}
	i := slices.IndexFunc(w.formats, func(e harness.Entry[R, S]) bool { return e.Info.Name == req.Format })
	if i < 0 {
		return result("error", w.missing(req.Format, header.Workload))
	}
	stream, err := os.ReadFile(req.Stream)
	if err != nil {
		return result("error", err.Error())
	}
	newCodec := w.formats[i].New
	sink := w.spec.NewSink()
	ends, err := decodeStream(newCodec(), stream, sink, header.Records)
	a.Records = uint64(len(ends))
	if err != nil {
		return result("error", err.Error())
	}
	difference := check(sink)
	if difference == "" {
		return result("ok", "")
	}
	first, err := w.firstDifferentRecord(dataset, newCodec(), stream, ends)
	if err != nil {
		return a, err
	}
	if first == "" {
		first = difference
	}
	return result("mismatch", first)
}

// missing says why the go runner has no codec of format for the workload.
func (w workloadFormats[R, S]) missing(format, workloadName string) string {
	for _, n := range registry.NotRun(workloadName) {
		if n.Name == format {
			return fmt.Sprintf("format %s does not run the %s workload in the go runner: %s", format, workloadName, n.Reason)
		}
	}
	return fmt.Sprintf("no format %s in the go runner", format)
}

// decodeStream decodes exactly want records from stream into sink, as the
// harness's decode pass does, and returns each record's end offset.
func decodeStream[R, S any](c codec.Codec[R, S], stream []byte, sink S, want uint64) ([]int, error) {
	var ends []int
	off := 0
	for uint64(len(ends)) < want {
		if off == len(stream) {
			return ends, fmt.Errorf("the stream ends after %d records, the dataset has %d", len(ends), want)
		}
		used, err := decodeCall(c, stream[off:], sink)
		if err != nil {
			return ends, fmt.Errorf("record %d, byte offset %d: %w", len(ends), off, err)
		}
		if used <= 0 || used > len(stream)-off {
			return ends, fmt.Errorf("record %d, byte offset %d: decode reported %d bytes used, %d left", len(ends), off, used, len(stream)-off)
		}
		off += used
		ends = append(ends, off)
	}
	if off < len(stream) {
		return ends, fmt.Errorf("%d bytes left over after the dataset's %d records (byte offset %d)", len(stream)-off, want, off)
	}
	return ends, nil
}

// firstDifferentRecord decodes each record alone and compares it with the
// dataset's record fed to a sink of its own; it names the first that
// differs, or returns "" when every record agrees on its own.
func (w workloadFormats[R, S]) firstDifferentRecord(dataset string, c codec.Codec[R, S], stream []byte, ends []int) (string, error) {
	in, err := workload.OpenDataset(dataset, w.spec)
	if err != nil {
		return "", err
	}
	defer in.Close()
	record := 0
	for {
		records, err := in.Next(window)
		if err != nil {
			return "", err
		}
		if len(records) == 0 {
			return "", nil
		}
		for i := range records {
			start := 0
			if record > 0 {
				start = ends[record-1]
			}
			decoded := w.spec.NewSink()
			if _, err := decodeCall(c, stream[start:ends[record]], decoded); err != nil {
				return fmt.Sprintf("record %d: decoding it alone failed: %v", record, err), nil
			}
			source := w.spec.NewSink()
			w.spec.Feed(&records[i], source)
			reference, err := json.Marshal(w.spec.Reference(source))
			if err != nil {
				return "", err
			}
			check, err := w.spec.Checker(reference)
			if err != nil {
				return "", err
			}
			if d := check(decoded); d != "" {
				return fmt.Sprintf("record %d: %s", record, d), nil
			}
			record++
		}
	}
}
