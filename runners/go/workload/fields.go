// Package workload holds the record types, their aggregates and the dataset
// reader (docs/dataset-format.md). Every codec decodes into a sink defined
// here, so a dropped field, a rounded float or a mangled string shows up as a
// difference from the dataset header's reference aggregate.
package workload

import (
	"fmt"
	"math"
)

// FieldStats is what one field's present values added up to
// (docs/dataset-format.md, "Record-shaped workloads"); TextHash sums textHash.
type FieldStats struct {
	Present   uint64  `json:"present"`
	IntSum    int64   `json:"int_sum"`
	FloatSum  float64 `json:"float_sum"`
	FloatBits uint64  `json:"float_bits"`
	TextBytes uint64  `json:"text_bytes"`
	TextHash  uint64  `json:"text_hash"`
}

// FieldAggregate is the reference aggregate of a record-shaped workload.
type FieldAggregate struct {
	Records uint64                `json:"records"`
	Fields  map[string]FieldStats `json:"fields"`
}

// FieldSink receives decoded values by field position (an index into the
// workload's field names). Integer arithmetic wraps, as the doc requires;
// Go's signed and unsigned addition already does.
type FieldSink struct {
	records uint64
	fields  []FieldStats
}

func NewFieldSink(fields int) *FieldSink {
	return &FieldSink{fields: make([]FieldStats, fields)}
}

func (s *FieldSink) Record() { s.records++ }

func (s *FieldSink) Int(field int, v int64) {
	f := &s.fields[field]
	f.Present++
	f.IntSum += v
}

func (s *FieldSink) Bool(field int, v bool) {
	var i int64
	if v {
		i = 1
	}
	s.Int(field, i)
}

func (s *FieldSink) Float(field int, v float64) {
	f := &s.fields[field]
	f.Present++
	f.FloatSum += v
	f.FloatBits += math.Float64bits(v)
}

// Text takes bytes so zero-copy codecs can pass a view of their buffer.
func (s *FieldSink) Text(field int, v []byte) {
	f := &s.fields[field]
	f.Present++
	f.TextBytes += uint64(len(v))
	f.TextHash += textHash(v)
}

// String is Text for codecs that decoded into a Go string; it avoids the copy
// a []byte conversion would make.
func (s *FieldSink) String(field int, v string) {
	f := &s.fields[field]
	f.Present++
	f.TextBytes += uint64(len(v))
	f.TextHash += textHash(v)
}

const (
	fnvOffset = 0xcbf29ce484222325
	fnvPrime  = 0x100000001b3
)

// textHash is docs/dataset-format.md's word-wise FNV-1a: each 8-byte
// little-endian chunk (the last zero-padded) folded in, then the length.
func textHash[T string | []byte](v T) uint64 {
	h := uint64(fnvOffset)
	i := 0
	for ; i+8 <= len(v); i += 8 {
		w := uint64(v[i]) | uint64(v[i+1])<<8 | uint64(v[i+2])<<16 | uint64(v[i+3])<<24 |
			uint64(v[i+4])<<32 | uint64(v[i+5])<<40 | uint64(v[i+6])<<48 | uint64(v[i+7])<<56
		h = (h ^ w) * fnvPrime
	}
	if i < len(v) {
		var w uint64
		for j := len(v) - 1; j >= i; j-- {
			w = w<<8 | uint64(v[j])
		}
		h = (h ^ w) * fnvPrime
	}
	return (h ^ uint64(len(v))) * fnvPrime
}

// Finish names the sink's figures after the workload's fields.
func (s *FieldSink) Finish(names []string) FieldAggregate {
	a := FieldAggregate{Records: s.records, Fields: make(map[string]FieldStats, len(names))}
	for i, n := range names {
		a.Fields[n] = s.fields[i]
	}
	return a
}

// FirstDifference names the first field (in aggregate order) whose figures
// differ, or returns "" when the aggregates are equal. Floats compare by bits,
// so NaN equals NaN and -0 differs from +0.
func (want FieldAggregate) FirstDifference(got FieldAggregate, names []string) string {
	if want.Records != got.Records {
		return fmt.Sprintf("expected %d records, decoded %d", want.Records, got.Records)
	}
	for _, n := range names {
		w, wok := want.Fields[n]
		g, gok := got.Fields[n]
		if !wok || !gok {
			return fmt.Sprintf("field %s: missing (in reference: %t, decoded: %t)", n, wok, gok)
		}
		if w.Present != g.Present || w.IntSum != g.IntSum || math.Float64bits(w.FloatSum) != math.Float64bits(g.FloatSum) ||
			w.FloatBits != g.FloatBits || w.TextBytes != g.TextBytes || w.TextHash != g.TextHash {
			return fmt.Sprintf("field %s: expected %+v, decoded %+v", n, w, g)
		}
	}
	return ""
}
