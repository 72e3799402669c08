package protobufhyperpb

import (
	"testing"

	"buf.build/go/hyperpb"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"shootout/internal/protobuftest"
)

// The decoder is hyperpb's: the parser hands the codec a hyperpb message,
// and a second parse into the freed memory reads its own bytes.
func TestRecordsAreParsedByHyperpb(t *testing.T) {
	descriptor := edgeDescriptor(t)
	parse := parser(descriptor)()
	for _, big := range []uint64{1, 2} {
		written := dynamicpb.NewMessage(descriptor)
		written.Set(descriptor.Fields().ByName("big"), protoreflect.ValueOfUint64(big))
		body, err := proto.Marshal(written)
		if err != nil {
			t.Fatal(err)
		}
		message, err := parse(body)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := message.(*hyperpb.Message); !ok {
			t.Fatalf("parsed into a %T, not a *hyperpb.Message", message)
		}
		if got := message.Get(descriptor.Fields().ByName("big")).Uint(); got != big {
			t.Errorf("big parsed as %d, want %d", got, big)
		}
	}
}

// Each edge record's message, written as protobuf-dynamic writes it and
// parsed by hyperpb, decodes to its projection, each parse into the memory
// the one before it used.
func TestEachMessageDecodesToItsProjection(t *testing.T) {
	protobuftest.CheckEdgeProjections(t, Jsonl)
}

func edgeDescriptor(t *testing.T) protoreflect.MessageDescriptor {
	t.Helper()
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(protobuftest.EdgeSchemas(t, "edge.Edge").Protobuf.DescriptorSet, &set); err != nil {
		t.Fatal(err)
	}
	files, err := protodesc.NewFiles(&set)
	if err != nil {
		t.Fatal(err)
	}
	d, err := files.FindDescriptorByName("edge.Edge")
	if err != nil {
		t.Fatal(err)
	}
	return d.(protoreflect.MessageDescriptor)
}
