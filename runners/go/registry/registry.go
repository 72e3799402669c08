// Package registry lists every Go format as data (its metadata, a codec
// constructor per workload it maps, and why it does not run elsewhere) and
// every workload, its record and sink types bound to what the runner does
// with it (Workloads).
package registry

import (
	"runtime"
	"runtime/debug"

	"shootout"
	"shootout/codec"
	"shootout/formats/avro"
	"shootout/formats/avrogeneric"
	"shootout/formats/bson"
	"shootout/formats/capnp"
	"shootout/formats/cbor"
	"shootout/formats/flatbuf"
	"shootout/formats/gob"
	"shootout/formats/gojson"
	"shootout/formats/iexserde"
	"shootout/formats/jsonstd"
	"shootout/formats/jsonv2"
	"shootout/formats/msgp"
	"shootout/formats/msgpack"
	"shootout/formats/mus"
	"shootout/formats/protobuf"
	"shootout/formats/protobufdynamic"
	"shootout/formats/protobufhyperpb"
	"shootout/formats/sbe"
	"shootout/formats/sonic"
	"shootout/formats/thrift"
	"shootout/formats/vtprotobuf"
	"shootout/harness"
	"shootout/workload"
)

type (
	UserCodec       = codec.Codec[workload.User, *workload.FieldSink]
	IexCodec        = codec.Codec[workload.MultiMessage, *workload.IexSink]
	SqlCodec        = codec.Codec[workload.SqlRequest, *workload.FieldSink]
	PrimitivesCodec = codec.Codec[workload.Primitives, *workload.FieldSink]
	ObjectCodec     = codec.Codec[workload.SmallObject, *workload.FieldSink]
	MixedCodec      = codec.Codec[workload.MixedRow, *workload.FieldSink]
	StringsCodec    = codec.Codec[workload.StringsRow, *workload.FieldSink]
	LongsCodec      = codec.Codec[workload.LongsRow, *workload.FieldSink]
	JsonlCodec      = codec.Codec[workload.JSONRecord, *workload.JSONSink]
)

// Format is one Go format: its metadata and how it makes a codec for each
// workload it runs.
type Format struct {
	Info codec.Info
	// Library is a reflection-based library as a codec of a workload (by
	// name) uses it: it takes every workload's record as it is, but where
	// the format has a constructor of its own or a NotRun reason.
	Library func(workload string) codec.Library
	// Constructors of the format's codec of each workload, where it has code
	// of its own for the workload's record.
	User       func() UserCodec
	Iex        func() IexCodec
	Sql        func() SqlCodec
	Primitives func() PrimitivesCodec
	Object     func() ObjectCodec
	Mixed      func() MixedCodec
	Strings    func() StringsCodec
	Longs      func() LongsCodec
	// Jsonl is a codec through the library's dynamic value model: a
	// reflection library's Library cannot map a JSON value of any shape.
	// It runs csv too, whose records are jsonl's.
	Jsonl func() JsonlCodec
	// JsonlWithSchema, for a format that runs jsonl (and csv) records only
	// as a schema types them, through its library's runtime API (dynamic
	// messages, generic records), makes its codec from a dataset's record
	// schemas, or says why it does not run on that dataset (Workload.NotRun
	// once WorkloadOf has bound the workload to the dataset).
	JsonlWithSchema func(workload.RecordSchemas) (func() JsonlCodec, string)
	// Why a workload is not run, by workload (by Workload.As: csv's are
	// jsonl's); a workload with neither a codec nor a reason is "no mapping
	// yet".
	NotRun map[string]string
}

// everywhere is a library that needs nothing of the workload.
func everywhere(newLibrary func() codec.Library) func(string) codec.Library {
	return func(string) codec.Library { return newLibrary() }
}

