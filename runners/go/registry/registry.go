// Package registry lists every Go format as data: its metadata, a codec
// constructor per workload it maps, and why it does not run elsewhere.
package registry

import (
	"runtime"
	"runtime/debug"

	"shootout"
	"shootout/codec"
	"shootout/formats/avro"
	"shootout/formats/bson"
	"shootout/formats/capnp"
	"shootout/formats/cbor"
	"shootout/formats/flatbuf"
	"shootout/formats/gob"
	"shootout/formats/gojson"
	"shootout/formats/jsonstd"
	"shootout/formats/msgp"
	"shootout/formats/msgpack"
	"shootout/formats/protobuf"
	"shootout/formats/sbe"
	"shootout/formats/sonic"
	"shootout/formats/thrift"
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
)

type Format struct {
	Info       codec.Info
	User       func() UserCodec
	Iex        func() IexCodec
	Sql        func() SqlCodec
	Primitives func() PrimitivesCodec
	Object     func() ObjectCodec
	Mixed      func() MixedCodec
	Strings    func() StringsCodec
	Longs      func() LongsCodec
	// Why a workload is not run, by workload; a workload with neither a
	// constructor nor a reason is "no mapping yet".
	NotRun map[string]string
}

// Workloads are the shootout's workloads, in docs/results-schema.md's order.
var Workloads = []string{"iex", "user", "sql", "primitives", "object", "mixed", "strings", "longs"}

var (
	visitUser       = (*workload.User).Visit
	feedIex         = (*workload.MultiMessage).Feed
	visitSql        = (*workload.SqlRequest).Visit
	visitPrimitives = (*workload.Primitives).Visit
	visitObject     = (*workload.SmallObject).Visit
	visitMixed      = (*workload.MixedRow).Visit
	visitStrings    = (*workload.StringsRow).Visit
	visitLongs      = (*workload.LongsRow).Visit
)

// bind makes a constructor of a generic codec for one record type.
func bind[R, S any](newCodec func(func(*R, S)) codec.Codec[R, S], feed func(*R, S)) func() codec.Codec[R, S] {
	return func() codec.Codec[R, S] { return newCodec(feed) }
}

// reflective maps a reflection-based codec onto every workload whose Go
// record it can take as is.
func reflective(info codec.Info, newUser func(func(*workload.User, *workload.FieldSink)) UserCodec,
	newIex func(func(*workload.MultiMessage, *workload.IexSink)) IexCodec,
	newSql func(func(*workload.SqlRequest, *workload.FieldSink)) SqlCodec,
	newPrimitives func(func(*workload.Primitives, *workload.FieldSink)) PrimitivesCodec,
	newObject func(func(*workload.SmallObject, *workload.FieldSink)) ObjectCodec,
	newMixed func(func(*workload.MixedRow, *workload.FieldSink)) MixedCodec,
	newStrings func(func(*workload.StringsRow, *workload.FieldSink)) StringsCodec,
	newLongs func(func(*workload.LongsRow, *workload.FieldSink)) LongsCodec) Format {
	return Format{Info: info, User: bind(newUser, visitUser), Iex: bind(newIex, feedIex), Sql: bind(newSql, visitSql),
		Primitives: bind(newPrimitives, visitPrimitives), Object: bind(newObject, visitObject),
		Mixed: bind(newMixed, visitMixed), Strings: bind(newStrings, visitStrings), Longs: bind(newLongs, visitLongs)}
}

