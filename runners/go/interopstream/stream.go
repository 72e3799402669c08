// Package interopstream is interop's typed half (shootout-interop/1,
// docs/interop.md): one workload's dataset written as every Go format's
// stream, and other languages' streams, re-framed for a Go codec, decoded
// against the dataset's reference aggregate. It stands beside harness,
// below registry: registry.Workloads binds it to each workload's types as it
// binds harness.Measure (only the registry knows them), and package interop,
// above the registry, picks the workload of a dataset.
package interopstream

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

	"shootout/codec"
	"shootout/harness"
	"shootout/workload"
)

const (
	Schema = "shootout-interop/1"
	// Language names this runner's streams and manifests.
	Language = "go"
	// window is how many dataset records are in memory at a time.
	window = 4096
)

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

// Modes are both modes for one workload, its types bound.
type Modes interface {
	// Encode writes DIR/go-<format>.{bin,ends,json} for every format named
	// (all when names is empty) that runs the workload, and a line per
	// format to log. An encoder error is recorded in its manifest, not
	// returned.
	Encode(dataset string, header workload.Header, dir string, names []string, log io.Writer) error
	// Decode answers every request, in order, with one JSON line on out. A
	// request's own failure (an unknown format, an unreadable stream, a bad
	// stream) is its answer; only the dataset's I/O fails the whole call.
	Decode(dataset string, header workload.Header, requests []Request, out io.Writer) error
}

// Workload is one workload's formats (no baseline) and what manifests and
// answers say of them.
type Workload[R, S any] struct {
	Spec    workload.Spec[R, S]
	Formats []harness.Entry[R, S]
	// Version is a library's linked version (registry.Version).
	Version func(library string) string
	// NotRun are the formats that do not run the workload, with why.
	NotRun []harness.NotRun
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

func (w Workload[R, S]) Encode(dataset string, header workload.Header, dir string, names []string, log io.Writer) error {
	var streams []*encoding[R, S]
	for _, f := range w.Formats {
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
			fmt.Fprintf(log, "skipped %s-%s: %s\n", Language, n, w.missing(n, header.Workload))
		}
	}
	in, err := workload.OpenDataset(dataset, w.Spec)
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
			Library: e.info.Library, Version: w.Version(e.info.Library), Workload: header.Workload,
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

func (w Workload[R, S]) Decode(dataset string, header workload.Header, requests []Request, out io.Writer) error {
	check, err := w.Spec.Checker(header.Reference)
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
func (w Workload[R, S]) answer(dataset string, header workload.Header, check func(S) string, req Request) (Answer, error) {
	a := Answer{Format: req.Format, Stream: req.Stream}
	result := func(status, detail string) (Answer, error) {
		a.Status = status
		if detail != "" {
			a.Detail = &detail
		}
		return a, nil
	}
	i := slices.IndexFunc(w.Formats, func(e harness.Entry[R, S]) bool { return e.Info.Name == req.Format })
	if i < 0 {
		return result("error", w.missing(req.Format, header.Workload))
	}
	newCodec := w.Formats[i].New
	sink := w.Spec.NewSink()
	decoded, err := decodeStream(newCodec(), req.Stream, sink, header.Records)
	a.Records = decoded
	if err != nil {
		return result("error", err.Error())
	}
	difference := check(sink)
	if difference == "" {
		return result("ok", "")
	}
	first, err := w.firstDifferentRecord(dataset, newCodec(), req.Stream)
	if err != nil {
		return a, err
	}
	if first == "" {
		first = difference
	}
	return result("mismatch", first)
}

// missing says why the go runner has no codec of format for the workload.
func (w Workload[R, S]) missing(format, workloadName string) string {
	for _, n := range w.NotRun {
		if n.Name == format {
			return fmt.Sprintf("format %s does not run the %s workload in the go runner: %s", format, workloadName, n.Reason)
		}
	}
	return fmt.Sprintf("no format %s in the go runner", format)
}

// decodeStream decodes exactly want records of the stream at path into
// sink, as the harness's decode pass does but each record from its own bytes
// only, and returns how many it decoded.
func decodeStream[R, S any](c codec.Codec[R, S], path string, sink S, want uint64) (uint64, error) {
	in, err := openRecords(path)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	var n uint64
	for ; n < want; n++ {
		record, off, err := in.record()
		if err == io.EOF {
			return n, fmt.Errorf("the stream ends after %d records, the dataset has %d", n, want)
		}
		if err != nil {
			return n, err
		}
		used, err := decodeCall(c, record, sink)
		if err != nil {
			return n, fmt.Errorf("record %d, byte offset %d: %w", n, off, err)
		}
		if used != len(record) {
			return n, fmt.Errorf("record %d, byte offset %d: decode used %d of the record's %d bytes", n, off, used, len(record))
		}
	}
	if in.end < in.size {
		return n, fmt.Errorf("%d bytes left over after the dataset's %d records (byte offset %d)", in.size-in.end, want, in.end)
	}
	return n, nil
}

// firstDifferentRecord decodes each record alone and compares it with the
// dataset's record fed to a sink of its own, reading the dataset and the
// stream in step; it names the first that differs, or returns "" when
// every record agrees on its own. Only the dataset's I/O is an error.
func (w Workload[R, S]) firstDifferentRecord(dataset string, c codec.Codec[R, S], path string) (string, error) {
	stream, err := openRecords(path)
	if err != nil {
		return "reading the stream again: " + err.Error(), nil
	}
	defer stream.Close()
	in, err := workload.OpenDataset(dataset, w.Spec)
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
			encoded, _, err := stream.record()
			if err != nil {
				return fmt.Sprintf("record %d: reading it again: %v", record, err), nil
			}
			decoded := w.Spec.NewSink()
			if _, err := decodeCall(c, encoded, decoded); err != nil {
				return fmt.Sprintf("record %d: decoding it alone failed: %v", record, err), nil
			}
			source := w.Spec.NewSink()
			w.Spec.Feed(&records[i], source)
			reference, err := json.Marshal(w.Spec.Reference(source))
			if err != nil {
				return "", err
			}
			check, err := w.Spec.Checker(reference)
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
