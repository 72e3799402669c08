package sbe

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"shootout/codec"
	sbe "shootout/generated/sbe/iex_sbe"
	"shootout/workload"
)

// layout is what a message holds after its header: a fixed block, repeating
// groups in order (each entry a block and var-data fields), then var-data
// fields. walk checks every length against the bytes left before the
// generated decoder trusts them.
type layout struct {
	template, schema, block uint16
	groups                  []group
	varData                 int
}

type group struct {
	block   uint16
	varData int
}

func walk(b []byte, l layout) (int, error) {
	le := binary.LittleEndian
	if len(b) < 8 {
		return 0, fmt.Errorf("sbe: %d bytes cannot hold a message header", len(b))
	}
	if le.Uint16(b[2:]) != l.template || le.Uint16(b[4:]) != l.schema || le.Uint16(b) != l.block {
		return 0, fmt.Errorf("sbe: header says template %d, schema %d, block %d; expected %d, %d, %d",
			le.Uint16(b[2:]), le.Uint16(b[4:]), le.Uint16(b), l.template, l.schema, l.block)
	}
	at := uint64(8) + uint64(l.block)
	need := func(n uint64) error {
		if at+n > uint64(len(b)) {
			return fmt.Errorf("sbe: %d bytes needed at %d of %d", n, at, len(b))
		}
		return nil
	}
	data := func(count int) error {
		for range count {
			if err := need(4); err != nil {
				return err
			}
			at += 4 + uint64(le.Uint32(b[at:]))
		}
		return need(0)
	}
	for _, g := range l.groups {
		if err := need(4); err != nil {
			return 0, err
		}
		block, n := le.Uint16(b[at:]), int(le.Uint16(b[at+2:]))
		if block != g.block {
			return 0, fmt.Errorf("sbe: group entries of %d bytes, expected %d", block, g.block)
		}
		at += 4
		for range n {
			at += uint64(block)
			if err := data(g.varData); err != nil {
				return 0, err
			}
		}
	}
	if err := data(l.varData); err != nil {
		return 0, err
	}
	return int(at), nil
}

// message is a generated message type.
type message[M any] interface {
	*M
	Encode(*sbe.SbeGoMarshaller, io.Writer, bool) error
	Decode(*sbe.SbeGoMarshaller, io.Reader, uint16, uint16, bool) error
	SbeBlockLength() uint16
	SbeTemplateId() uint16
	SbeSchemaId() uint16
	SbeSchemaVersion() uint16
}

// messages writes and reads messages of one type with their header, through
// a reused marshaller, buffers and message each way.
type messages[M any, P message[M]] struct {
	m       *sbe.SbeGoMarshaller
	layout  layout
	out     codec.Appender
	in      bytes.Reader
	hdr     sbe.MessageHeader
	enc, rd M
}

// newMessages reads messages whose fixed block is followed by groups, then
// varData var-data fields.
func newMessages[M any, P message[M]](groups []group, varData int) messages[M, P] {
	m := P(new(M))
	return messages[M, P]{m: sbe.NewSbeGoMarshaller(),
		layout: layout{template: m.SbeTemplateId(), schema: m.SbeSchemaId(), block: m.SbeBlockLength(), groups: groups, varData: varData}}
}

// write appends the header and the message in enc to stream.
func (c *messages[M, P]) write(stream []byte) ([]byte, error) {
	m := P(&c.enc)
	hdr := sbe.MessageHeader{BlockLength: m.SbeBlockLength(), TemplateId: m.SbeTemplateId(), SchemaId: m.SbeSchemaId(), Version: m.SbeSchemaVersion()}
	c.out.B = stream
	if err := hdr.Encode(c.m, &c.out); err != nil {
		return stream, err
	}
	if err := m.Encode(c.m, &c.out, true); err != nil {
		return stream, err
	}
	return c.out.B, nil
}

// read decodes the message at the start of stream into rd, its lengths
// walked first, and returns the bytes it takes.
func (c *messages[M, P]) read(stream []byte) (int, error) {
	n, err := walk(stream, c.layout)
	if err != nil {
		return 0, err
	}
	c.in.Reset(stream[:n])
	if err := c.hdr.Decode(c.m, &c.in, 0); err != nil {
		return 0, err
	}
	if err := P(&c.rd).Decode(c.m, &c.in, c.hdr.Version, c.hdr.BlockLength, true); err != nil {
		return 0, err
	}
	return n, nil
}

// fieldCodec serves a record-shaped workload: to fills the reused outgoing
// message, from feeds the reused decoded one to the sink.
type fieldCodec[R, M any, P message[M]] struct {
	messages[M, P]
	to   func(*R, P)
	from func(P, *workload.FieldSink)
}

// newFieldCodec is the codec of a record-shaped message whose fixed block is
// followed by groups, then varData var-data fields.
func newFieldCodec[R, M any, P message[M]](groups []group, varData int, to func(*R, P), from func(P, *workload.FieldSink)) codec.Codec[R, *workload.FieldSink] {
	return &fieldCodec[R, M, P]{messages: newMessages[M, P](groups, varData), to: to, from: from}
}

