// Package protobufdynamic is google.golang.org/protobuf's dynamic messages
// (dynamicpb) on a jsonl or csv dataset run with a schema
// (docs/dataset-format.md, "With a schema"): the record's message is read at
// run time from the descriptor set in the dataset's header, compiled by
// protodesc; no code is generated.
package protobufdynamic

import (
	"encoding/base64"
	"fmt"
	"strconv"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"shootout/codec"
	"shootout/workload"
)

var Info = codec.Info{
	Name: "protobuf-dynamic", Family: "Protocol Buffers", Library: "google.golang.org/protobuf",
	Framing: codec.FramingVarint, Wire: "protobuf", Labels: codec.OwnedDynamic,
	Notes: "dynamicpb messages of the record's descriptor, compiled at run time (protodesc) from the dataset's descriptor set; " +
		"each record's message read from its projection by protojson before the timed loops; MarshalAppend into the stream behind a varint length " +
		"(protobuf's length-delimited framing); Unmarshal into one reused message, walked into the projection (the fields it Has, by their .proto names)",
}

// noSchema is why the format does not run a dataset without a protobuf
// schema.
const noSchema = "no protobuf schema: run with --schema FILE.proto (a csv run builds one from its columns)"

// Parser reads one message's bytes (its length prefix taken off) into a
// message, which the codec walks into the sink before it parses the next
// record: the parser may reuse that message or its memory.
type Parser func(body []byte) (protoreflect.Message, error)

// Jsonl is the format's codec of a dataset whose header holds schemas, or
// why it has none: no protobuf schema, the reason the header gives instead
// of one, or what is wrong with the one it gives.
func Jsonl(schemas workload.RecordSchemas) (func() codec.Codec[workload.JSONRecord, *workload.JSONSink], string) {
	return JsonlParsedBy(schemas, dynamicParser)
}

// dynamicParser parses into one reused dynamicpb message of descriptor per
// codec.
func dynamicParser(descriptor protoreflect.MessageDescriptor) func() Parser {
	return func() Parser {
		message := dynamicpb.NewMessage(descriptor)
		return func(body []byte) (protoreflect.Message, error) {
			// Unmarshal resets the message first (Merge is off).
			return message, proto.Unmarshal(body, message)
		}
	}
}

// JsonlParsedBy is Jsonl with each codec's records parsed by the parser
// parserOf makes for it from the record's descriptor (parserOf is called
// once per dataset, so it may compile the descriptor once for every codec):
// how a parse-only library (formats/protobufhyperpb) decodes the records
// this format writes.
func JsonlParsedBy(schemas workload.RecordSchemas, parserOf func(protoreflect.MessageDescriptor) func() Parser) (func() codec.Codec[workload.JSONRecord, *workload.JSONSink], string) {
	s := schemas.Protobuf
	switch {
	case s == nil:
		return nil, noSchema
	case s.Reason != "":
		return nil, s.Reason
	}
	descriptor, err := compile(s)
	if err != nil {
		return nil, fmt.Sprintf("the dataset's protobuf schema (%s) cannot be read: %v", s.File, err)
	}
	model := &workload.JSONModel{Name: "dynamicpb " + string(descriptor.FullName()), Convert: func(v *workload.JSONValue) (any, error) {
		message := dynamicpb.NewMessage(descriptor)
		if err := protojson.Unmarshal(workload.AppendJSON(nil, v), message); err != nil {
			return nil, err
		}
		return message, nil
	}}
	newParser := parserOf(descriptor)
	return func() codec.Codec[workload.JSONRecord, *workload.JSONSink] {
		return &Codec{model: model, parse: newParser()}
	}, ""
}

// compile is the record's message descriptor, from the descriptor set.
func compile(s *workload.ProtobufSchema) (protoreflect.MessageDescriptor, error) {
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(s.DescriptorSet, &set); err != nil {
		return nil, err
	}
	files, err := protodesc.NewFiles(&set)
	if err != nil {
		return nil, err
	}
	d, err := files.FindDescriptorByName(protoreflect.FullName(s.Message))
	if err != nil {
		return nil, fmt.Errorf("message %s: %w", s.Message, err)
	}
	message, ok := d.(protoreflect.MessageDescriptor)
	if !ok {
		return nil, fmt.Errorf("%s is not a message", s.Message)
	}
	return message, nil
}

// Codec writes each record's message, made from its projection by protojson
// (the model, made before the timed loops: codec.Preparer), and reads the
// bytes back with its parser into a message that it walks into the sink.
type Codec struct {
	model *workload.JSONModel
	parse Parser
	// scratch is a bytes field's base64 or a map key's text, each handed to
	// the sink as soon as it is written.
	scratch []byte
}

