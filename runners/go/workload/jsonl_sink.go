package workload

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// JSONAggregate is the jsonl reference aggregate (docs/dataset-format.md):
// every count is over all values at any depth, keys not.
type JSONAggregate struct {
	Records        uint64 `json:"records"`
	Hash           uint64 `json:"hash"`
	Nulls          uint64 `json:"nulls"`
	Booleans       uint64 `json:"booleans"`
	Integers       uint64 `json:"integers"`
	BigIntegers    uint64 `json:"big_integers"`
	HugeIntegers   uint64 `json:"huge_integers"`
	Floats         uint64 `json:"floats"`
	NegativeZeros  uint64 `json:"negative_zeros"`
	IntegralFloats uint64 `json:"integral_floats"`
	Strings        uint64 `json:"strings"`
	TextBytes      uint64 `json:"text_bytes"`
	Arrays         uint64 `json:"arrays"`
	Elements       uint64 `json:"elements"`
	Objects        uint64 `json:"objects"`
	Members        uint64 `json:"members"`
	DuplicateKeys  uint64 `json:"duplicate_keys"`
}

// The value hash's tags (docs/dataset-format.md, "Value hash").
const (
	tagNull = iota + 1
	tagFalse
	tagTrue
	tagInt
	tagUint
	tagHuge
	tagFloat
	tagString
	tagArray
	tagMember
	tagObject
)

func step(h, w uint64) uint64 { return (h ^ w) * fnvPrime }

// exact53 is 2^53: integers beyond ±2^53 are "big", as a double cannot
// hold them all.
const exact53 = 1 << 53

// jsonFrame is one open array or object: an array's running hash, or an
// object's sum of member hashes and the hash of the key its next value
// belongs to.
type jsonFrame struct {
	object bool
	keyed  bool // an object's key came, its value has not
	h      uint64
	n      uint64
	key    uint64
}

// JSONSink takes decoded values, kind by kind, and keeps the value hash of
// each record and the counts. Containers are a stack of frames it reuses,
// so after warm-up it allocates nothing per value (a huge integer's decimal
// text aside, written into a reused buffer by math/big). A value completes
// into its array, its object's member, or, with no frame open, a record.
//
// duplicate_keys is what the input holds and is not compared: the reader
// counts it and FeedJSON passes it on (DuplicateKeys), decoders do not.
type JSONSink struct {
	agg    JSONAggregate
	frames []jsonFrame
	// misuse is the first call out of order (a key outside an object, an
	// end without its begin, a value where a key is due): a codec's bug,
	// which the check reports as a difference.
	misuse string
	digits []byte
}

func NewJSONSink() *JSONSink { return &JSONSink{frames: make([]jsonFrame, 0, 16)} }

// done adds a completed value's hash where it belongs.
func (s *JSONSink) done(h uint64) {
	if len(s.frames) == 0 {
		s.agg.Records++
		s.agg.Hash += h
		return
	}
	f := &s.frames[len(s.frames)-1]
	if !f.object {
		f.h = step(f.h, h)
		f.n++
		s.agg.Elements++
		return
	}
	if !f.keyed {
		s.misused("a value in an object where its key was due")
		return
	}
	f.h += step(step(f.key, h), tagMember)
	f.n++
	f.keyed = false
	s.agg.Members++
}

func (s *JSONSink) misused(what string) {
	if s.misuse == "" {
		s.misuse = what
	}
}

func (s *JSONSink) Null() {
	s.agg.Nulls++
	s.done(step(fnvOffset, tagNull))
}

func (s *JSONSink) Bool(v bool) {
	s.agg.Booleans++
	if v {
		s.done(step(fnvOffset, tagTrue))
	} else {
		s.done(step(fnvOffset, tagFalse))
	}
}

// Int, Uint and BigInt each take any integer of their type: the hash and
// counts go by its value, not by the type a library decoded it into.
func (s *JSONSink) Int(v int64) {
	s.agg.Integers++
	if v > exact53 || v < -exact53 {
		s.agg.BigIntegers++
	}
	s.done(step(step(fnvOffset, tagInt), uint64(v)))
}

