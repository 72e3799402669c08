// Package workloadtest holds the datasets and records the tests of several
// packages read and make: a dataset's records with the check against its
// reference, a dataset written from records, and jsonl records read from
// their text and sent through a codec.
package workloadtest

import (
	"fmt"
	"os"
	"slices"
	"testing"

	"shootout/codec"
	"shootout/internal/spec"
	"shootout/workload"
)

// Dataset reads the dataset at path as ws's workload: its records and the
// check against its reference.
func Dataset[R, S any](t testing.TB, ws workload.Spec[R, S], path string) ([]R, func(S) string) {
	t.Helper()
	r, err := workload.OpenDataset(path, ws)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	records, err := r.Next(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	check, err := ws.Checker(r.Header.Reference)
	if err != nil {
		t.Fatal(err)
	}
	// The reader's window is its own buffer: the records outlive it.
	return slices.Clone(records), check
}

// Fixture is Dataset of ws's workload's shared fixture (spec/fixtures).
func Fixture[R, S any](t testing.TB, ws workload.Spec[R, S]) ([]R, func(S) string) {
	t.Helper()
	return Dataset(t, ws, spec.Fixture(t, ws.Name))
}

// WriteDataset writes records as a dataset of ws's workload at path, its
// header's source saying what they are.
func WriteDataset[R, S any](t testing.TB, path string, ws workload.Spec[R, S], source string, records []R) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := workload.WriteDataset(f, ws, source, records); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// JSONRecord is the jsonl record of text, one JSON value.
func JSONRecord(t testing.TB, text string) workload.JSONRecord {
	t.Helper()
	var r workload.JSONRecord
	if err := workload.ReadJSONRecord([]byte(text), &r); err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return r
}

// JSONSpec is the Spec of jsonl and of csv, whose records are jsonl's.
type JSONSpec = workload.Spec[workload.JSONRecord, *workload.JSONSink]

// JSONCodec is a codec of the jsonl workload (and of csv).
type JSONCodec = codec.Codec[workload.JSONRecord, *workload.JSONSink]

// JSONTrip encodes the record of line with c and decodes it: the sink it
// fed, or the first error, a decode that leaves bytes unread included.
func JSONTrip(c JSONCodec, line string) (*workload.JSONSink, error) {
	var r workload.JSONRecord
	if err := workload.ReadJSONRecord([]byte(line), &r); err != nil {
		return nil, err
	}
	stream, err := c.Encode(nil, &r)
	if err != nil {
		return nil, err
	}
	sink := workload.NewJSONSink()
	used, err := c.Decode(stream, sink)
	if err == nil && used != len(stream) {
		err = fmt.Errorf("decode used %d of the record's %d bytes", used, len(stream))
	}
	return sink, err
}

// CheckJSONTrip reports, as an error of t, a record of line that c does
// not bring back as the record of want.
func CheckJSONTrip(t testing.TB, c JSONCodec, line, want string) {
	t.Helper()
	sink, err := JSONTrip(c, line)
	if err != nil {
		t.Errorf("%s: %v", line, err)
		return
	}
	wanted := workload.NewJSONSink()
	r := JSONRecord(t, want)
	workload.FeedJSON(&r, wanted)
	if d := wanted.Finish().FirstDifference(sink); d != "" {
		t.Errorf("%s: want %s: %s", line, want, d)
	}
}