var Formats = []Format{
	{Info: jsonstd.Info, Library: everywhere(jsonstd.New), Iex: iexserde.Codec(jsonstd.New), Jsonl: jsonstd.Jsonl},
	{Info: jsonstd.FlatInfo, Library: everywhere(jsonstd.New), NotRun: map[string]string{
		"user": flatIexOnly, "sql": flatIexOnly, "primitives": flatIexOnly, "object": flatIexOnly, "mixed": flatIexOnly, "strings": flatIexOnly, "longs": flatIexOnly,
		"jsonl": flatIexOnly}},
	{Info: flatbuf.Info, User: flatbuf.UserInPlace, Iex: flatbuf.IexInPlace, Sql: flatbuf.Sql, Primitives: flatbuf.Primitives,
		Object: flatbuf.Object, Mixed: flatbuf.Mixed, Strings: flatbuf.Strings, Longs: flatbuf.Longs, NotRun: schemaOnly},
	{Info: flatbuf.CopyInfo, User: flatbuf.UserCopy, NotRun: map[string]string{
		"iex": studyOnly, "sql": studyOnly, "primitives": studyOnly, "object": studyOnly, "mixed": studyOnly, "strings": studyOnly, "longs": studyOnly,
		"jsonl": studyOnly}},
	{Info: gojson.Info, Library: everywhere(gojson.New), Iex: iexserde.Codec(gojson.New), Jsonl: gojson.Jsonl},
	{Info: sonic.Info, Library: everywhere(sonic.New), Iex: iexserde.Codec(sonic.New), Jsonl: sonic.Jsonl},
	{Info: jsonv2.Info, Library: everywhere(jsonv2.New), Iex: iexserde.Codec(jsonv2.New), Jsonl: jsonv2.Jsonl},
	{Info: msgpack.MapInfo, Library: everywhere(msgpack.Map), Iex: iexserde.Codec(msgpack.Map), Jsonl: msgpack.Jsonl},
	{Info: msgpack.ArrayInfo, Library: everywhere(msgpack.Array), Iex: iexserde.Codec(msgpack.Array), NotRun: map[string]string{
		"jsonl": "a JSON value has no struct to write as an array: its any tree is msgpack-map's bytes, and msgpack-map runs it"}},
	{Info: msgp.Info, User: msgp.User, Iex: msgp.Iex, Sql: msgp.Sql, Primitives: msgp.Primitives,
		Object: msgp.Object, Mixed: msgp.Mixed, Strings: msgp.Strings, Longs: msgp.Longs, Jsonl: msgp.Jsonl},
	{Info: protobuf.Info, User: protobuf.User, Iex: protobuf.Iex, Sql: protobuf.Sql, Primitives: protobuf.Primitives,
		Object: protobuf.Object, Mixed: protobuf.Mixed, Strings: protobuf.Strings, Longs: protobuf.Longs, NotRun: schemaOnly},
	{Info: vtprotobuf.Info, User: vtprotobuf.User, Iex: vtprotobuf.Iex, Sql: vtprotobuf.Sql, Primitives: vtprotobuf.Primitives,
		Object: vtprotobuf.Object, Mixed: vtprotobuf.Mixed, Strings: vtprotobuf.Strings, Longs: vtprotobuf.Longs, NotRun: schemaOnly},
	{Info: protobufdynamic.Info, JsonlWithSchema: protobufdynamic.Jsonl, NotRun: withSchemaOnly},
	{Info: protobufhyperpb.Info, JsonlWithSchema: protobufhyperpb.Jsonl, NotRun: withSchemaOnly},
	{Info: cbor.Info, Library: everywhere(cbor.New), Iex: iexserde.Codec(cbor.New), Jsonl: cbor.Jsonl},
	{Info: bson.Info, Library: everywhere(bson.New), Jsonl: bson.Jsonl, NotRun: map[string]string{
		"iex": "BSON has no unsigned 64-bit integer, and seq_no and prices are u64 (the Go driver refuses values above 2^63-1)"}},
	{Info: thrift.BinaryInfo, User: thrift.UserBinary, Iex: thrift.IexBinary, Sql: thrift.SqlBinary,
		Primitives: thrift.PrimitivesBinary, Object: thrift.ObjectBinary, Mixed: thrift.MixedBinary, Strings: thrift.StringsBinary, Longs: thrift.LongsBinary,
		NotRun: schemaOnly},
	{Info: thrift.CompactInfo, User: thrift.UserCompact, Iex: thrift.IexCompact, Sql: thrift.SqlCompact,
		Primitives: thrift.PrimitivesCompact, Object: thrift.ObjectCompact, Mixed: thrift.MixedCompact, Strings: thrift.StringsCompact, Longs: thrift.LongsCompact,
		NotRun: schemaOnly},
	{Info: avro.Info, Library: avro.New, Iex: avro.Iex, NotRun: schemaOnly},
	{Info: avrogeneric.Info, JsonlWithSchema: avrogeneric.Jsonl, NotRun: withSchemaOnly},
	{Info: capnp.UnpackedInfo, User: capnp.UserUnpacked, Iex: capnp.IexUnpacked, Sql: capnp.SqlUnpacked,
		Primitives: capnp.PrimitivesUnpacked, Object: capnp.ObjectUnpacked, Mixed: capnp.MixedUnpacked, Strings: capnp.StringsUnpacked, Longs: capnp.LongsUnpacked,
		NotRun: schemaOnly},
	{Info: capnp.PackedInfo, User: capnp.UserPacked, Iex: capnp.IexPacked, Sql: capnp.SqlPacked,
		Primitives: capnp.PrimitivesPacked, Object: capnp.ObjectPacked, Mixed: capnp.MixedPacked, Strings: capnp.StringsPacked, Longs: capnp.LongsPacked,
		NotRun: schemaOnly},
	{Info: sbe.Info, User: sbe.User, Iex: sbe.Iex, Sql: sbe.Sql, Primitives: sbe.Primitives, Object: sbe.Object,
		Mixed: sbe.Mixed, Strings: sbe.Strings, Longs: sbe.Longs, NotRun: schemaOnly},
	{Info: gob.Info, Library: everywhere(gob.New), Jsonl: gob.Jsonl},
	{Info: mus.Info, User: mus.User, Iex: mus.Iex, Sql: mus.Sql, Primitives: mus.Primitives, Object: mus.Object,
		Mixed: mus.Mixed, Strings: mus.Strings, Longs: mus.Longs, NotRun: map[string]string{
			"jsonl": "mus-go serializes Go types its user writes a serializer for, and has none for a value whose shape is known only at run time (an any tree)"}},
}

