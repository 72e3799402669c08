// Package dynamic is the jsonl workload's codec as every schemaless library
// runs it: through the library's own dynamic value model (an any tree, a
// bson.D). Each canonical record is made into the model once per window,
// before the timed loops (codec.Preparer), and the library encodes the
// model; a decode reads the bytes into the model and walks it into the sink.
// Whatever the model loses (map[string]any keeps one value per key, a
// float64 cannot hold every integer) is lost on the way, and the sink's
// aggregate names it: nothing here repairs it.
package dynamic

import (
	"encoding/json"
	"fmt"
	"math/big"

	"shootout/codec"
	"shootout/workload"
)

// Library is one library's dynamic model and how it writes and reads it.
type Library struct {
	// Model makes the library's model of a canonical value.
	Model *workload.JSONModel
	// Append writes a model at the end of dst.
	Append func(dst []byte, model any) ([]byte, error)
	// Read decodes body, exactly one record's bytes, into the library's
	// model and walks it into sink.
	Read func(body []byte, sink *workload.JSONSink) error
	// Delimit, where the encoding delimits itself, is the length of the
	// message at the start of stream; otherwise every record is framed with
	// a 4-byte length prefix.
	Delimit func(stream []byte) (int, error)
}

// Codec is a Library as the jsonl workload's codec.
type Codec struct{ Library }

func New(l Library) codec.Codec[workload.JSONRecord, *workload.JSONSink] { return &Codec{l} }

// Prepare makes each record's model, outside the timed loops.
func (c *Codec) Prepare(records []workload.JSONRecord) {
	for i := range records {
		records[i].Model(c.Model)
	}
}

func (c *Codec) Encode(stream []byte, r *workload.JSONRecord) ([]byte, error) {
	model, err := r.Model(c.Model)
	if err != nil {
		return stream, err
	}
	if c.Delimit != nil {
		return c.Append(stream, model)
	}
	stream, at := codec.Reserve(stream)
	stream, err = c.Append(stream, model)
	if err != nil {
		return stream[:at], err
	}
	return codec.Seal(stream, at)
}

func (c *Codec) Decode(stream []byte, sink *workload.JSONSink) (int, error) {
	body, n, err := c.frame(stream)
	if err != nil {
		return 0, err
	}
	if err := c.Read(body, sink); err != nil {
		return 0, err
	}
	return n, nil
}

func (c *Codec) frame(stream []byte) ([]byte, int, error) {
	if c.Delimit == nil {
		return codec.Frame(stream)
	}
	n, err := c.Delimit(stream)
	if err != nil {
		return nil, 0, err
	}
	return stream[:n], n, nil
}

// The models Go's JSON, MessagePack and CBOR libraries decode into an any:
// objects map[string]any (one value per key, the last, as their decoders
// keep it), arrays []any, strings, bools and nil; they differ in numbers.
var (
	// NumberTree keeps each number as its text, json.Number: what
	// encoding/json, goccy and sonic decode with UseNumber, the documented
	// way to keep numbers exact. Encoders write the text as it is.
	NumberTree = &workload.JSONModel{Name: "any, numbers as json.Number", Convert: func(v *workload.JSONValue) (any, error) {
		return tree(v, numberText), nil
	}}
	// FloatTree has every number a float64, as a JSON library decodes into
	// an any without a number type (encoding/json/v2).
	FloatTree = &workload.JSONModel{Name: "any, numbers as float64", Convert: func(v *workload.JSONValue) (any, error) {
		return tree(v, asFloat), nil
	}}
	// GoTree has Go's number types: int64 for an integer in its range,
	// uint64 above it, *big.Int beyond 64 bits, float64 for a float; what
	// the library does with each is its own.
	GoTree = &workload.JSONModel{Name: "any, numbers as int64, uint64, *big.Int, float64", Convert: func(v *workload.JSONValue) (any, error) {
		return tree(v, GoNumber), nil
	}}
)

func tree(v *workload.JSONValue, number func(*workload.JSONValue) any) any {
	switch v.Kind {
	case workload.JSONNull:
		return nil
	case workload.JSONBool:
		return v.Bool()
	case workload.JSONString:
		return v.Text
	case workload.JSONArray:
		a := make([]any, len(v.Items))
		for i := range v.Items {
			a[i] = tree(&v.Items[i], number)
		}
		return a
	case workload.JSONObject:
		m := make(map[string]any, len(v.Items))
		for i := range v.Items {
			m[v.Keys[i]] = tree(&v.Items[i], number)
		}
		return m
	}
	return number(v)
}

func numberText(v *workload.JSONValue) any {
	switch v.Kind {
	case workload.JSONFloat:
		return json.Number(workload.AppendFloatText(nil, v.Float()))
	default:
		return json.Number(workload.AppendJSON(nil, v))
	}
}

// asFloat is the double nearest a number, as a float64 parser reads its
// text.
func asFloat(v *workload.JSONValue) any {
	switch v.Kind {
	case workload.JSONInt:
		return float64(v.Int())
	case workload.JSONUint:
		return float64(v.Uint())
	case workload.JSONBig:
		f, _ := new(big.Float).SetInt(v.Big).Float64()
		return f
	}
	return v.Float()
}

// GoNumber is a number as Go's own types hold it.
func GoNumber(v *workload.JSONValue) any {
	switch v.Kind {
	case workload.JSONInt:
		return v.Int()
	case workload.JSONUint:
		return v.Uint()
	case workload.JSONBig:
		return v.Big
	}
	return v.Float()
}

// Walk feeds a library's any tree to the sink: every type Go's JSON,
// MessagePack and CBOR libraries decode into an any. Integers go by value,
// whatever their type; a type that is no JSON value (bytes, a timestamp, an
// extension) is an error naming it.
func Walk(v any, s *workload.JSONSink) error {
	switch v := v.(type) {
	case nil:
		s.Null()
	case bool:
		s.Bool(v)
	case string:
		s.String(v)
	case json.Number:
		return s.Number(string(v))
	case float64:
		s.Float(v)
	case float32:
		s.Float(float64(v))
	case int64:
		s.Int(v)
	case int:
		s.Int(int64(v))
	case int32:
		s.Int(int64(v))
	case int16:
		s.Int(int64(v))
	case int8:
		s.Int(int64(v))
	case uint64:
		s.Uint(v)
	case uint:
		s.Uint(uint64(v))
	case uint32:
		s.Uint(uint64(v))
	case uint16:
		s.Uint(uint64(v))
	case uint8:
		s.Uint(uint64(v))
	case *big.Int:
		s.BigInt(v)
	case big.Int:
		s.BigInt(&v)
	case []any:
		s.BeginArray()
		for _, e := range v {
			if err := Walk(e, s); err != nil {
				return err
			}
		}
		s.EndArray()
	case map[string]any:
		s.BeginObject()
		for k, e := range v {
			s.Key(k)
			if err := Walk(e, s); err != nil {
				return err
			}
		}
		s.EndObject()
	case map[any]any:
		s.BeginObject()
		for k, e := range v {
			key, ok := k.(string)
			if !ok {
				return fmt.Errorf("an object key of type %T, not a string", k)
			}
			s.Key(key)
			if err := Walk(e, s); err != nil {
				return err
			}
		}
		s.EndObject()
	default:
		return fmt.Errorf("a %T is not a JSON value", v)
	}
	return nil
}
