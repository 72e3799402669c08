package sbe

import (
	"bytes"
	"fmt"

	"shootout/codec"
	sbe "shootout/generated/sbe/iex_sbe"
	"shootout/workload"
)

type iexCodec struct {
	messages[sbe.MultiMessage, *sbe.MultiMessage]
}

func Iex() codec.Codec[workload.MultiMessage, *workload.IexSink] {
	var entry sbe.MultiMessageMessages
	return &iexCodec{newMessages[sbe.MultiMessage]([]group{{block: uint16(entry.SbeBlockLength())}}, 0)}
}

func (c *iexCodec) Encode(stream []byte, m *workload.MultiMessage) ([]byte, error) {
	r := &c.enc
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
	return c.write(stream)
}

func (c *iexCodec) Decode(stream []byte, a *workload.IexSink) (int, error) {
	n, err := c.read(stream)
	if err != nil {
		return 0, err
	}
	r := &c.rd
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
