"""Writes the JVM runner's tabular rows and their mappings (scripts/regenerate/jvm-rows.sh).

A tabular row is a records.proto message whose every field is `optional`
(MixedRow, StringsRow, LongsRow): 20 cells, each absent or one value. This
writes the row's Java class, shootout.workload.<message> (a boxed field per
cell, null = absent, and `visit`, which feeds cell i to field i of the
aggregate), the record every reflection-based format maps by its field names.
For each IDL format whose Java classes the other jvm-* parts generate, it
writes one class in shootout.generated.rows with, per row, `to<Row>`/
`encode<Row>` (the Java row into that format's message) and `feed<Row>` (the
message into the aggregate, texts as views where the format has them), so no
row and no mapping is written by hand:

  ProtobufRows     proto3 `optional`: a cell is set only when present
  ThriftRows       `optional` fields; an f32 cell travels as a double
  FlatbuffersRows  `= null` scalars and absent strings (the codec forces defaults)
  SbeRows          the Presence20 bitset, every numeric cell in its slot (0 when
                   absent), every text cell as var data (empty when absent), in
                   iex-sbe.xml's order

Usage: python3 jvm-rows.py REPO OUT_DIR WORKLOAD_DIR (Python 3 standard library only): the
mappings into OUT_DIR, the row classes into WORKLOAD_DIR.
"""

import re
import sys
from pathlib import Path

PROTO = "schemas/records/records.proto"
SBE = "schemas/iex/iex-sbe.xml"
PACKAGE = "shootout.generated.rows"

# records.proto's cell types: the kind of aggregate call each takes, the Java zero SBE writes for an absent
# one, and the boxed Java type a row holds it in.
TYPES = {
    "string": ("text", None, "String"),
    "double": ("f64", "0.0", "Double"),
    "float": ("f32", "0f", "Float"),
    "int64": ("int", "0L", "Long"),
    "int32": ("int", "0", "Integer"),
}


def rows(proto_text):
    """{message: [(cell, type)]} for every message whose fields are all `optional`, in field order."""
    out = {}
    for name, body in re.findall(r"^message (\w+) \{\n(.*?)^\}", proto_text, re.M | re.S):
        fields = re.findall(r"^\s*(?:(\w+) )?(\w+) (\w+) = \d+;", body, re.M)
        if fields and all(label == "optional" for label, _, _ in fields):
            for _, type_, cell in fields:
                if type_ not in TYPES:
                    sys.exit(f"jvm-rows: {PROTO}: {name}.{cell} is a {type_}, not a cell type ({', '.join(TYPES)})")
            out[name] = [(cell, type_) for _, type_, cell in fields]
    if not out:
        sys.exit(f"jvm-rows: {PROTO} has no message of `optional` fields")
    return out


def sbe_layout(xml_text, row, cells):
    """The presence set's type and the row's cells in the SBE message's order (fixed fields, then var data)."""
    block = re.search(rf'<sbe:message name="{row}".*?</sbe:message>', xml_text, re.S)
    if not block:
        sys.exit(f"jvm-rows: {SBE} has no message {row}")
    order, presence = [], None
    for _, name, type_ in re.findall(r'<(field|data) name="(\w+)"[^>]*?type="(\w+)"', block.group(0)):
        if name == "present":
            presence = type_
        else:
            order.append(name)
    if presence is None or sorted(order) != sorted(cell for cell, _ in cells):
        sys.exit(f"jvm-rows: {SBE}: {row} must have a `present` set and the cells of {PROTO}'s {row}")
    return presence, order


def cap(name):
    return name[0].upper() + name[1:]


def kind(type_):
    return TYPES[type_][0]


def sink(type_, index, value):
    """The aggregate call for a cell of type_ read as value (an f32 widened first)."""
    return {
        "text": f"s.text({index}, {value});",
        "f64": f"s.f({index}, {value});",
        "f32": f"s.f({index}, (double) {value});",
        "int": f"s.i({index}, {value});",
    }[kind(type_)]


def when(condition, *body):
    return [f"if ({condition}) {{", *("    " + line for line in body), "}"]


def method(signature, lines):
    return [f"public static {signature} {{", *("    " + line for line in lines), "}", ""]


