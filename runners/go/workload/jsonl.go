package workload

// The jsonl workload (docs/dataset-format.md, "`jsonl`: any JSON value"):
// each record is one JSON value of the user's JSON Lines file, read as the
// canonical value that keeps everything its text says, fed to a JSONSink
// that hashes it and counts its kinds.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"unicode/utf8"
)

// JSONKind is what a canonical value is. Integers are three kinds by range,
// so the common ones need no math/big.
type JSONKind uint8

const (
	JSONNull JSONKind = iota
	JSONBool
	// JSONInt is an integer in the int64 range.
	JSONInt
	// JSONUint is an integer from 2^63 to 2^64-1.
	JSONUint
	// JSONBig is an integer beyond both: a "huge" one.
	JSONBig
	JSONFloat
	JSONString
	JSONArray
	JSONObject
)

// JSONValue is a canonical value: a small tagged tree. Objects keep every
// member in order, duplicate keys included, as Keys and Items side by side.
type JSONValue struct {
	Kind JSONKind
	// Bits is a bool's 0 or 1, a JSONInt's two's complement, a JSONUint's
	// value, a float's IEEE-754 bits.
	Bits uint64
	// Text is a string's text.
	Text string
	// Big is a JSONBig's value.
	Big *big.Int
	// Items are an array's elements, or an object's member values.
	Items []JSONValue
	// Keys are an object's member keys: Keys[i] is Items[i]'s.
	Keys []string
}

func (v *JSONValue) Bool() bool     { return v.Bits != 0 }
func (v *JSONValue) Int() int64     { return int64(v.Bits) }
func (v *JSONValue) Uint() uint64   { return v.Bits }
func (v *JSONValue) Float() float64 { return math.Float64frombits(v.Bits) }

// String names the kind as JSON does: the three integer kinds are one.
func (k JSONKind) String() string { return kindNames[k] }

var kindNames = [...]string{JSONNull: "null", JSONBool: "boolean", JSONInt: "integer", JSONUint: "integer",
	JSONBig: "integer", JSONFloat: "float", JSONString: "string", JSONArray: "array", JSONObject: "object"}

// JSONRecord is a jsonl record: its canonical value, the duplicate keys it
// holds (counted once, as it is read), and the one library model made of it
// last (Model).
type JSONRecord struct {
	Value         JSONValue
	DuplicateKeys uint64
	modelOf       *JSONModel
	model         any
	modelErr      error
}

// JSONModel turns a canonical value into one library's own dynamic model
// (its any tree, a bson.D, ...): what that library's codec encodes.
type JSONModel struct {
	Name    string
	Convert func(*JSONValue) (any, error)
}

// Model is r's value in m's model. It is made when m asks first and kept
// until another model is asked for, so a codec that prepares its window's
// models before the timed loops (codec.Preparer) times only its library's
// encoding; one that did not prepare makes it here. A value the model cannot
// hold is the error, every time it is asked for.
func (r *JSONRecord) Model(m *JSONModel) (any, error) {
	if r.modelOf != m {
		r.model, r.modelErr = m.Convert(&r.Value)
		r.modelOf = m
	}
	return r.model, r.modelErr
}

// MaxJSONDepth is the deepest nesting of arrays and objects the spec reads.
const MaxJSONDepth = 512

// ReadJSONRecord reads one dataset line, a JSON value, into r: losslessly,
// with encoding/json's token API (numbers as their text, so an integer of
// any size stays exact and a float is its text's nearest double; objects
// member by member, so order and duplicates survive). It refuses what the
// spec refuses: a float beyond the double range, a \u escape of half a
// surrogate pair, nesting deeper than MaxJSONDepth, and anything after the
// value; and invalid UTF-8, which encoding/json would replace silently.
func ReadJSONRecord(line []byte, r *JSONRecord) error {
	*r = JSONRecord{}
	if !utf8.Valid(line) {
		return errors.New("the line is not valid UTF-8")
	}
	if err := checkSurrogates(line); err != nil {
		return err
	}
	p := jsonReader{dec: json.NewDecoder(bytes.NewReader(line))}
	p.dec.UseNumber()
	tok, err := p.dec.Token()
	if err == io.EOF {
		return errors.New("no JSON value on the line")
	}
	if err != nil {
		return err
	}
	if err := p.value(tok, &r.Value, 0); err != nil {
		return err
	}
	if _, err := p.dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("more than one JSON value on the line")
		}
		return err
	}
	r.DuplicateKeys = p.duplicates
	return nil
}

type jsonReader struct {
	dec        *json.Decoder
	duplicates uint64
}

