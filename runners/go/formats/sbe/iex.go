package sbe

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"shootout/codec"
	sbe "shootout/generated/sbe/iex_sbe"
	"shootout/workload"
)

type iexCodec struct {
	m       *sbe.SbeGoMarshaller
	out     codec.Appender
	in      bytes.Reader
	hdr     sbe.MessageHeader
	rec, rd sbe.MultiMessage
}

func Iex() codec.Codec[workload.MultiMessage, *workload.IexSink] {
	return &iexCodec{m: sbe.NewSbeGoMarshaller()}
}

func (c *iexCodec) Encode(stream []byte, m *workload.MultiMessage) ([]byte, error) {
	r := &c.rec
	if len(m.Messages) > 0xffff {
		return stream, fmt.Errorf("sbe: %d messages exceed a group's u16 count", len(m.Messages))
	}
	r.SeqNo = m.SeqNo
	r.Messages = r.Messages[:0]
	for i := range m.Messages {
		msg := &m.Messages[i]
		if len(msg.Symbol) > 8 {
			return stream, fmt.Errorf("sbe: symbol %q longer than 8 bytes", msg.Symbol)
		}
		e := sbe.MultiMessageMessages{Ts: msg.TS, Price: msg.Price, Size: msg.Size, Flags: msg.Flags,
			Side: sbe.Side.NullValue, BodyType: sbe.BodyType.Trade}
		// Space-padded, as on the IEX wire.
		copy(e.Symbol[:], "        ")
		copy(e.Symbol[:], msg.Symbol)
		if msg.Kind == workload.LevelUpdate {
			e.Side, e.BodyType = sbe.SideEnum(msg.Side), sbe.BodyType.LevelUpdate
		}
		r.Messages = append(r.Messages, e)
	}
	hdr := sbe.MessageHeader{BlockLength: r.SbeBlockLength(), TemplateId: r.SbeTemplateId(), SchemaId: r.SbeSchemaId(), Version: r.SbeSchemaVersion()}
	c.out.B = stream
	if err := hdr.Encode(c.m, &c.out); err != nil {
		return stream, err
	}
	if err := r.Encode(c.m, &c.out, true); err != nil {
		return stream, err
	}
	return c.out.B, nil
}

// checkIex walks the message at the start of b (header, fixed block, one
// group) and returns its length.
func checkIex(b []byte) (int, error) {
	var r sbe.MultiMessage
	var e sbe.MultiMessageMessages
	le := binary.LittleEndian
	if len(b) < 8+8+4 {
		return 0, fmt.Errorf("sbe: %d bytes cannot hold a MultiMessage", len(b))
	}
	block, template, schema := le.Uint16(b), le.Uint16(b[2:]), le.Uint16(b[4:])
	if template != r.SbeTemplateId() || schema != r.SbeSchemaId() || block != r.SbeBlockLength() {
		return 0, fmt.Errorf("sbe: header says template %d, schema %d, block %d; expected MultiMessage", template, schema, block)
	}
	groupBlock, count := le.Uint16(b[16:]), le.Uint16(b[18:])
	if uint(groupBlock) != e.SbeBlockLength() {
		return 0, fmt.Errorf("sbe: group entries of %d bytes, expected %d", groupBlock, e.SbeBlockLength())
	}
	n := 20 + int(count)*int(groupBlock)
	if n > len(b) {
		return 0, fmt.Errorf("sbe: message of %d bytes, %d left", n, len(b))
	}
	return n, nil
}

func (c *iexCodec) Decode(stream []byte, a *workload.IexSink) (int, error) {
	n, err := checkIex(stream)
	if err != nil {
		return 0, err
	}
	c.in.Reset(stream[:n])
	if err := c.hdr.Decode(c.m, &c.in, 0); err != nil {
		return 0, err
	}
	r := &c.rd
	if err := r.Decode(c.m, &c.in, c.hdr.Version, c.hdr.BlockLength, true); err != nil {
		return 0, err
	}
	a.Packet(r.SeqNo, len(r.Messages))
	for i := range r.Messages {
		e := &r.Messages[i]
		sym := bytes.TrimRight(e.Symbol[:], " ")
		switch e.BodyType {
		case sbe.BodyType.Trade:
			a.Trade(e.Ts, sym, e.Price, e.Size)
		case sbe.BodyType.LevelUpdate:
			a.LevelUpdate(e.Ts, sym, workload.Side(e.Side), e.Flags, e.Price, e.Size)
		default:
			return 0, fmt.Errorf("sbe: body type %d", e.BodyType)
		}
	}
	return n, nil
}
