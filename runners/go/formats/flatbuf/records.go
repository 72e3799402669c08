package flatbuf

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"shootout/codec"
	"shootout/generated/flatbuffers/shootout/records"
	"shootout/workload"
)

// table frames any record-shaped workload: build writes a record into the
// reset builder and returns its root; read feeds the verified root table at
// pos to the sink.
type tableCodec[R any] struct {
	b      *flatbuffers.Builder
	fields []field
	build  func(*flatbuffers.Builder, *R) flatbuffers.UOffsetT
	read   func(buf []byte, pos flatbuffers.UOffsetT, s *workload.FieldSink)
}

func (c *tableCodec[R]) Encode(stream []byte, r *R) ([]byte, error) {
	c.b.Reset()
	c.b.FinishSizePrefixed(c.build(c.b, r))
	return append(stream, c.b.FinishedBytes()...), nil
}

func (c *tableCodec[R]) Decode(stream []byte, s *workload.FieldSink) (int, error) {
	buf, pos, used, err := root(stream)
	if err != nil {
		return 0, err
	}
	if err := verifyTable(buf, pos, c.fields); err != nil {
		return 0, err
	}
	c.read(buf, flatbuffers.UOffsetT(pos), s)
	return used, nil
}

func newTable[R any](fields []field, build func(*flatbuffers.Builder, *R) flatbuffers.UOffsetT,
	read func([]byte, flatbuffers.UOffsetT, *workload.FieldSink)) codec.Codec[R, *workload.FieldSink] {
	return &tableCodec[R]{b: flatbuffers.NewBuilder(1024), fields: fields, build: build, read: read}
}

// stringVector builds a vector of strings; offsets is the codec's scratch
// slice, kept across records (by pointer, so its grown backing array is).
func stringVector(b *flatbuffers.Builder, ss []string, offsets *[]flatbuffers.UOffsetT) flatbuffers.UOffsetT {
	o := (*offsets)[:0]
	for _, s := range ss {
		o = append(o, b.CreateString(s))
	}
	*offsets = o
	b.StartVector(4, len(o), 4)
	for i := len(o) - 1; i >= 0; i-- {
		b.PrependUOffsetT(o[i])
	}
	return b.EndVector(len(o))
}

func Sql() codec.Codec[workload.SqlRequest, *workload.FieldSink] {
	return newTable([]field{text, {kind: scalars, size: 8, required: true}},
		func(b *flatbuffers.Builder, r *workload.SqlRequest) flatbuffers.UOffsetT {
			q := b.CreateString(r.Query)
			records.SqlRequestStartArgsVector(b, len(r.Args))
			for i := len(r.Args) - 1; i >= 0; i-- {
				b.PrependInt64(r.Args[i])
			}
			args := b.EndVector(len(r.Args))
			records.SqlRequestStart(b)
			records.SqlRequestAddQuery(b, q)
			records.SqlRequestAddArgs(b, args)
			return records.SqlRequestEnd(b)
		},
		func(buf []byte, pos flatbuffers.UOffsetT, s *workload.FieldSink) {
			var t records.SqlRequest
			t.Init(buf, pos)
			s.Record()
			s.Text(0, t.Query())
			for i := range t.ArgsLength() {
				s.Int(1, t.Args(i))
			}
		})
}

