// Package avrogeneric is github.com/hamba/avro/v2's generic data
// (map[string]any for a record, []any, Go's scalar types) on a jsonl or csv
// dataset run with a schema (docs/dataset-format.md, "With a schema"): the
// record's schema is the .avsc text in the dataset's header, parsed at run
// time; no Go type maps it.
package avrogeneric

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"reflect"

	"github.com/hamba/avro/v2"

	"shootout/codec"
	"shootout/formats/dynamic"
	"shootout/workload"
)

var Info = codec.Info{
	Name: "avro-generic", Family: "Avro", Library: "github.com/hamba/avro/v2",
	Framing: codec.FramingU32LE, Wire: "avro", Labels: codec.OwnedDynamic,
	Notes: "single datums against the dataset's .avsc, parsed at run time (its logical types dropped: the projection types values by their Avro types alone); " +
		"each record's generic data (map[string]any, []any, a [\"null\", T] union as hamba's one-entry map) made from its projection before the timed loops; " +
		"one Encoder writing into the stream, Unmarshal into an any walked into the projection (fields whose value is null left out); " +
		"arrays capped at 65,536 elements and byte strings at 1 MiB, as avro-hamba's; 4-byte LE length prefix",
}

// noSchema is why the format does not run a dataset without an Avro schema.
const noSchema = "no Avro schema: run with --schema FILE.avsc (a csv run builds one from its columns)"

// api is configured as avro-hamba's: arrays written as their plain item
// count (no block byte size), as Rust's apache-avro writes them; hamba sizes
// an array or a byte string by the count the bytes claim, so corrupt bytes
// would allocate without bound but for the caps.
var api = avro.Config{MaxSliceAllocSize: 1 << 16, MaxByteSliceSize: 1 << 20, DisableBlockSizeHeader: true}.Freeze()

// Jsonl is the format's codec of a dataset whose header holds schemas, or
// why it has none: no Avro schema, the reason the header gives instead of
// one, or what is wrong with the one it gives.
func Jsonl(schemas workload.RecordSchemas) (func() codec.Codec[workload.JSONRecord, *workload.JSONSink], string) {
	s := schemas.Avro
	switch {
	case s == nil:
		return nil, noSchema
	case s.Reason != "":
		return nil, s.Reason
	}
	schema, err := parse(s.Schema)
	if err != nil {
		return nil, fmt.Sprintf("the dataset's Avro schema (%s) cannot be read: %v", s.File, err)
	}
	model := &workload.JSONModel{Name: "hamba generic data of " + s.File, Convert: func(v *workload.JSONValue) (any, error) {
		return generic(schema, v)
	}}
	return func() codec.Codec[workload.JSONRecord, *workload.JSONSink] {
		var w walker
		return dynamic.New(dynamic.Library{Model: model,
			Append: codec.Streaming(func(out io.Writer) codec.Encoder { return api.NewEncoder(schema, out) }),
			Read: func(body []byte, sink *workload.JSONSink) error {
				var v any
				if err := api.Unmarshal(schema, body, &v); err != nil {
					return err
				}
				return w.walk(schema, v, sink)
			}})
	}, ""
}

// parse reads the schema text with its logical types dropped. hamba's
// generic data holds a logical type's value as a time.Time, a time.Duration
// or a *big.Rat, which the projection has no form of: it types each value
// by its Avro type (a timestamp-millis is a long), as Avro's own generic
// records do when no conversion is registered. The bytes are the same.
// Each dataset's named types go in a cache of their own: hamba's default
// cache is process-wide, and a name could mean another type there.
func parse(text string) (avro.Schema, error) {
	d := json.NewDecoder(bytes.NewReader([]byte(text)))
	d.UseNumber() // a long default keeps every digit
	var tree any
	if err := d.Decode(&tree); err != nil {
		return nil, err
	}
	plain, err := json.Marshal(dropLogicalTypes(tree))
	if err != nil {
		return nil, err
	}
	return avro.ParseBytesWithCache(plain, "", &avro.SchemaCache{})
}

func dropLogicalTypes(v any) any {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "logicalType")
		for k, e := range v {
			if k != "default" { // a value, not a type
				v[k] = dropLogicalTypes(e)
			}
		}
	case []any:
		for i, e := range v {
			v[i] = dropLogicalTypes(e)
		}
	}
	return v
}

// resolved is s, or the named type s refers to.
func resolved(s avro.Schema) avro.Schema {
	if ref, ok := s.(*avro.RefSchema); ok {
		return ref.Schema()
	}
	return s
}

// nullable is the type of a ["null", T] (or [T, "null"]) union other than
// null: the one union the spec maps.
func nullable(u *avro.UnionSchema) (avro.Schema, error) {
	if !u.Nullable() {
		return nil, fmt.Errorf("the union %s: the projection maps only null with one other type", u)
	}
	_, other := u.Indices()
	return resolved(u.Types()[other]), nil
}

