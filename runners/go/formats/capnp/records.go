package capnp

import (
	"errors"

	"capnproto.org/go/capnp/v3"

	"shootout/codec"
	"shootout/generated/capnp/records"
	"shootout/workload"
)

// fieldCodec frames any record-shaped workload: build writes a record as the
// root of a new message, read feeds the message's root to the sink in place.
type fieldCodec[R any] struct {
	framing
	build func(*capnp.Segment, *R) error
	read  func(*capnp.Message, *workload.FieldSink) error
}

func (c *fieldCodec[R]) Encode(stream []byte, r *R) ([]byte, error) {
	seg, err := c.begin()
	if err != nil {
		return stream, err
	}
	if err := c.build(seg, r); err != nil {
		return stream, err
	}
	return c.finish(stream, seg)
}

func (c *fieldCodec[R]) Decode(stream []byte, s *workload.FieldSink) (int, error) {
	msg, used, err := c.open(stream)
	if err != nil {
		return 0, err
	}
	if err := c.read(msg, s); err != nil {
		return 0, err
	}
	return used, nil
}

func both[R any](build func(*capnp.Segment, *R) error, read func(*capnp.Message, *workload.FieldSink) error) (unpacked, packed func() codec.Codec[R, *workload.FieldSink]) {
	return func() codec.Codec[R, *workload.FieldSink] { return &fieldCodec[R]{newFraming(false), build, read} },
		func() codec.Codec[R, *workload.FieldSink] { return &fieldCodec[R]{newFraming(true), build, read} }
}

func setTexts(l capnp.TextList, ss []string) error {
	for i, s := range ss {
		if err := l.Set(i, s); err != nil {
			return err
		}
	}
	return nil
}

func feedTexts(l capnp.TextList, field int, s *workload.FieldSink) error {
	for i := range l.Len() {
		b, err := l.BytesAt(i)
		if err != nil {
			return err
		}
		s.Text(field, b)
	}
	return nil
}

var SqlUnpacked, SqlPacked = both(
	func(seg *capnp.Segment, r *workload.SqlRequest) error {
		m, err := records.NewRootSqlRequest(seg)
		if err != nil {
			return err
		}
		if err := m.SetQuery(r.Query); err != nil {
			return err
		}
		args, err := m.NewArgs(int32(len(r.Args)))
		if err != nil {
			return err
		}
		for i, a := range r.Args {
			args.Set(i, a)
		}
		return nil
	},
	func(msg *capnp.Message, s *workload.FieldSink) error {
		m, err := records.ReadRootSqlRequest(msg)
		if err != nil {
			return err
		}
		q, e1 := m.QueryBytes()
		args, e2 := m.Args()
		if err := errors.Join(e1, e2); err != nil {
			return err
		}
		s.Record()
		s.Text(0, q)
		for i := range args.Len() {
			s.Int(1, args.At(i))
		}
		return nil
	})

var PrimitivesUnpacked, PrimitivesPacked = both(
	func(seg *capnp.Segment, r *workload.Primitives) error {
		m, err := records.NewRootPrimitives(seg)
		if err != nil {
			return err
		}
		ints, e1 := m.NewInts(int32(len(r.Ints)))
		longs, e2 := m.NewLongs(int32(len(r.Longs)))
		doubles, e3 := m.NewDoubles(int32(len(r.Doubles)))
		bools, e4 := m.NewBooleans(int32(len(r.Booleans)))
		strs, e5 := m.NewStrings(int32(len(r.Strings)))
		if err := errors.Join(e1, e2, e3, e4, e5); err != nil {
			return err
		}
		for i, v := range r.Ints {
			ints.Set(i, v)
		}
		for i, v := range r.Longs {
			longs.Set(i, v)
		}
		for i, v := range r.Doubles {
			doubles.Set(i, v)
		}
		for i, v := range r.Booleans {
			bools.Set(i, v)
		}
		return setTexts(strs, r.Strings)
	},
	func(msg *capnp.Message, s *workload.FieldSink) error {
		m, err := records.ReadRootPrimitives(msg)
		if err != nil {
			return err
		}
		ints, e1 := m.Ints()
		longs, e2 := m.Longs()
		doubles, e3 := m.Doubles()
		bools, e4 := m.Booleans()
		strs, e5 := m.Strings()
		if err := errors.Join(e1, e2, e3, e4, e5); err != nil {
			return err
		}
		s.Record()
		for i := range ints.Len() {
			s.Int(0, int64(ints.At(i)))
		}
		for i := range longs.Len() {
			s.Int(1, longs.At(i))
		}
		for i := range doubles.Len() {
			s.Float(2, doubles.At(i))
		}
		for i := range bools.Len() {
			s.Bool(3, bools.At(i))
		}
		return feedTexts(strs, 4, s)
	})

var ObjectUnpacked, ObjectPacked = both(
	func(seg *capnp.Segment, r *workload.SmallObject) error {
		m, err := records.NewRootSmallObject(seg)
		if err != nil {
			return err
		}
		m.SetId(r.ID)
		m.SetAge(r.Age)
		m.SetScore(r.Score)
		m.SetRatio(r.Ratio)
		m.SetActive(r.Active)
		m.SetLevel(r.Level)
		m.SetCreatedAt(r.CreatedAt)
		tags, err := m.NewTags(int32(len(r.Tags)))
		if err := errors.Join(err, m.SetName(r.Name), m.SetEmail(r.Email)); err != nil {
			return err
		}
		return setTexts(tags, r.Tags)
	},
	func(msg *capnp.Message, s *workload.FieldSink) error {
		m, err := records.ReadRootSmallObject(msg)
		if err != nil {
			return err
		}
		name, e1 := m.NameBytes()
		email, e2 := m.EmailBytes()
		tags, e3 := m.Tags()
		if err := errors.Join(e1, e2, e3); err != nil {
			return err
		}
		s.Record()
		s.Int(0, m.Id())
		s.Text(1, name)
		s.Text(2, email)
		s.Int(3, int64(m.Age()))
		s.Float(4, m.Score())
		s.Float(5, float64(m.Ratio()))
		s.Bool(6, m.Active())
		s.Int(7, int64(m.Level()))
		s.Int(8, m.CreatedAt())
		return feedTexts(tags, 9, s)
	})