func (c *fieldCodec[R, M, P]) Encode(stream []byte, r *R) ([]byte, error) {
	c.to(r, &c.enc)
	return c.write(stream)
}

func (c *fieldCodec[R, M, P]) Decode(stream []byte, s *workload.FieldSink) (int, error) {
	n, err := c.read(stream)
	if err != nil {
		return 0, err
	}
	c.from(&c.rd, s)
	return n, nil
}

func Sql() codec.Codec[workload.SqlRequest, *workload.FieldSink] {
	return newFieldCodec([]group{{block: 8}}, 1,
		func(r *workload.SqlRequest, m *sbe.SqlRequest) {
			m.Query, m.Args = append(m.Query[:0], r.Query...), m.Args[:0]
			for _, a := range r.Args {
				m.Args = append(m.Args, sbe.SqlRequestArgs{Value: a})
			}
		},
		func(m *sbe.SqlRequest, s *workload.FieldSink) {
			s.Record()
			s.Text(0, m.Query)
			for _, a := range m.Args {
				s.Int(1, a.Value)
			}
		})
}

// textEntry is a generated group entry of one var-data text (a list of
// strings in the schema).
type textEntry interface{ ~struct{ Value []uint8 } }

// setTexts writes texts into group, one entry each, reusing the entries and
// their buffers.
func setTexts[E textEntry](group []E, texts []string) []E {
	if cap(group) < len(texts) {
		group = make([]E, len(texts))
	}
	group = group[:len(texts)]
	for i, t := range texts {
		// Go has no field access through a type parameter: the entry is
		// read as its struct type, then rebuilt.
		buf := struct{ Value []uint8 }(group[i]).Value
		group[i] = E{Value: append(buf[:0], t...)}
	}
	return group
}

func sbeBool(b bool) sbe.BooleanTypeEnum {
	if b {
		return sbe.BooleanType.True
	}
	return sbe.BooleanType.False
}

func Primitives() codec.Codec[workload.Primitives, *workload.FieldSink] {
	return newFieldCodec([]group{{block: 4}, {block: 8}, {block: 8}, {block: 1}, {block: 0, varData: 1}}, 0,
		func(r *workload.Primitives, m *sbe.Primitives) {
			m.Ints, m.Longs, m.Doubles, m.Booleans = m.Ints[:0], m.Longs[:0], m.Doubles[:0], m.Booleans[:0]
			for _, v := range r.Ints {
				m.Ints = append(m.Ints, sbe.PrimitivesInts{Value: v})
			}
			for _, v := range r.Longs {
				m.Longs = append(m.Longs, sbe.PrimitivesLongs{Value: v})
			}
			for _, v := range r.Doubles {
				m.Doubles = append(m.Doubles, sbe.PrimitivesDoubles{Value: v})
			}
			for _, v := range r.Booleans {
				m.Booleans = append(m.Booleans, sbe.PrimitivesBooleans{Value: sbeBool(v)})
			}
			m.Strings = setTexts(m.Strings, r.Strings)
		},
		func(m *sbe.Primitives, s *workload.FieldSink) {
			s.Record()
			for _, v := range m.Ints {
				s.Int(0, int64(v.Value))
			}
			for _, v := range m.Longs {
				s.Int(1, v.Value)
			}
			for _, v := range m.Doubles {
				s.Float(2, v.Value)
			}
			for _, v := range m.Booleans {
				s.Bool(3, v.Value == sbe.BooleanType.True)
			}
			for _, v := range m.Strings {
				s.Text(4, v.Value)
			}
		})
}

func Object() codec.Codec[workload.SmallObject, *workload.FieldSink] {
	return newFieldCodec([]group{{block: 0, varData: 1}}, 2,
		func(r *workload.SmallObject, m *sbe.SmallObject) {
			m.Id, m.Age, m.Score, m.Ratio, m.Active, m.Level, m.CreatedAt = r.ID, r.Age, r.Score, r.Ratio, sbeBool(r.Active), r.Level, r.CreatedAt
			m.Name, m.Email = append(m.Name[:0], r.Name...), append(m.Email[:0], r.Email...)
			m.Tags = setTexts(m.Tags, r.Tags)
		},
		func(m *sbe.SmallObject, s *workload.FieldSink) {
			s.Record()
			s.Int(0, m.Id)
			s.Text(1, m.Name)
			s.Text(2, m.Email)
			s.Int(3, int64(m.Age))
			s.Float(4, m.Score)
			s.Float(5, float64(m.Ratio))
			s.Bool(6, m.Active == sbe.BooleanType.True)
			s.Int(7, int64(m.Level))
			s.Int(8, m.CreatedAt)
			for _, t := range m.Tags {
				s.Text(9, t.Value)
			}
		})
}