func (p *jsonReader) value(tok json.Token, v *JSONValue, depth int) error {
	switch t := tok.(type) {
	case nil:
		v.Kind = JSONNull
	case bool:
		v.Kind = JSONBool
		if t {
			v.Bits = 1
		}
	case string:
		v.Kind, v.Text = JSONString, t
	case json.Number:
		return parseNumber(string(t), v)
	case json.Delim:
		if depth >= MaxJSONDepth {
			return fmt.Errorf("nested deeper than %d arrays and objects", MaxJSONDepth)
		}
		if t == '[' {
			return p.array(v, depth+1)
		}
		return p.object(v, depth+1)
	default:
		return fmt.Errorf("unexpected token %v", tok)
	}
	return nil
}

func (p *jsonReader) array(v *JSONValue, depth int) error {
	v.Kind = JSONArray
	v.Items = []JSONValue{}
	for {
		tok, err := p.dec.Token()
		if err != nil {
			return err
		}
		if tok == json.Delim(']') {
			return nil
		}
		v.Items = append(v.Items, JSONValue{})
		if err := p.value(tok, &v.Items[len(v.Items)-1], depth); err != nil {
			return err
		}
	}
}

func (p *jsonReader) object(v *JSONValue, depth int) error {
	v.Kind = JSONObject
	v.Items, v.Keys = []JSONValue{}, []string{}
	var seen map[string]struct{}
	for {
		tok, err := p.dec.Token()
		if err != nil {
			return err
		}
		if tok == json.Delim('}') {
			return nil
		}
		key := tok.(string) // the decoder accepts nothing else here
		// A linear look among the first few keys; a set past them.
		if seen == nil && len(v.Keys) >= 8 {
			seen = make(map[string]struct{}, 2*len(v.Keys))
			for _, k := range v.Keys {
				seen[k] = struct{}{}
			}
		}
		if seen != nil {
			if _, dup := seen[key]; dup {
				p.duplicates++
			}
			seen[key] = struct{}{}
		} else {
			for _, k := range v.Keys {
				if k == key {
					p.duplicates++
					break
				}
			}
		}
		if tok, err = p.dec.Token(); err != nil {
			return err
		}
		v.Keys = append(v.Keys, key)
		v.Items = append(v.Items, JSONValue{})
		if err := p.value(tok, &v.Items[len(v.Items)-1], depth); err != nil {
			return err
		}
	}
}

// parseNumber reads a JSON number's text by the spec's rule: no '.', 'e'
// or 'E' is an integer, exact at any size; anything else the nearest double.
func parseNumber(text string, v *JSONValue) error {
	if !isIntegerText(text) {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			// Go's parser rounds to nearest even and gives 0 on underflow;
			// only overflow is an error.
			return fmt.Errorf("the float %s is beyond the double range", text)
		}
		v.Kind, v.Bits = JSONFloat, math.Float64bits(f)
		return nil
	}
	if i, err := strconv.ParseInt(text, 10, 64); err == nil {
		v.Kind, v.Bits = JSONInt, uint64(i)
		return nil
	}
	if u, err := strconv.ParseUint(text, 10, 64); err == nil {
		v.Kind, v.Bits = JSONUint, u
		return nil
	}
	b, ok := new(big.Int).SetString(text, 10)
	if !ok {
		return fmt.Errorf("the integer %s is not decimal digits", text)
	}
	v.Kind, v.Big = JSONBig, b
	return nil
}

func isIntegerText(text string) bool {
	for i := 0; i < len(text); i++ {
		if c := text[i]; c == '.' || c == 'e' || c == 'E' {
			return false
		}
	}
	return true
}

// checkSurrogates refuses a \u escape of a UTF-16 surrogate that is not one
// half of a high-then-low pair: encoding/json would read it as U+FFFD. In
// valid JSON a backslash occurs only in strings, so a scan over the line
// that skips each escaped character sees every escape.
func checkSurrogates(line []byte) error {
	for i := 0; i < len(line); i++ {
		if line[i] != '\\' {
			continue
		}
		if i+1 < len(line) && line[i+1] == 'u' {
			if u, ok := hex4(line, i+2); ok && u >= 0xd800 && u <= 0xdfff {
				if u >= 0xdc00 {
					return fmt.Errorf("the escape \\u%04X is the second half of a surrogate pair without its first", u)
				}
				if !(i+7 < len(line) && line[i+6] == '\\' && line[i+7] == 'u') {
					return fmt.Errorf("the escape \\u%04X is half of a surrogate pair without its partner", u)
				}
				if low, ok := hex4(line, i+8); !ok || low < 0xdc00 || low > 0xdfff {
					return fmt.Errorf("the escape \\u%04X is half of a surrogate pair without its partner", u)
				}
				i += 11
				continue
			}
		}
		i++ // the escaped character
	}
	return nil
}

func hex4(b []byte, at int) (uint32, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	u, err := strconv.ParseUint(string(b[at:at+4]), 16, 32)
	return uint32(u), err == nil
}