func (c *Codec) Prepare(records []workload.JSONRecord) {
	for i := range records {
		records[i].Model(c.model)
	}
}

func (c *Codec) Encode(stream []byte, r *workload.JSONRecord) ([]byte, error) {
	model, err := r.Model(c.model)
	if err != nil {
		return stream, err
	}
	start := len(stream)
	stream, err = proto.MarshalOptions{}.MarshalAppend(stream, model.(*dynamicpb.Message))
	if err != nil {
		return stream[:start], err
	}
	return prefixLength(stream, start), nil
}

// prefixLength puts the varint length of the message written from start
// before it. A dynamic message has no generated size method: proto.Size
// would walk it by reflection a second time, so the message is written
// first and moved up by the prefix's one to five bytes.
func prefixLength(stream []byte, start int) []byte {
	n := len(stream) - start
	k := protowire.SizeVarint(uint64(n))
	stream = append(stream, make([]byte, k)...)
	copy(stream[start+k:], stream[start:start+n])
	protowire.AppendVarint(stream[start:start], uint64(n))
	return stream
}

func (c *Codec) Decode(stream []byte, sink *workload.JSONSink) (int, error) {
	size, k := protowire.ConsumeVarint(stream)
	if k < 0 {
		return 0, fmt.Errorf("length prefix: %w", protowire.ParseError(k))
	}
	if size > uint64(len(stream)-k) {
		return 0, fmt.Errorf("length prefix says %d bytes, %d left", size, len(stream)-k)
	}
	end := k + int(size)
	message, err := c.parse(stream[k:end])
	if err != nil {
		return 0, err
	}
	c.walkMessage(message, sink)
	return end, nil
}

// walkMessage feeds the message's projection: an object with a member per
// field it has, keyed by the field's name as the .proto writes it.
func (c *Codec) walkMessage(m protoreflect.Message, sink *workload.JSONSink) {
	sink.BeginObject()
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		field := fields.Get(i)
		if !m.Has(field) {
			continue
		}
		sink.Key(string(field.Name()))
		switch value := m.Get(field); {
		case field.IsList():
			c.walkList(field, value.List(), sink)
		case field.IsMap():
			c.walkMap(field, value.Map(), sink)
		default:
			c.walkValue(field, value, sink)
		}
	}
	sink.EndObject()
}

func (c *Codec) walkList(field protoreflect.FieldDescriptor, list protoreflect.List, sink *workload.JSONSink) {
	sink.BeginArray()
	for i := range list.Len() {
		c.walkValue(field, list.Get(i), sink)
	}
	sink.EndArray()
}

// walkMap feeds a map field as an object, each key as its text.
func (c *Codec) walkMap(field protoreflect.FieldDescriptor, m protoreflect.Map, sink *workload.JSONSink) {
	sink.BeginObject()
	m.Range(func(key protoreflect.MapKey, value protoreflect.Value) bool {
		switch field.MapKey().Kind() {
		case protoreflect.StringKind:
			sink.Key(key.String())
		case protoreflect.BoolKind:
			sink.Key(strconv.FormatBool(key.Bool()))
		case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
			c.scratch = strconv.AppendUint(c.scratch[:0], key.Uint(), 10)
			sink.KeyBytes(c.scratch)
		default:
			c.scratch = strconv.AppendInt(c.scratch[:0], key.Int(), 10)
			sink.KeyBytes(c.scratch)
		}
		c.walkValue(field.MapValue(), value, sink)
		return true
	})
	sink.EndObject()
}

// walkValue feeds one value of field's type: a singular field's, a list's
// element or a map's value.
func (c *Codec) walkValue(field protoreflect.FieldDescriptor, v protoreflect.Value, sink *workload.JSONSink) {
	switch field.Kind() {
	case protoreflect.BoolKind:
		sink.Bool(v.Bool())
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind,
		protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		sink.Int(v.Int())
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		sink.Uint(v.Uint())
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		// A float field's value is its float32, widened exactly.
		sink.Float(v.Float())
	case protoreflect.StringKind:
		sink.String(v.String())
	case protoreflect.BytesKind:
		c.scratch = base64.StdEncoding.AppendEncode(c.scratch[:0], v.Bytes())
		sink.Text(c.scratch)
	case protoreflect.EnumKind:
		if name := field.Enum().Values().ByNumber(v.Enum()); name != nil {
			sink.String(string(name.Name()))
		} else {
			sink.Int(int64(v.Enum()))
		}
	default:
		// A message, or a group (a message written delimited): the Rust
		// side refuses a .proto with a group, but an editions file's
		// delimited message fields are groups to protoreflect.
		c.walkMessage(v.Message(), sink)
	}
}
