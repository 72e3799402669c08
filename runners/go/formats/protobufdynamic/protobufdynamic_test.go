package protobufdynamic

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"shootout/internal/protobuftest"
	"shootout/internal/workloadtest"
	"shootout/workload"
)

// Each line's message decodes to its projection (docs/dataset-format.md,
// "With a schema"): the fields the message has, by their .proto names, each
// value as the table types it.
func TestEachMessageDecodesToItsProjection(t *testing.T) {
	protobuftest.CheckEdgeProjections(t, Jsonl)
}

// A line that is no message of the schema is the encoder's error, naming
// what protojson refused.
func TestALineThatIsNoMessageIsAnEncodeError(t *testing.T) {
	newCodec, _ := Jsonl(protobuftest.EdgeSchemas(t, "edge.Edge"))
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
	good := protobuftest.EdgeSchemas(t, "edge.Edge").Protobuf
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
	newCodec, _ := Jsonl(protobuftest.EdgeSchemas(t, "edge.Edge"))
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
