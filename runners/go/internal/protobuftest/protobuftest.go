// Package protobuftest holds the edge message the tests of the Go formats
// that run a jsonl or csv dataset with a protobuf schema decode (the schema
// formats that share protobuf-dynamic's encoding): a .proto with a field of
// each kind the projection maps, and each edge record with its projection.
package protobuftest

import (
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

// EdgeSchemas are a header's record_schemas holding edgeProto, its record
// the message named message (edge.Edge, or another name to test a reason).
func EdgeSchemas(t testing.TB, message string) workload.RecordSchemas {
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

// EdgeProjections are records of edge.Edge, each with its projection
// (docs/dataset-format.md, "With a schema"): the fields the message has, by
// their .proto names, each value as the table types it.
var EdgeProjections = []struct{ Line, Projection string }{
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
}

// CheckEdgeProjections checks that each of EdgeProjections, encoded and
// decoded by one codec that jsonl makes from EdgeSchemas, comes back as its
// projection; twice over, so that each decode also follows another into
// whatever the codec reuses.
func CheckEdgeProjections(t *testing.T, jsonl func(workload.RecordSchemas) (func() workloadtest.JSONCodec, string)) {
	t.Helper()
	newCodec, reason := jsonl(EdgeSchemas(t, "edge.Edge"))
	if newCodec == nil {
		t.Fatal(reason)
	}
	c := newCodec()
	for range 2 {
		for _, e := range EdgeProjections {
			workloadtest.CheckJSONTrip(t, c, e.Line, e.Projection)
		}
	}
}