def protobuf(row, cells):
    message = f"Records.{row}"
    to = [f"{message}.Builder b = {message}.newBuilder();"]
    feed = ["s.record();"]
    for i, (cell, type_) in enumerate(cells):
        to += when(f"r.{cell} != null", f"b.set{cap(cell)}(r.{cell});")
        feed += when(f"m.has{cap(cell)}()", sink(type_, i, f"m.get{cap(cell)}()"))
    to.append("return b.build();")
    return (method(f"{message} to{row}(shootout.workload.{row} r)", to)
            + method(f"void feed{row}({message} m, FieldSink s)", feed))


def thrift(row, cells):
    to = [f"{row} t = new {row}();"]
    feed = ["s.record();"]
    for i, (cell, type_) in enumerate(cells):
        to += when(f"r.{cell} != null", f"t.set{cap(cell)}(r.{cell});")
        value = f"m.get{cap(cell)}()"
        if kind(type_) == "f32":
            value = f"ThriftCodec.f32({value})"
        feed += when(f"m.isSet{cap(cell)}()", sink(type_, i, value))
    to.append("return t;")
    return (method(f"{row} to{row}(shootout.workload.{row} r)", to)
            + method(f"void feed{row}({row} m, FieldSink s) throws TException", feed))


def flatbuffers(row, cells):
    to = [f"int s{i} = r.{cell} == null ? 0 : b.createString(r.{cell});" for i, (cell, type_) in enumerate(cells) if kind(type_) == "text"]
    to.append(f"{row}.start{row}(b);")
    feed = [f"{row} m = {row}.getRootAs{row}(bb);", "s.record();"]
    for i, (cell, type_) in enumerate(cells):
        if kind(type_) == "text":
            to += when(f"s{i} != 0", f"{row}.add{cap(cell)}(b, s{i});")
            feed.append(f"ByteBuffer v{i} = m.{cell}AsByteBuffer();")
            feed += when(f"v{i} != null", f"s.utf8({i}, v{i});")
        else:
            to += when(f"r.{cell} != null", f"{row}.add{cap(cell)}(b, r.{cell});")
            feed += when(f"m.has{cap(cell)}()", sink(type_, i, f"m.{cell}()"))
    to.append(f"return {row}.end{row}(b);")
    return (method(f"int to{row}(FlatBufferBuilder b, shootout.workload.{row} r)", to)
            + method(f"void feed{row}(ByteBuffer bb, FieldSink s)", feed))


def sbe(row, cells, presence, order):
    index = {cell: i for i, (cell, _) in enumerate(cells)}
    types = dict(cells)
    encode = [f"{row}Encoder e = new {row}Encoder().wrapAndApplyHeader(out, 0, header);",
              f"{presence}Encoder p = e.present().clear();"]
    encode += [f"p.{cell}(r.{cell} != null);" for cell, _ in cells]
    feed = [f"{row}Decoder d = new {row}Decoder().wrapAndApplyHeader(in, 0, header);", "s.record();",
            f"{presence}Decoder p = d.present();"]
    for cell in order:
        type_, i = types[cell], index[cell]
        if kind(type_) == "text":
            encode.append(f'e.{cell}(r.{cell} == null ? "" : r.{cell});')
            feed.append(f"d.wrap{cap(cell)}(view);")
            feed += when(f"p.{cell}()", f"s.utf8({i}, view.byteArray(), view.wrapAdjustment(), view.capacity());")
        else:
            encode.append(f"e.{cell}(r.{cell} == null ? {TYPES[type_][1]} : r.{cell});")
            feed += when(f"p.{cell}()", sink(type_, i, f"d.{cell}()"))
    encode.append("return MessageHeaderEncoder.ENCODED_LENGTH + e.encodedLength();")
    feed.append("return d.limit();")
    return (method(f"int encode{row}(MutableDirectBuffer out, MessageHeaderEncoder header, shootout.workload.{row} r)", encode)
            + method(f"int feed{row}(DirectBuffer in, MessageHeaderDecoder header, UnsafeBuffer view, FieldSink s)", feed))