func Primitives() codec.Codec[workload.Primitives, *workload.FieldSink] {
	var offsets []flatbuffers.UOffsetT
	return newTable([]field{{kind: scalars, size: 4, required: true}, {kind: scalars, size: 8, required: true},
		{kind: scalars, size: 8, required: true}, {kind: scalars, size: 1, required: true}, {kind: strs, required: true}},
		func(b *flatbuffers.Builder, r *workload.Primitives) flatbuffers.UOffsetT {
			strs := stringVector(b, r.Strings, &offsets)
			records.PrimitivesStartIntsVector(b, len(r.Ints))
			for i := len(r.Ints) - 1; i >= 0; i-- {
				b.PrependInt32(r.Ints[i])
			}
			ints := b.EndVector(len(r.Ints))
			records.PrimitivesStartLongsVector(b, len(r.Longs))
			for i := len(r.Longs) - 1; i >= 0; i-- {
				b.PrependInt64(r.Longs[i])
			}
			longs := b.EndVector(len(r.Longs))
			records.PrimitivesStartDoublesVector(b, len(r.Doubles))
			for i := len(r.Doubles) - 1; i >= 0; i-- {
				b.PrependFloat64(r.Doubles[i])
			}
			doubles := b.EndVector(len(r.Doubles))
			records.PrimitivesStartBooleansVector(b, len(r.Booleans))
			for i := len(r.Booleans) - 1; i >= 0; i-- {
				b.PrependBool(r.Booleans[i])
			}
			bools := b.EndVector(len(r.Booleans))
			records.PrimitivesStart(b)
			records.PrimitivesAddInts(b, ints)
			records.PrimitivesAddLongs(b, longs)
			records.PrimitivesAddDoubles(b, doubles)
			records.PrimitivesAddBooleans(b, bools)
			records.PrimitivesAddStrings(b, strs)
			return records.PrimitivesEnd(b)
		},
		func(buf []byte, pos flatbuffers.UOffsetT, s *workload.FieldSink) {
			var t records.Primitives
			t.Init(buf, pos)
			s.Record()
			for i := range t.IntsLength() {
				s.Int(0, int64(t.Ints(i)))
			}
			for i := range t.LongsLength() {
				s.Int(1, t.Longs(i))
			}
			for i := range t.DoublesLength() {
				s.Float(2, t.Doubles(i))
			}
			for i := range t.BooleansLength() {
				s.Bool(3, t.Booleans(i))
			}
			for i := range t.StringsLength() {
				s.Text(4, t.Strings(i))
			}
		})
}

// Object reads score and ratio, optional scalars in the schema (written
// always, so -0.0 survives), through the table by slot: the generated
// accessors return them through a pointer, one allocation each.
func Object() codec.Codec[workload.SmallObject, *workload.FieldSink] {
	var offsets []flatbuffers.UOffsetT
	return newTable([]field{long, text, text, {kind: inline, size: 4}, {kind: inline, size: 8, required: true},
		{kind: inline, size: 4, required: true}, {kind: inline, size: 1}, {kind: inline, size: 1}, long, {kind: strs, required: true}},
		func(b *flatbuffers.Builder, r *workload.SmallObject) flatbuffers.UOffsetT {
			name, email := b.CreateString(r.Name), b.CreateString(r.Email)
			tags := stringVector(b, r.Tags, &offsets)
			records.SmallObjectStart(b)
			records.SmallObjectAddId(b, r.ID)
			records.SmallObjectAddName(b, name)
			records.SmallObjectAddEmail(b, email)
			records.SmallObjectAddAge(b, r.Age)
			records.SmallObjectAddScore(b, r.Score)
			records.SmallObjectAddRatio(b, r.Ratio)
			records.SmallObjectAddActive(b, r.Active)
			records.SmallObjectAddLevel(b, r.Level)
			records.SmallObjectAddCreatedAt(b, r.CreatedAt)
			records.SmallObjectAddTags(b, tags)
			return records.SmallObjectEnd(b)
		},
		func(buf []byte, pos flatbuffers.UOffsetT, s *workload.FieldSink) {
			var t records.SmallObject
			t.Init(buf, pos)
			tab := t.Table()
			s.Record()
			s.Int(0, t.Id())
			s.Text(1, t.Name())
			s.Text(2, t.Email())
			s.Int(3, int64(t.Age()))
			s.Float(4, tab.GetFloat64(tab.Pos+flatbuffers.UOffsetT(tab.Offset(slot(4)))))
			s.Float(5, float64(tab.GetFloat32(tab.Pos+flatbuffers.UOffsetT(tab.Offset(slot(5))))))
			s.Bool(6, t.Active())
			s.Int(7, int64(t.Level()))
			s.Int(8, t.CreatedAt())
			for i := range t.TagsLength() {
				s.Text(9, t.Tags(i))
			}
		})
}

// slot is field i's vtable offset.
func slot(i int) flatbuffers.VOffsetT { return flatbuffers.VOffsetT(4 + 2*i) }
