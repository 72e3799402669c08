package protobufdynamic

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"

	"shootout/internal/workloadtest"
	"shootout/workload"
)

// edgeProto is this .proto, compiled as protoc would write its descriptor:
//
//	syntax = "proto3";
//	package edge;
//	enum Level { LOW = 0; HIGH = 1; }
//	message Edge {
//	  uint64 big = 1;
//	  float ratio = 2;
//	  double score = 3;
//	  bytes blob = 4;
//	  Level level = 5;
//	  map<int32, string> names = 6;
//	  oneof choice { string text = 7; int32 count = 8; }
//	  Edge child = 9;
//	  repeated sint64 tags = 10;
//	  optional double maybe = 11;
//	  bool flag = 12;
//	  int64 some_field = 13;
//	}
const edgeProto = `
name: "edge.proto" package: "edge" syntax: "proto3"
enum_type { name: "Level" value { name: "LOW" number: 0 } value { name: "HIGH" number: 1 } }
message_type {
  name: "Edge"
  field { name: "big" number: 1 label: LABEL_OPTIONAL type: TYPE_UINT64 json_name: "big" }
  field { name: "ratio" number: 2 label: LABEL_OPTIONAL type: TYPE_FLOAT json_name: "ratio" }
  field { name: "score" number: 3 label: LABEL_OPTIONAL type: TYPE_DOUBLE json_name: "score" }
  field { name: "blob" number: 4 label: LABEL_OPTIONAL type: TYPE_BYTES json_name: "blob" }
  field { name: "level" number: 5 label: LABEL_OPTIONAL type: TYPE_ENUM type_name: ".edge.Level" json_name: "level" }
  field { name: "names" number: 6 label: LABEL_REPEATED type: TYPE_MESSAGE type_name: ".edge.Edge.NamesEntry" json_name: "names" }
  field { name: "text" number: 7 label: LABEL_OPTIONAL type: TYPE_STRING oneof_index: 0 json_name: "text" }
  field { name: "count" number: 8 label: LABEL_OPTIONAL type: TYPE_INT32 oneof_index: 0 json_name: "count" }
  field { name: "child" number: 9 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".edge.Edge" json_name: "child" }
  field { name: "tags" number: 10 label: LABEL_REPEATED type: TYPE_SINT64 json_name: "tags" }
  field { name: "maybe" number: 11 label: LABEL_OPTIONAL type: TYPE_DOUBLE oneof_index: 1 proto3_optional: true json_name: "maybe" }
  field { name: "flag" number: 12 label: LABEL_OPTIONAL type: TYPE_BOOL json_name: "flag" }
  field { name: "some_field" number: 13 label: LABEL_OPTIONAL type: TYPE_INT64 json_name: "someField" }
  nested_type {
    name: "NamesEntry"
    field { name: "key" number: 1 label: LABEL_OPTIONAL type: TYPE_INT32 json_name: "key" }
    field { name: "value" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING json_name: "value" }
    options { map_entry: true }
  }
  oneof_decl { name: "choice" }
  oneof_decl { name: "_maybe" }
}`

// edgeSchemas are a header's record_schemas holding edgeProto.
func edgeSchemas(t *testing.T, message string) workload.RecordSchemas {
	t.Helper()
	var file descriptorpb.FileDescriptorProto
	if err := prototext.Unmarshal([]byte(edgeProto), &file); err != nil {
		t.Fatal(err)
	}
	set, err := proto.Marshal(&descriptorpb.FileDescriptorSet{File: []*descriptorpb.FileDescriptorProto{&file}})
	if err != nil {
		t.Fatal(err)
	}
	return workload.RecordSchemas{Protobuf: &workload.ProtobufSchema{File: "edge.proto", Message: message, DescriptorSet: set}}
}

// Each line's message decodes to its projection (docs/dataset-format.md,
// "With a schema"): the fields the message has, by their .proto names, each
// value as the table types it.
func TestEachMessageDecodesToItsProjection(t *testing.T) {
	newCodec, reason := Jsonl(edgeSchemas(t, "edge.Edge"))
	if newCodec == nil {
		t.Fatal(reason)
	}
	c := newCodec()
	for _, e := range []struct{ line, projection string }{
		{`{"big":18446744073709551615}`, `{"big":18446744073709551615}`},
		// A float is its float32, widened exactly.
		{`{"ratio":0.1}`, `{"ratio":0.10000000149011612}`},
		// protobuf-go has a proto3 double whose bits are not zero's: -0.0.
		{`{"score":-0.0}`, `{"score":-0.0}`},
		// Any base64 in, standard with padding out.
		{`{"blob":"AAEC_w"}`, `{"blob":"AAEC/w=="}`},
		{`{"level":7}`, `{"level":7}`},
		{`{"level":1}`, `{"level":"HIGH"}`},
		{`{"level":"HIGH"}`, `{"level":"HIGH"}`},
		{`{"names":{"-1":"a","2147483647":"b"}}`, `{"names":{"-1":"a","2147483647":"b"}}`},
		// A oneof's member is set at its default too, as an optional field is.
		{`{"count":0}`, `{"count":0}`},
		{`{"text":""}`, `{"text":""}`},
		{`{"maybe":0.0}`, `{"maybe":0.0}`},
		{`{"child":{}}`, `{"child":{}}`},
		{`{"child":{"tags":[-1,9223372036854775807],"child":{"level":"HIGH"}}}`, `{"child":{"tags":[-1,9223372036854775807],"child":{"level":"HIGH"}}}`},
		// A field without presence at its default is not had; a member by
		// its JSON name comes back by the .proto's.
		{`{"big":0,"score":0.0,"blob":"","level":"LOW","flag":false,"tags":[],"names":{}}`, `{}`},
		{`{"someField":5,"flag":true}`, `{"some_field":5,"flag":true}`},
	} {
		workloadtest.CheckJSONTrip(t, c, e.line, e.projection)
	}
}