func (s *JSONSink) Uint(v uint64) {
	if v <= math.MaxInt64 {
		s.Int(int64(v))
		return
	}
	s.agg.Integers++
	s.agg.BigIntegers++
	s.done(step(step(fnvOffset, tagUint), v))
}

func (s *JSONSink) BigInt(v *big.Int) {
	switch {
	case v.IsInt64():
		s.Int(v.Int64())
	case v.IsUint64():
		s.Uint(v.Uint64())
	default:
		s.digits = v.Append(s.digits[:0], 10)
		s.huge(s.digits)
	}
}

// huge counts an integer beyond 64 bits given its canonical decimal text.
func (s *JSONSink) huge(decimal []byte) {
	s.agg.Integers++
	s.agg.BigIntegers++
	s.agg.HugeIntegers++
	s.done(step(textHash(decimal), tagHuge))
}

func (s *JSONSink) Float(v float64) {
	s.agg.Floats++
	bits := math.Float64bits(v)
	if bits == 1<<63 {
		s.agg.NegativeZeros++
	}
	if !math.IsInf(v, 0) && v == math.Trunc(v) {
		s.agg.IntegralFloats++
	}
	s.done(step(step(fnvOffset, tagFloat), bits))
}

// Number takes a JSON number's text (a json.Number) by the spec's rule: no
// '.', 'e' or 'E' is an integer, at any size; otherwise the nearest double.
func (s *JSONSink) Number(text string) error {
	if !isIntegerText(text) {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return fmt.Errorf("number %q: %w", text, err)
		}
		s.Float(f)
		return nil
	}
	if i, err := strconv.ParseInt(text, 10, 64); err == nil {
		s.Int(i)
		return nil
	}
	if u, err := strconv.ParseUint(text, 10, 64); err == nil {
		s.Uint(u)
		return nil
	}
	if canonicalInteger(text) {
		s.digits = append(s.digits[:0], text...)
		s.huge(s.digits)
		return nil
	}
	b, ok := new(big.Int).SetString(text, 10)
	if !ok {
		return fmt.Errorf("number %q is not an integer", text)
	}
	s.BigInt(b)
	return nil
}