// AppendJSON appends v's canonical text (the dataset's record line):
// members in order with duplicates, integers in full decimal, floats in the
// shortest text that reads back to the same double, always with a '.' or an
// exponent.
func AppendJSON(b []byte, v *JSONValue) []byte {
	switch v.Kind {
	case JSONNull:
		return append(b, "null"...)
	case JSONBool:
		return strconv.AppendBool(b, v.Bool())
	case JSONInt:
		return strconv.AppendInt(b, v.Int(), 10)
	case JSONUint:
		return strconv.AppendUint(b, v.Uint(), 10)
	case JSONBig:
		return v.Big.Append(b, 10)
	case JSONFloat:
		return AppendFloatText(b, v.Float())
	case JSONString:
		return appendJSONString(b, v.Text)
	case JSONArray:
		b = append(b, '[')
		for i := range v.Items {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendJSON(b, &v.Items[i])
		}
		return append(b, ']')
	default:
		b = append(b, '{')
		for i := range v.Items {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, v.Keys[i])
			b = append(b, ':')
			b = AppendJSON(b, &v.Items[i])
		}
		return append(b, '}')
	}
}

// AppendFloatText appends a finite float's shortest round-tripping text as
// the spec writes it: plain from 1e-5 to below 1e16, with ".0" when
// integral, otherwise with an exponent ("1e300", "1.5e-7"), as ryu writes
// them. The text alone says it is a float.
func AppendFloatText(b []byte, f float64) []byte {
	abs := math.Abs(f)
	if abs == 0 || (abs >= 1e-5 && abs < 1e16) {
		start := len(b)
		b = strconv.AppendFloat(b, f, 'f', -1, 64)
		if bytes.IndexByte(b[start:], '.') < 0 {
			b = append(b, ".0"...)
		}
		return b
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, 'e', -1, 64)
	// Go writes e+300 and e-07: drop the plus and the exponent's leading zeros.
	e := start + bytes.IndexByte(b[start:], 'e')
	digits := e + 1
	if b[digits] == '+' || b[digits] == '-' {
		if b[digits] == '+' {
			b = append(b[:digits], b[digits+1:]...)
		} else {
			digits++
		}
	}
	for len(b)-digits > 1 && b[digits] == '0' {
		b = append(b[:digits], b[digits+1:]...)
	}
	return b
}

// appendJSONString quotes s, escaping only what JSON requires.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			switch c {
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// FeedJSON feeds a record's canonical value to the sink: the baseline's
// decode and the reference aggregate.
func FeedJSON(r *JSONRecord, s *JSONSink) {
	s.DuplicateKeys(r.DuplicateKeys)
	feedValue(&r.Value, s)
}

func feedValue(v *JSONValue, s *JSONSink) {
	switch v.Kind {
	case JSONNull:
		s.Null()
	case JSONBool:
		s.Bool(v.Bool())
	case JSONInt:
		s.Int(v.Int())
	case JSONUint:
		s.Uint(v.Uint())
	case JSONBig:
		s.BigInt(v.Big)
	case JSONFloat:
		s.Float(v.Float())
	case JSONString:
		s.String(v.Text)
	case JSONArray:
		s.BeginArray()
		for i := range v.Items {
			feedValue(&v.Items[i], s)
		}
		s.EndArray()
	case JSONObject:
		s.BeginObject()
		for i := range v.Items {
			s.Key(v.Keys[i])
			feedValue(&v.Items[i], s)
		}
		s.EndObject()
	}
}

// JSONLSpec is the jsonl workload: its records are canonical JSON values,
// one per dataset line; the header's fields are [].
var JSONLSpec = Spec[JSONRecord, *JSONSink]{
	Name:    "jsonl",
	NewSink: NewJSONSink,
	Feed:    FeedJSON,
	Checker: func(raw json.RawMessage) (func(*JSONSink) string, error) {
		var want JSONAggregate
		if err := json.Unmarshal(raw, &want); err != nil {
			return nil, fmt.Errorf("reading the reference aggregate: %w", err)
		}
		return func(s *JSONSink) string { return want.FirstDifference(s) }, nil
	},
	Reference: func(s *JSONSink) any { return s.Finish() },
	ReadLine:  ReadJSONRecord,
	WriteLine: func(r *JSONRecord) ([]byte, error) { return AppendJSON(nil, &r.Value), nil },
}

// CSVSpec is the csv workload (docs/dataset-format.md): the rows of any CSV
// file, each an object of its non-empty cells. The Rust side reads the CSV
// and infers its columns' types; its dataset holds jsonl records under
// another name, so everything here but the name is JSONLSpec's.
var CSVSpec = JSONLSpec.Renamed("csv")