// branch is a union branch's name in hamba's generic data: a named type's
// full name, else its type's.
func branch(s avro.Schema) string {
	if named, ok := s.(avro.NamedSchema); ok {
		return named.FullName()
	}
	return string(s.Type())
}

// generic is a projection's generic data: the spec's table read backwards,
// each value as hamba's generic data holds it.
func generic(s avro.Schema, v *workload.JSONValue) (any, error) {
	s = resolved(s)
	if v.Kind == workload.JSONNull {
		if s.Type() == avro.Null || s.Type() == avro.Union {
			return nil, nil
		}
		return nil, fmt.Errorf("null where the schema has %s", s.Type())
	}
	switch s.Type() {
	case avro.Record:
		return record(s.(*avro.RecordSchema), v)
	case avro.Union:
		t, err := nullable(s.(*avro.UnionSchema))
		if err != nil {
			return nil, err
		}
		inner, err := generic(t, v)
		if err != nil {
			return nil, err
		}
		return map[string]any{branch(t): inner}, nil
	case avro.Array:
		if v.Kind != workload.JSONArray {
			return nil, mismatch(v, s)
		}
		items := s.(*avro.ArraySchema).Items()
		a := make([]any, len(v.Items))
		for i := range v.Items {
			var err error
			if a[i], err = generic(items, &v.Items[i]); err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
		}
		return a, nil
	case avro.Map:
		if v.Kind != workload.JSONObject {
			return nil, mismatch(v, s)
		}
		values := s.(*avro.MapSchema).Values()
		m := make(map[string]any, len(v.Items))
		for i := range v.Items {
			var err error
			if m[v.Keys[i]], err = generic(values, &v.Items[i]); err != nil {
				return nil, fmt.Errorf("%s: %w", v.Keys[i], err)
			}
		}
		return m, nil
	case avro.Int:
		if v.Kind != workload.JSONInt || v.Int() < math.MinInt32 || v.Int() > math.MaxInt32 {
			return nil, mismatch(v, s)
		}
		return int(v.Int()), nil
	case avro.Long:
		if v.Kind != workload.JSONInt {
			return nil, mismatch(v, s)
		}
		return v.Int(), nil
	case avro.Float:
		f, err := number(v, s, 32)
		return float32(f), err
	case avro.Double:
		return number(v, s, 64)
	case avro.Boolean:
		if v.Kind != workload.JSONBool {
			return nil, mismatch(v, s)
		}
		return v.Bool(), nil
	case avro.String, avro.Enum:
		if v.Kind != workload.JSONString {
			return nil, mismatch(v, s)
		}
		return v.Text, nil
	case avro.Bytes:
		return decodeBase64(v, s)
	case avro.Fixed:
		b, err := decodeBase64(v, s)
		if err != nil {
			return nil, err
		}
		size := s.(*avro.FixedSchema).Size()
		if len(b) != size {
			return nil, fmt.Errorf("%d bytes for a fixed of %d", len(b), size)
		}
		// hamba holds a fixed as a [size]byte.
		fixed := reflect.New(reflect.ArrayOf(size, reflect.TypeFor[byte]())).Elem()
		reflect.Copy(fixed, reflect.ValueOf(b))
		return fixed.Interface(), nil
	}
	return nil, mismatch(v, s)
}

// record is a record's generic data from an object: a member per field
// whose value is not null, an absent ["null", T] field null. Any other
// absent field is left to hamba, which writes its default or refuses it.
func record(s *avro.RecordSchema, v *workload.JSONValue) (map[string]any, error) {
	if v.Kind != workload.JSONObject {
		return nil, mismatch(v, s)
	}
	fields := s.Fields()
	m := make(map[string]any, len(fields))
	for _, f := range fields {
		value := member(v, f.Name())
		if value == nil {
			if resolved(f.Type()).Type() == avro.Union {
				m[f.Name()] = nil
			}
			continue
		}
		var err error
		if m[f.Name()], err = generic(f.Type(), value); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name(), err)
		}
	}
	for _, k := range v.Keys {
		if _, ok := m[k]; !ok {
			return nil, fmt.Errorf("%s: record %s has no such field", k, s.FullName())
		}
	}
	return m, nil
}

func member(v *workload.JSONValue, key string) *workload.JSONValue {
	for i, k := range v.Keys {
		if k == key {
			return &v.Items[i]
		}
	}
	return nil
}