// canonicalInteger says whether text is an integer's decimal as the hash
// takes it: '-' before a negative, digits, no leading zero.
func canonicalInteger(text string) bool {
	digits := strings.TrimPrefix(text, "-")
	if len(digits) == 0 || (digits[0] == '0' && len(digits) > 1) || (digits == "0" && len(text) > 1) {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}

func (s *JSONSink) String(v string) {
	s.agg.Strings++
	s.agg.TextBytes += uint64(len(v))
	s.done(step(textHash(v), tagString))
}

// Text is String for codecs that read a string's bytes in place.
func (s *JSONSink) Text(v []byte) {
	s.agg.Strings++
	s.agg.TextBytes += uint64(len(v))
	s.done(step(textHash(v), tagString))
}

func (s *JSONSink) BeginArray() {
	s.agg.Arrays++
	s.frames = append(s.frames, jsonFrame{h: step(fnvOffset, tagArray)})
}

func (s *JSONSink) EndArray() {
	f, ok := s.pop(false)
	if !ok {
		s.misused("an array's end without its begin")
		return
	}
	s.done(step(f.h, f.n))
}

func (s *JSONSink) BeginObject() {
	s.agg.Objects++
	s.frames = append(s.frames, jsonFrame{object: true})
}

// Key announces the key of the member whose value comes next.
func (s *JSONSink) Key(k string) {
	if f := s.object(); f != nil {
		f.key, f.keyed = textHash(k), true
	}
}

// KeyBytes is Key for codecs that read a key's bytes in place.
func (s *JSONSink) KeyBytes(k []byte) {
	if f := s.object(); f != nil {
		f.key, f.keyed = textHash(k), true
	}
}

func (s *JSONSink) object() *jsonFrame {
	if len(s.frames) == 0 || !s.frames[len(s.frames)-1].object || s.frames[len(s.frames)-1].keyed {
		s.misused("a key outside an object, or two keys in a row")
		return nil
	}
	return &s.frames[len(s.frames)-1]
}

func (s *JSONSink) EndObject() {
	f, ok := s.pop(true)
	if !ok {
		s.misused("an object's end without its begin, or after a key without its value")
		return
	}
	s.done(step(step(step(fnvOffset, tagObject), f.h), f.n))
}

func (s *JSONSink) pop(object bool) (jsonFrame, bool) {
	if len(s.frames) == 0 {
		return jsonFrame{}, false
	}
	f := s.frames[len(s.frames)-1]
	if f.object != object || f.keyed {
		return jsonFrame{}, false
	}
	s.frames = s.frames[:len(s.frames)-1]
	return f, true
}

// DuplicateKeys adds the duplicate keys a record holds, as its reader
// counted them.
func (s *JSONSink) DuplicateKeys(n uint64) { s.agg.DuplicateKeys += n }

// Finish is the sink's aggregate.
func (s *JSONSink) Finish() JSONAggregate { return s.agg }

// FirstDifference names the loss between the reference and what the sink
// was fed, by the first of the spec's checks that differs, or returns ""
// when every compared count is equal (duplicate_keys is not compared).
func (want JSONAggregate) FirstDifference(s *JSONSink) string {
	if s.misuse != "" {
		return "the decoder fed the sink out of order: " + s.misuse
	}
	if len(s.frames) > 0 {
		return fmt.Sprintf("the decoder left %d arrays or objects open", len(s.frames))
	}
	got := s.agg
	figures := func(name string, w, g uint64) string {
		return fmt.Sprintf("%s: %d in the input, %d decoded", name, w, g)
	}
	switch {
	case want.Records != got.Records:
		return fmt.Sprintf("expected %d records, decoded %d", want.Records, got.Records)
	case want.Members != got.Members:
		d := figures("members", want.Members, got.Members)
		if want.DuplicateKeys > 0 {
			keys := "keys"
			if want.DuplicateKeys == 1 {
				keys = "key"
			}
			d += fmt.Sprintf(" (the input has %d duplicate %s: the library keeps one value per key)", want.DuplicateKeys, keys)
		}
		return d
	case want.HugeIntegers != got.HugeIntegers:
		return figures("integers beyond 64 bits", want.HugeIntegers, got.HugeIntegers)
	case want.BigIntegers != got.BigIntegers:
		return figures("integers beyond ±2^53", want.BigIntegers, got.BigIntegers)
	case want.NegativeZeros != got.NegativeZeros:
		return figures("-0.0", want.NegativeZeros, got.NegativeZeros)
	case want.Integers != got.Integers || want.Floats != got.Floats:
		both := figures("integers", want.Integers, got.Integers) + "; " + figures("floats", want.Floats, got.Floats)
		switch lost := int64(want.Integers) - int64(got.Integers); {
		case lost > 0 && int64(got.Floats)-int64(want.Floats) == lost:
			return "integers read back as floats: " + both
		case lost < 0 && int64(want.Floats)-int64(got.Floats) == -lost:
			return "floats with integral values read back as integers: " + both
		}
		return both
	}
	for _, c := range []struct {
		name string
		w, g uint64
	}{
		{"nulls", want.Nulls, got.Nulls}, {"booleans", want.Booleans, got.Booleans},
		{"integral_floats", want.IntegralFloats, got.IntegralFloats}, {"strings", want.Strings, got.Strings},
		{"text_bytes", want.TextBytes, got.TextBytes}, {"arrays", want.Arrays, got.Arrays},
		{"elements", want.Elements, got.Elements}, {"objects", want.Objects, got.Objects},
	} {
		if c.w != c.g {
			return figures(c.name, c.w, c.g)
		}
	}
	if want.Hash != got.Hash {
		return fmt.Sprintf("a value changed: hash %d in the input, %d decoded", want.Hash, got.Hash)
	}
	return ""
}
