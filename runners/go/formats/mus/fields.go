package mus

import (
	"math"

	com "github.com/mus-format/common-go"
	"github.com/mus-format/mus-go"
	strops "github.com/mus-format/mus-go/options/string"
	"github.com/mus-format/mus-go/ord"
	"github.com/mus-format/mus-go/raw"
	"github.com/mus-format/mus-go/varint"
)

// The MUS encodings the codecs choose for each Go type, as mus-go's
// packages name them: signed integers ZigZag varints (varint), unsigned
// ones plain varints, bytes and floats raw (fixed width, little endian),
// booleans and strings ord's, a list its varint.PositiveInt length then its
// elements, an optional cell ord.NewPtrSer's flag byte then its value.
var (
	// text is ord.String with a length validator: a corrupt length near
	// 2^63 would overflow ord.String's bounds arithmetic and panic; no
	// record's string is near 2 GiB.
	text = ord.NewValidStringSer(strops.WithLenValidator(com.ValidatorFn[int](func(length int) error {
		if length > math.MaxInt32 {
			return com.ErrTooLargeLength
		}
		return nil
	})))
	// The tabular rows' optional cells (rows_gen.go), by Go type.
	optionalString  mus.Serializer[*string]  = ord.NewPtrSer[string](text)
	optionalInt64   mus.Serializer[*int64]   = ord.NewPtrSer[int64](varint.Int64)
	optionalInt32   mus.Serializer[*int32]   = ord.NewPtrSer[int32](varint.Int32)
	optionalFloat64 mus.Serializer[*float64] = ord.NewPtrSer[float64](raw.Float64)
	optionalFloat32 mus.Serializer[*float32] = ord.NewPtrSer[float32](raw.Float32)
)

// out writes a record's fields in order, or, sizing, only adds up their
// bytes: mus-go's Marshal needs a buffer of the record's exact Size, so a
// record is walked twice, Size then Marshal, as its documentation does.
// There is a method per Go type, each calling its serializer directly: a
// generic one over the serializer's type would call it through a
// dictionary on every field.
type out struct {
	bs     []byte
	n      int
	sizing bool
}

func (o *out) int64(v int64) {
	if o.sizing {
		o.n += varint.Int64.Size(v)
	} else {
		o.n += varint.Int64.Marshal(v, o.bs[o.n:])
	}
}

func (o *out) int32(v int32) {
	if o.sizing {
		o.n += varint.Int32.Size(v)
	} else {
		o.n += varint.Int32.Marshal(v, o.bs[o.n:])
	}
}

func (o *out) uint64(v uint64) {
	if o.sizing {
		o.n += varint.Uint64.Size(v)
	} else {
		o.n += varint.Uint64.Marshal(v, o.bs[o.n:])
	}
}

func (o *out) uint32(v uint32) {
	if o.sizing {
		o.n += varint.Uint32.Size(v)
	} else {
		o.n += varint.Uint32.Marshal(v, o.bs[o.n:])
	}
}

func (o *out) uint8(v uint8) {
	if o.sizing {
		o.n += raw.Uint8.Size(v)
	} else {
		o.n += raw.Uint8.Marshal(v, o.bs[o.n:])
	}
}

func (o *out) float64(v float64) {
	if o.sizing {
		o.n += raw.Float64.Size(v)
	} else {
		o.n += raw.Float64.Marshal(v, o.bs[o.n:])
	}
}

func (o *out) float32(v float32) {
	if o.sizing {
		o.n += raw.Float32.Size(v)
	} else {
		o.n += raw.Float32.Marshal(v, o.bs[o.n:])
	}
}

func (o *out) bool(v bool) {
	if o.sizing {
		o.n += ord.Bool.Size(v)
	} else {
		o.n += ord.Bool.Marshal(v, o.bs[o.n:])
	}
}

func (o *out) string(v string) {
	if o.sizing {
		o.n += text.Size(v)
	} else {
		o.n += text.Marshal(v, o.bs[o.n:])
	}
}

// length starts a list of n elements.
func (o *out) length(n int) {
	if o.sizing {
		o.n += varint.PositiveInt.Size(n)
	} else {
		o.n += varint.PositiveInt.Marshal(n, o.bs[o.n:])
	}
}

// in reads a record's fields in order, as written. It keeps the first
// error: every field after it reads as its zero value, and the codec
// returns the error once the record is read.
type in struct {
	bs  []byte
	n   int
	err error
}

func (f *in) int64() (v int64) {
	if f.err == nil {
		var n int
		v, n, f.err = varint.Int64.Unmarshal(f.bs[f.n:])
		f.n += n
	}
	return v
}

func (f *in) int32() (v int32) {
	if f.err == nil {
		var n int
		v, n, f.err = varint.Int32.Unmarshal(f.bs[f.n:])
		f.n += n
	}
	return v
}

func (f *in) uint64() (v uint64) {
	if f.err == nil {
		var n int
		v, n, f.err = varint.Uint64.Unmarshal(f.bs[f.n:])
		f.n += n
	}
	return v
}

func (f *in) uint32() (v uint32) {
	if f.err == nil {
		var n int
		v, n, f.err = varint.Uint32.Unmarshal(f.bs[f.n:])
		f.n += n
	}
	return v
}

func (f *in) uint8() (v uint8) {
	if f.err == nil {
		var n int
		v, n, f.err = raw.Uint8.Unmarshal(f.bs[f.n:])
		f.n += n
	}
	return v
}

func (f *in) float64() (v float64) {
	if f.err == nil {
		var n int
		v, n, f.err = raw.Float64.Unmarshal(f.bs[f.n:])
		f.n += n
	}
	return v
}

func (f *in) float32() (v float32) {
	if f.err == nil {
		var n int
		v, n, f.err = raw.Float32.Unmarshal(f.bs[f.n:])
		f.n += n
	}
	return v
}

func (f *in) bool() (v bool) {
	if f.err == nil {
		var n int
		v, n, f.err = ord.Bool.Unmarshal(f.bs[f.n:])
		f.n += n
	}
	return v
}

func (f *in) string() (v string) {
	if f.err == nil {
		var n int
		v, n, f.err = text.Unmarshal(f.bs[f.n:])
		f.n += n
	}
	return v
}

// length is a list's length. Every element takes at least a byte, so a
// length beyond the bytes left is an error before it can size an
// allocation.
func (f *in) length() int {
	if f.err != nil {
		return 0
	}
	length, n, err := varint.PositiveInt.Unmarshal(f.bs[f.n:])
	f.n += n
	switch {
	case err != nil:
		f.err = err
	case length < 0:
		f.err = com.ErrNegativeLength
	case length > len(f.bs)-f.n:
		f.err = com.ErrTooLargeLength
	default:
		return length
	}
	return 0
}

// The optional cells, less hot than the scalars (ord's pointer serializer
// calls its element's through an interface anyway): one generic function
// each way. A present cell decodes to a new value, as ord.NewPtrSer does.

func writeOptional[T any](o *out, s mus.Serializer[*T], v *T) {
	if o.sizing {
		o.n += s.Size(v)
	} else {
		o.n += s.Marshal(v, o.bs[o.n:])
	}
}

func readOptional[T any](f *in, s mus.Serializer[*T]) (v *T) {
	if f.err == nil {
		var n int
		v, n, f.err = s.Unmarshal(f.bs[f.n:])
		f.n += n
	}
	return v
}