// number is any number as a float of bits bits: an integer the float
// nearest it.
func number(v *workload.JSONValue, s avro.Schema, bits uint) (float64, error) {
	var exact *big.Float
	switch v.Kind {
	case workload.JSONFloat:
		if bits == 32 {
			return float64(float32(v.Float())), nil
		}
		return v.Float(), nil
	case workload.JSONInt:
		exact = new(big.Float).SetInt64(v.Int())
	case workload.JSONUint:
		exact = new(big.Float).SetUint64(v.Uint())
	case workload.JSONBig:
		exact = new(big.Float).SetInt(v.Big)
	default:
		return 0, mismatch(v, s)
	}
	if bits == 32 {
		f, _ := exact.Float32()
		return float64(f), nil
	}
	f, _ := exact.Float64()
	return f, nil
}

// decodeBase64 reads a bytes or fixed value's text: base64 of the standard
// or URL-safe alphabet, padded or not.
func decodeBase64(v *workload.JSONValue, s avro.Schema) ([]byte, error) {
	if v.Kind != workload.JSONString {
		return nil, mismatch(v, s)
	}
	for _, e := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := e.DecodeString(v.Text); err == nil {
			return b, nil
		}
	}
	return nil, fmt.Errorf("%q is not base64", v.Text)
}

func mismatch(v *workload.JSONValue, s avro.Schema) error {
	return fmt.Errorf("a JSON %s where the schema has %s", v.Kind, s.Type())
}

// walker feeds what hamba decoded into an any to the sink, as the schema
// types it. fixed is a fixed value's bytes, text a bytes or fixed value's
// base64, each handed on at once.
type walker struct{ fixed, text []byte }

func (w *walker) walk(s avro.Schema, v any, sink *workload.JSONSink) error {
	s = resolved(s)
	switch s.Type() {
	case avro.Record:
		m, ok := v.(map[string]any)
		if !ok {
			return unexpected(v, s)
		}
		sink.BeginObject()
		for _, f := range s.(*avro.RecordSchema).Fields() {
			value := m[f.Name()]
			if value == nil {
				continue
			}
			sink.Key(f.Name())
			if err := w.walk(f.Type(), value, sink); err != nil {
				return fmt.Errorf("%s: %w", f.Name(), err)
			}
		}
		sink.EndObject()
	case avro.Union:
		if v == nil {
			sink.Null()
			return nil
		}
		t, err := nullable(s.(*avro.UnionSchema))
		if err != nil {
			return err
		}
		return w.walk(t, unwrap(t, v), sink)
	case avro.Null:
		if v != nil {
			return unexpected(v, s)
		}
		sink.Null()
	case avro.Array:
		a, ok := v.([]any)
		if !ok {
			return unexpected(v, s)
		}
		items := s.(*avro.ArraySchema).Items()
		sink.BeginArray()
		for i, e := range a {
			if err := w.walk(items, e, sink); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
		sink.EndArray()
	case avro.Map:
		m, ok := v.(map[string]any)
		if !ok {
			return unexpected(v, s)
		}
		values := s.(*avro.MapSchema).Values()
		sink.BeginObject()
		for k, e := range m {
			sink.Key(k)
			if err := w.walk(values, e, sink); err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
		}
		sink.EndObject()
	default:
		return w.scalar(s, v, sink)
	}
	return nil
}

// unwrap is a ["null", T] union's value: hamba decodes it as it is where its
// type resolver knows T's name (the primitive types), and otherwise (a
// record, enum, fixed, array or map) as a map of one entry, T's name to the
// value.
func unwrap(t avro.Schema, v any) any {
	switch t.Type() {
	case avro.Record, avro.Enum, avro.Fixed, avro.Array, avro.Map:
		if m, ok := v.(map[string]any); ok && len(m) == 1 {
			if inner, ok := m[branch(t)]; ok {
				return inner
			}
		}
	}
	return v
}

func (w *walker) scalar(s avro.Schema, v any, sink *workload.JSONSink) error {
	switch v := v.(type) {
	case bool:
		sink.Bool(v)
	case int:
		sink.Int(int64(v))
	case int64:
		sink.Int(v)
	case float32:
		sink.Float(float64(v))
	case float64:
		sink.Float(v)
	case string:
		sink.String(v)
	case []byte:
		w.text = base64.StdEncoding.AppendEncode(w.text[:0], v)
		sink.Text(w.text)
	default:
		// A fixed: hamba decodes it as a [size]byte.
		fixed := reflect.ValueOf(v)
		if fixed.Kind() != reflect.Array || fixed.Type().Elem().Kind() != reflect.Uint8 {
			return unexpected(v, s)
		}
		w.fixed = w.fixed[:0]
		for i := range fixed.Len() {
			w.fixed = append(w.fixed, byte(fixed.Index(i).Uint()))
		}
		w.text = base64.StdEncoding.AppendEncode(w.text[:0], w.fixed)
		sink.Text(w.text)
	}
	return nil
}

func unexpected(v any, s avro.Schema) error {
	return fmt.Errorf("hamba decoded a %T where the schema has %s", v, s.Type())
}