var Formats = []Format{
	reflective(jsonstd.Info, jsonstd.New, jsonstd.New, jsonstd.New, jsonstd.New, jsonstd.New, jsonstd.New, jsonstd.New, jsonstd.New),
	{Info: flatbuf.Info, User: flatbuf.UserInPlace, Iex: flatbuf.IexInPlace, Sql: flatbuf.Sql, Primitives: flatbuf.Primitives,
		Object: flatbuf.Object, Mixed: flatbuf.Mixed, Strings: flatbuf.Strings, Longs: flatbuf.Longs},
	{Info: flatbuf.CopyInfo, User: flatbuf.UserCopy, NotRun: map[string]string{
		"iex": studyOnly, "sql": studyOnly, "primitives": studyOnly, "object": studyOnly, "mixed": studyOnly, "strings": studyOnly, "longs": studyOnly}},
	reflective(gojson.Info, gojson.New, gojson.New, gojson.New, gojson.New, gojson.New, gojson.New, gojson.New, gojson.New),
	reflective(sonic.Info, sonic.New, sonic.New, sonic.New, sonic.New, sonic.New, sonic.New, sonic.New, sonic.New),
	reflective(msgpack.MapInfo, msgpack.Map, msgpack.Map, msgpack.Map, msgpack.Map, msgpack.Map, msgpack.Map, msgpack.Map, msgpack.Map),
	reflective(msgpack.ArrayInfo, msgpack.Array, msgpack.Array, msgpack.Array, msgpack.Array, msgpack.Array, msgpack.Array, msgpack.Array, msgpack.Array),
	{Info: msgp.Info, User: msgp.User, Iex: msgp.Iex, Sql: msgp.Sql, Primitives: msgp.Primitives,
		Object: msgp.Object, Mixed: msgp.Mixed, Strings: msgp.Strings, Longs: msgp.Longs},
	{Info: protobuf.Info, User: protobuf.User, Iex: protobuf.Iex, Sql: protobuf.Sql, Primitives: protobuf.Primitives,
		Object: protobuf.Object, Mixed: protobuf.Mixed, Strings: protobuf.Strings, Longs: protobuf.Longs},
	reflective(cbor.Info, cbor.New, cbor.New, cbor.New, cbor.New, cbor.New, cbor.New, cbor.New, cbor.New),
	func() Format {
		f := reflective(bson.Info, bson.New, bson.New, bson.New, bson.New, bson.New, bson.New, bson.New, bson.New)
		f.Iex = nil
		f.NotRun = map[string]string{"iex": "BSON has no unsigned 64-bit integer, and seq_no and prices are u64 (the Go driver refuses values above 2^63-1)"}
		return f
	}(),
	{Info: thrift.BinaryInfo, User: thrift.UserBinary, Iex: thrift.IexBinary, Sql: thrift.SqlBinary,
		Primitives: thrift.PrimitivesBinary, Object: thrift.ObjectBinary, Mixed: thrift.MixedBinary, Strings: thrift.StringsBinary, Longs: thrift.LongsBinary},
	{Info: thrift.CompactInfo, User: thrift.UserCompact, Iex: thrift.IexCompact, Sql: thrift.SqlCompact,
		Primitives: thrift.PrimitivesCompact, Object: thrift.ObjectCompact, Mixed: thrift.MixedCompact, Strings: thrift.StringsCompact, Longs: thrift.LongsCompact},
	{Info: avro.Info, User: avro.User, Iex: avro.Iex, Sql: bind(avro.New[workload.SqlRequest, *workload.FieldSink](avro.Sql), visitSql),
		Primitives: bind(avro.New[workload.Primitives, *workload.FieldSink](avro.Primitives), visitPrimitives),
		Object:     bind(avro.New[workload.SmallObject, *workload.FieldSink](avro.Object), visitObject),
		Mixed:      bind(avro.New[workload.MixedRow, *workload.FieldSink](avro.Mixed), visitMixed),
		Strings:    bind(avro.New[workload.StringsRow, *workload.FieldSink](avro.Strings), visitStrings),
		Longs:      bind(avro.New[workload.LongsRow, *workload.FieldSink](avro.Longs), visitLongs)},
	{Info: capnp.UnpackedInfo, User: capnp.UserUnpacked, Iex: capnp.IexUnpacked, Sql: capnp.SqlUnpacked,
		Primitives: capnp.PrimitivesUnpacked, Object: capnp.ObjectUnpacked, Mixed: capnp.MixedUnpacked, Strings: capnp.StringsUnpacked, Longs: capnp.LongsUnpacked},
	{Info: capnp.PackedInfo, User: capnp.UserPacked, Iex: capnp.IexPacked, Sql: capnp.SqlPacked,
		Primitives: capnp.PrimitivesPacked, Object: capnp.ObjectPacked, Mixed: capnp.MixedPacked, Strings: capnp.StringsPacked, Longs: capnp.LongsPacked},
	{Info: sbe.Info, User: sbe.User, Iex: sbe.Iex, Sql: sbe.Sql, Primitives: sbe.Primitives, Object: sbe.Object,
		Mixed: sbe.Mixed, Strings: sbe.Strings, Longs: sbe.Longs},
	reflective(gob.Info, gob.New, gob.New, gob.New, gob.New, gob.New, gob.New, gob.New, gob.New),
}