// Unavailable formats run on no workload: another language has them, Go has
// no library for them that this build can have.
var Unavailable = []harness.NotRun{
	{Name: "ubjson", Family: "UBJSON", Reason: "no Go UBJSON library is reachable from this build's module proxy"},
	{Name: "flexbuffers", Family: "FlexBuffers", Reason: "github.com/google/flatbuffers/go has no FlexBuffers, and no other Go FlexBuffers library is reachable"},
	{Name: "fory", Family: "Fory", Reason: "Apache Fory's Go module (github.com/apache/fory/go/fory) is not served by this build's module proxy: it lists no version and refuses v0.13.0 (\"not available\"), nor does it serve the former name github.com/apache/fury/go/fury"},
}

const (
	noMapping = "no mapping yet"
	studyOnly = "the copy-into-own-struct variant is the Go study's, measured on its UserResponse only"
	// Only iex has a message whose shape Go and serde differ on.
	flatIexOnly = "Go's flat shape is the iex message's; on this workload json-std writes the same record"
)

// schemaOnly is why a schema format does not run jsonl: its records are
// JSON values of any shape, known only as they are read.
var schemaOnly = map[string]string{"jsonl": "a schema format; JSON Lines records have no schema"}

// withSchemaOnly is why a format with a JsonlWithSchema codec does not run
// the typed workloads: its schema is a jsonl or csv dataset's.
var withSchemaOnly = map[string]string{
	"iex": dynamicJsonlOnly, "user": dynamicJsonlOnly, "sql": dynamicJsonlOnly, "primitives": dynamicJsonlOnly,
	"object": dynamicJsonlOnly, "mixed": dynamicJsonlOnly, "strings": dynamicJsonlOnly, "longs": dynamicJsonlOnly}

const dynamicJsonlOnly = "dynamic: runs only the jsonl and csv workloads, with a schema"

// generators are the code generators whose output needs no runtime library;
// scripts/regenerate/go-*.sh pin the same versions.
var generators = map[string]string{"sbe-tool": "1.38.1"}

// Version is the linked version of a library: a module path, or "std".
// The build info says what was linked; go.mod answers in test binaries.
func Version(library string) string {
	if library == "std" {
		return runtime.Version()
	}
	if v, ok := generators[library]; ok {
		return v
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Path == library {
				if d.Replace != nil {
					return d.Replace.Version
				}
				return d.Version
			}
		}
	}
	if v := shootout.Required(library); v != "" {
		return v
	}
	return "unknown"
}
