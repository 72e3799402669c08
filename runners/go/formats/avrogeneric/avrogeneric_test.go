package avrogeneric

import (
	"strings"
	"testing"

	"shootout/internal/workloadtest"
	"shootout/workload"
)

// edgeAvsc has a field of each kind the projection maps: a ["null", T]
// union of a primitive and of a record (hamba decodes the one as it is, the
// other as a map of one entry), an array of records, an enum, a fixed, a
// float, bytes, a map whose values may be null, and a logical type.
const edgeAvsc = `{"type": "record", "name": "Edge", "namespace": "edge", "fields": [
  {"name": "opt", "type": ["null", "long"], "default": null},
  {"name": "items", "type": {"type": "array", "items": {"type": "record", "name": "Item", "fields": [
    {"name": "sku", "type": "string"}, {"name": "qty", "type": "int"}]}}},
  {"name": "level", "type": {"type": "enum", "name": "Level", "symbols": ["LOW", "HIGH"]}},
  {"name": "id", "type": {"type": "fixed", "name": "Id", "size": 4}},
  {"name": "ratio", "type": "float"},
  {"name": "blob", "type": "bytes"},
  {"name": "child", "type": ["null", "Item"], "default": null},
  {"name": "counts", "type": {"type": "map", "values": ["null", "long"]}},
  {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
  {"name": "later", "type": ["null", {"type": "array", "items": "boolean"}], "default": null}
]}`

func edgeCodec(t *testing.T) workloadtest.JSONCodec {
	t.Helper()
	newCodec, reason := Jsonl(workload.RecordSchemas{Avro: &workload.AvroSchema{File: "edge.avsc", Schema: edgeAvsc}})
	if newCodec == nil {
		t.Fatal(reason)
	}
	return newCodec()
}

// The members every edge line has: each record field without a default.
const base = `"items":[],"level":"LOW","id":"AAECAw==","ratio":0.5,"blob":"","counts":{},"at":1700000000000`

// Each line's generic record decodes to its projection
// (docs/dataset-format.md, "With a schema"): a member per field whose value
// is not null, each value as the table types it.
func TestEachRecordDecodesToItsProjection(t *testing.T) {
	c := edgeCodec(t)
	for _, e := range []struct{ line, projection string }{
		// An absent or null ["null", T] field is null, and left out.
		{`{` + base + `}`, `{` + base + `}`},
		{`{"opt":null,"child":null,"later":null,` + base + `}`, `{` + base + `}`},
		{`{"opt":-5,` + base + `}`, `{"opt":-5,` + base + `}`},
		{`{"child":{"sku":"c","qty":-2147483648},"later":[true,false],` + base + `}`,
			`{"child":{"sku":"c","qty":-2147483648},"later":[true,false],` + base + `}`},
		// An array of records, an enum, a map's null value.
		{`{"opt":1,"items":[{"sku":"a","qty":1},{"sku":"","qty":0}],"level":"HIGH","id":"AAECAw==","ratio":0.5,"blob":"","counts":{"a":null,"b":9223372036854775807},"at":-1}`,
			`{"opt":1,"items":[{"sku":"a","qty":1},{"sku":"","qty":0}],"level":"HIGH","id":"AAECAw==","ratio":0.5,"blob":"","counts":{"a":null,"b":9223372036854775807},"at":-1}`},
		// A float is its float32, widened exactly; bytes and a fixed are
		// any base64 in, standard with padding out.
		{`{"items":[],"level":"LOW","id":"_w_w_w","ratio":0.1,"blob":"AAEC_w","counts":{},"at":0}`,
			`{"items":[],"level":"LOW","id":"/w/w/w==","ratio":0.10000000149011612,"blob":"AAEC/w==","counts":{},"at":0}`},
		{`{"items":[],"level":"LOW","id":"AAAAAA==","ratio":-0.0,"blob":"AA==","counts":{},"at":0}`,
			`{"items":[],"level":"LOW","id":"AAAAAA==","ratio":-0.0,"blob":"AA==","counts":{},"at":0}`},
	} {
		workloadtest.CheckJSONTrip(t, c, e.line, e.projection)
	}
}