// Unavailable formats run on no workload: the Rust runner has them, Go has no
// library for them.
var Unavailable = []harness.NotRun{
	{Name: "ubjson", Family: "UBJSON", Reason: "no Go UBJSON library is reachable from this build's module proxy"},
	{Name: "flexbuffers", Family: "FlexBuffers", Reason: "github.com/google/flatbuffers/go has no FlexBuffers, and no other Go FlexBuffers library is reachable"},
}

const (
	noMapping = "no mapping yet"
	studyOnly = "the copy-into-own-struct variant is the Go study's, measured on its UserResponse only"
)

func entries[R, S any](feed func(*R, S), codecOf func(Format) func() codec.Codec[R, S]) []harness.Entry[R, S] {
	out := []harness.Entry[R, S]{{Info: harness.BaselineInfo, New: func() codec.Codec[R, S] { return harness.Baseline(feed) }}}
	for _, f := range Formats {
		if c := codecOf(f); c != nil {
			out = append(out, harness.Entry[R, S]{Info: f.Info, New: c})
		}
	}
	return out
}

// User is the user workload's runnable entries, baseline first.
func User() []harness.Entry[workload.User, *workload.FieldSink] {
	return entries(visitUser, func(f Format) func() UserCodec { return f.User })
}

// Iex is the iex workload's runnable entries, baseline first.
func Iex() []harness.Entry[workload.MultiMessage, *workload.IexSink] {
	return entries(feedIex, func(f Format) func() IexCodec { return f.Iex })
}

func Sql() []harness.Entry[workload.SqlRequest, *workload.FieldSink] {
	return entries(visitSql, func(f Format) func() SqlCodec { return f.Sql })
}

func Primitives() []harness.Entry[workload.Primitives, *workload.FieldSink] {
	return entries(visitPrimitives, func(f Format) func() PrimitivesCodec { return f.Primitives })
}

func Object() []harness.Entry[workload.SmallObject, *workload.FieldSink] {
	return entries(visitObject, func(f Format) func() ObjectCodec { return f.Object })
}

func Mixed() []harness.Entry[workload.MixedRow, *workload.FieldSink] {
	return entries(visitMixed, func(f Format) func() MixedCodec { return f.Mixed })
}

func Strings() []harness.Entry[workload.StringsRow, *workload.FieldSink] {
	return entries(visitStrings, func(f Format) func() StringsCodec { return f.Strings })
}

func Longs() []harness.Entry[workload.LongsRow, *workload.FieldSink] {
	return entries(visitLongs, func(f Format) func() LongsCodec { return f.Longs })
}

// RunsOn lists the workloads f has a codec for.
func RunsOn(f Format) []string {
	var out []string
	for _, w := range Workloads {
		if runs(f, w) {
			out = append(out, w)
		}
	}
	return out
}

// runs says whether format f has a codec for workload w.
func runs(f Format, w string) bool {
	switch w {
	case "user":
		return f.User != nil
	case "iex":
		return f.Iex != nil
	case "sql":
		return f.Sql != nil
	case "primitives":
		return f.Primitives != nil
	case "object":
		return f.Object != nil
	case "mixed":
		return f.Mixed != nil
	case "strings":
		return f.Strings != nil
	case "longs":
		return f.Longs != nil
	}
	return false
}

// NotRun lists, for workload w, every registered format without a codec for
// it, with the reason; none is dropped silently.
func NotRun(w string) []harness.NotRun {
	var out []harness.NotRun
	for _, f := range Formats {
		if runs(f, w) {
			continue
		}
		reason := f.NotRun[w]
		if reason == "" {
			reason = noMapping
		}
		out = append(out, harness.NotRun{Name: f.Info.Name, Family: f.Info.Family, Reason: reason})
	}
	return append(out, Unavailable...)
}

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