// A line that is no message of the schema is the encoder's error, naming
// what protojson refused.
func TestALineThatIsNoMessageIsAnEncodeError(t *testing.T) {
	newCodec, _ := Jsonl(edgeSchemas(t, "edge.Edge"))
	for line, want := range map[string]string{
		`{"nope":1}`:                     "nope",
		`{"count":1,"text":"x"}`:         "oneof",
		`{"big":-1}`:                     "big",
		`{"big":18446744073709551616}`:   "big",
		`[1]`:                            "",
		`{"names":{"x":"not a number"}}`: "int32 key",
	} {
		if _, err := workloadtest.JSONTrip(newCodec(), line); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: want an error naming %q, got %v", line, want, err)
		}
	}
}

// Without a protobuf schema the format says why; with one it cannot read,
// what is wrong.
func TestWithoutAReadableSchemaTheFormatSaysWhy(t *testing.T) {
	good := edgeSchemas(t, "edge.Edge").Protobuf
	for _, c := range []struct {
		schemas workload.RecordSchemas
		want    string
	}{
		{workload.RecordSchemas{}, "no protobuf schema: run with --schema FILE.proto (a csv run builds one from its columns)"},
		{workload.RecordSchemas{Avro: &workload.AvroSchema{File: "a.avsc", Schema: `"long"`}}, noSchema},
		{workload.RecordSchemas{Protobuf: &workload.ProtobufSchema{Reason: "column 2's name, \"unit price\", is not an identifier"}},
			"column 2's name, \"unit price\", is not an identifier"},
		{workload.RecordSchemas{Protobuf: &workload.ProtobufSchema{File: "edge.proto", Message: "edge.Edge", DescriptorSet: []byte{0xff}}},
			"the dataset's protobuf schema (edge.proto) cannot be read: "},
		{workload.RecordSchemas{Protobuf: &workload.ProtobufSchema{File: "edge.proto", Message: "edge.Missing", DescriptorSet: good.DescriptorSet}},
			"cannot be read: message edge.Missing: "},
		{workload.RecordSchemas{Protobuf: &workload.ProtobufSchema{File: "edge.proto", Message: "edge.Level", DescriptorSet: good.DescriptorSet}},
			"edge.Level is not a message"},
	} {
		newCodec, reason := Jsonl(c.schemas)
		if newCodec != nil || !strings.Contains(reason, c.want) {
			t.Errorf("%+v: codec %v, reason %q; want %q", c.schemas, newCodec != nil, reason, c.want)
		}
	}
}

// The varint prefix is protobuf's length-delimited framing, at each of its
// lengths; a prefix that claims more than the stream holds is an error.
func TestEachMessageIsBehindItsVarintLength(t *testing.T) {
	newCodec, _ := Jsonl(edgeSchemas(t, "edge.Edge"))
	c := newCodec()
	for _, n := range []int{0, 120, 200, 20000} {
		line := `{"text":"` + strings.Repeat("x", n) + `"}`
		r := workloadtest.JSONRecord(t, line)
		stream, err := c.Encode([]byte("before"), &r)
		if err != nil {
			t.Fatal(err)
		}
		body, err := proto.Marshal(mustModel(t, c, &r))
		if err != nil {
			t.Fatal(err)
		}
		if want := append(append([]byte("before"), varint(len(body))...), body...); string(stream) != string(want) {
			t.Fatalf("%d characters: stream %x, want %x", n, stream, want)
		}
		if _, err := c.Decode(stream[len("before"):len(stream)-1], workload.NewJSONSink()); err == nil {
			t.Fatalf("%d characters: a stream one byte short decoded", n)
		}
	}
}

func mustModel(t *testing.T, c workloadtest.JSONCodec, r *workload.JSONRecord) proto.Message {
	t.Helper()
	m, err := r.Model(c.(*Codec).model)
	if err != nil {
		t.Fatal(err)
	}
	return m.(proto.Message)
}

func varint(n int) []byte {
	var b []byte
	for ; n >= 0x80; n >>= 7 {
		b = append(b, byte(n)|0x80)
	}
	return append(b, byte(n))
}