// A line that is no record of the schema is the encoder's error, naming
// the field.
func TestALineThatIsNoRecordIsAnEncodeError(t *testing.T) {
	for line, want := range map[string]string{
		`{"nope":1,` + base + `}`:  "nope: record edge.Edge has no such field",
		`{"opt":"x",` + base + `}`: "opt: a JSON string where the schema has long",
		`{"opt":1.5,` + base + `}`: "opt: a JSON float where the schema has long",
		`{"items":[{"sku":"a","qty":2147483648}],"level":"LOW","id":"AAECAw==","ratio":0.5,"blob":"","counts":{},"at":0}`: "items: [0]: qty: ",
		`{"items":[],"level":"LOW","id":"AAEC","ratio":0.5,"blob":"","counts":{},"at":0}`:                                 "id: 3 bytes for a fixed of 4",
		`{"items":[],"level":"LOW","id":"AAECAw==","ratio":0.5,"blob":"%","counts":{},"at":0}`:                            "blob: \"%\" is not base64",
		`{"items":[],"level":"MID","id":"AAECAw==","ratio":0.5,"blob":"","counts":{},"at":0}`:                             "MID",
		`{"items":[],"level":"LOW","ratio":0.5,"blob":"","counts":{},"at":0}`:                                             "missing required field id",
	} {
		if _, err := workloadtest.JSONTrip(edgeCodec(t), line); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: want an error naming %q, got %v", line, want, err)
		}
	}
}

// Without an Avro schema the format says why; with one it cannot read,
// what is wrong.
func TestWithoutAReadableSchemaTheFormatSaysWhy(t *testing.T) {
	for _, c := range []struct {
		schemas workload.RecordSchemas
		want    string
	}{
		{workload.RecordSchemas{}, "no Avro schema: run with --schema FILE.avsc (a csv run builds one from its columns)"},
		{workload.RecordSchemas{Protobuf: &workload.ProtobufSchema{File: "a.proto"}}, noSchema},
		{workload.RecordSchemas{Avro: &workload.AvroSchema{Reason: "column 2's name, \"unit price\", is not an identifier"}},
			"column 2's name, \"unit price\", is not an identifier"},
		{workload.RecordSchemas{Avro: &workload.AvroSchema{File: "bad.avsc", Schema: `{"type": "record"`}},
			"the dataset's Avro schema (bad.avsc) cannot be read: "},
		{workload.RecordSchemas{Avro: &workload.AvroSchema{File: "bad.avsc", Schema: `{"type": "record", "name": "R", "fields": [{"name": "a", "type": "Nope"}]}`}},
			"the dataset's Avro schema (bad.avsc) cannot be read: "},
	} {
		newCodec, reason := Jsonl(c.schemas)
		if newCodec != nil || !strings.Contains(reason, c.want) {
			t.Errorf("%+v: codec %v, reason %q; want %q", c.schemas, newCodec != nil, reason, c.want)
		}
	}
}

// Two datasets' schemas may give one name different types: each is parsed
// with its own names.
func TestEachSchemaHasItsOwnNames(t *testing.T) {
	for _, fields := range []string{`[{"name": "a", "type": "long"}]`, `[{"name": "a", "type": "string"}]`} {
		newCodec, reason := Jsonl(workload.RecordSchemas{Avro: &workload.AvroSchema{File: "r.avsc",
			Schema: `{"type": "record", "name": "R", "fields": ` + fields + `}`}})
		if newCodec == nil {
			t.Fatal(reason)
		}
		line := `{"a":1}`
		if strings.Contains(fields, "string") {
			line = `{"a":"x"}`
		}
		if _, err := workloadtest.JSONTrip(newCodec(), line); err != nil {
			t.Errorf("%s with %s: %v", line, fields, err)
		}
	}
}
