// Package protobufhyperpb is Buf's hyperpb (buf.build/go/hyperpb) on a jsonl
// or csv dataset run with a schema (docs/dataset-format.md, "With a
// schema"): a parser compiled at run time from the record's descriptor in
// the dataset's header, the fast alternative to dynamicpb for decoding
// messages whose type is known only at run time.
//
// hyperpb parses and nothing else: its messages cannot be mutated or
// marshalled (its README: "Mutation is currently not supported"), so the
// records are written as protobuf-dynamic writes them (dynamicpb's
// MarshalAppend), and only the decode is hyperpb's.
package protobufhyperpb

import (
	"buf.build/go/hyperpb"
	"google.golang.org/protobuf/reflect/protoreflect"

	"shootout/codec"
	"shootout/formats/protobufdynamic"
	"shootout/workload"
)

var Info = codec.Info{
	Name: "protobuf-hyperpb", Family: "Protocol Buffers", Library: "buf.build/go/hyperpb",
	Framing: codec.FramingVarint, Wire: "protobuf", Labels: codec.OwnedDynamic,
	Notes: "decode only is hyperpb's: a parser compiled once per dataset (CompileMessageDescriptor, no profile-guided recompile) from the record's descriptor in the dataset's descriptor set; " +
		"each record parsed by Message.Unmarshal (default options: the input copied, UTF-8 checked) into a message of one hyperpb.Shared per codec, freed before the next record (its documented memory reuse), walked into the projection as protobuf-dynamic walks its message. " +
		"hyperpb cannot marshal (parse-only), so encode is protobuf-dynamic's path, not hyperpb's: dynamicpb messages made from each projection by protojson before the timed loops, MarshalAppend behind a varint length (protobuf-dynamic's stream, which protobuf-dynamic reads too)",
}

// Jsonl is the format's codec of a dataset whose header holds schemas, or
// why it has none (protobuf-dynamic's reasons: the same schema).
func Jsonl(schemas workload.RecordSchemas) (func() codec.Codec[workload.JSONRecord, *workload.JSONSink], string) {
	return protobufdynamic.JsonlParsedBy(schemas, parser)
}

// parser compiles descriptor's parser once; each codec parses with it into
// the memory of a Shared of its own.
func parser(descriptor protoreflect.MessageDescriptor) func() protobufdynamic.Parser {
	messageType := hyperpb.CompileMessageDescriptor(descriptor)
	return func() protobufdynamic.Parser {
		shared, parsed := new(hyperpb.Shared), false
		return func(body []byte) (protoreflect.Message, error) {
			// The last record's message has been walked into its sink: its
			// memory is free to reuse. (Free panics on a Shared that has
			// made no message yet: v0.1.3's arena has no block to keep.)
			if parsed {
				shared.Free()
			}
			parsed = true
			message := shared.NewMessage(messageType)
			return message, message.Unmarshal(body)
		}
	}
}