def workload_row(row, cells):
    """The row's class in shootout.workload: a boxed field per cell and its visit (the FieldSink
    overloads of boxed values skip a null cell)."""
    workload = row.removesuffix("Row").lower()
    visit = {"text": "s.text({i}, {cell}, true);", "f64": "s.f({i}, {cell});", "f32": "s.f({i}, {cell});", "int": "s.i({i}, {cell});"}
    lines = [header(PROTO), "package shootout.workload;", "", "import java.io.Serializable;", "", "/**",
             f" * A row of the {workload} tabular workload (crates/shootout/src/workload/tabular/mod.rs):",
             f" * {len(cells)} optional cells {cells[0][0]}..{cells[-1][0]}, null = absent; a present cell is one value of its field.",
             " */", f"public final class {row} implements Serializable {{",
             "    private static final long serialVersionUID = 1L;", ""]
    lines += [f"    public {TYPES[type_][2]} {cell};" for cell, type_ in cells]
    lines += ["", "    public void visit(FieldSink s) {", "        s.record();"]
    lines += ["        " + visit[kind(type_)].format(i=i, cell=cell) for i, (cell, type_) in enumerate(cells)]
    return "\n".join(lines + ["    }", "}", ""])


def header(sources):
    return f"// Code generated by scripts/regenerate.sh from {sources} with scripts/regenerate/jvm-rows.py. DO NOT EDIT."


def java_class(name, sources, doc, imports, body):
    lines = [header(sources), f"package {PACKAGE};", ""]
    lines += [f"import {i};" for i in sorted(imports)]
    lines += ["", f"/** {doc} */", f"public final class {name} {{", f"    private {name}() {{", "    }", ""]
    lines += [("    " + line) if line else "" for line in body]
    while lines[-1] == "":
        lines.pop()
    return "\n".join(lines + ["}", ""])


def main():
    repo, out, workload = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    tables = rows((repo / PROTO).read_text())
    sbe_text = (repo / SBE).read_text()
    names = list(tables)
    files = {
        "ProtobufRows": java_class(
            "ProtobufRows", PROTO,
            "The tabular rows to and from their Protocol Buffers messages: a cell is set only when present (proto3 `optional`).",
            ["shootout.generated.protobuf.records.Records", "shootout.workload.FieldSink"],
            [line for row in names for line in protobuf(row, tables[row])]),
        "ThriftRows": java_class(
            "ThriftRows", PROTO,
            "The tabular rows to and from their Thrift structs: a cell is set only when present (`optional`); an f32 travels as a double.",
            ["org.apache.thrift.TException", "shootout.formats.thrift.ThriftCodec", "shootout.workload.FieldSink"]
            + [f"shootout.generated.thrift.records.{row}" for row in names],
            [line for row in names for line in thrift(row, tables[row])]),
        "FlatbuffersRows": java_class(
            "FlatbuffersRows", PROTO,
            "The tabular rows to and from their FlatBuffers tables: a cell is written only when present "
            "(`= null` scalars, absent strings); read in place, texts as views of the buffer.",
            ["com.google.flatbuffers.FlatBufferBuilder", "java.nio.ByteBuffer", "shootout.workload.FieldSink"]
            + [f"shootout.generated.flatbuffers.shootout.records.{row}" for row in names],
            [line for row in names for line in flatbuffers(row, tables[row])]),
    }
    sbe_body, sbe_imports = [], {"org.agrona.DirectBuffer", "org.agrona.MutableDirectBuffer", "org.agrona.concurrent.UnsafeBuffer",
                                 "shootout.generated.sbe.MessageHeaderDecoder", "shootout.generated.sbe.MessageHeaderEncoder",
                                 "shootout.workload.FieldSink"}
    for row in names:
        presence, order = sbe_layout(sbe_text, row, tables[row])
        sbe_body += sbe(row, tables[row], presence, order)
        sbe_imports |= {f"shootout.generated.sbe.{t}{side}" for t in (row, presence) for side in ("Encoder", "Decoder")}
    files["SbeRows"] = java_class(
        "SbeRows", f"{PROTO} and {SBE}",
        "The tabular rows to and from SBE: presence in the bitset, every numeric cell in its slot (0 when absent), "
        "every text cell as var data (empty when absent), in the schema's order; texts read as views.",
        sbe_imports, sbe_body)
    out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (out / f"{name}.java").write_text(text)
    for row in names:
        (workload / f"{row}.java").write_text(workload_row(row, tables[row]))


main()
