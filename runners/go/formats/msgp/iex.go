package msgp

import (
	"fmt"

	"github.com/tinylib/msgp/msgp"

	"shootout/codec"
	"shootout/workload"
)

type iexCodec struct{ out, in multiMsg }

func Iex() codec.Codec[workload.MultiMessage, *workload.IexSink] { return &iexCodec{} }

func (c *iexCodec) Encode(stream []byte, m *workload.MultiMessage) ([]byte, error) {
	c.out.SeqNo, c.out.Messages = m.SeqNo, c.out.Messages[:0]
	for _, msg := range m.Messages {
		out := message{TS: msg.TS, Symbol: msg.Symbol}
		if msg.Kind == workload.Trade {
			out.Body.variant, out.Body.trade = tradeVariant, trade{Price: msg.Price, Size: msg.Size}
		} else {
			out.Body.variant = levelUpdateVariant
			out.Body.levelUpdate = levelUpdate{Price: msg.Price, Size: msg.Size, Flags: msg.Flags, Side: side(msg.Side)}
		}
		c.out.Messages = append(c.out.Messages, out)
	}
	return c.out.MarshalMsg(stream)
}

func (c *iexCodec) Decode(stream []byte, a *workload.IexSink) (int, error) {
	// The generated decoder sizes the message slice by the count the bytes
	// claim; walking the value first (msgp.Skip allocates nothing) bounds it
	// by the bytes actually there.
	rest, err := msgp.Skip(stream)
	if err != nil {
		return 0, err
	}
	// Zeroed, not only truncated: UnmarshalMsg decodes into the slice's old
	// elements, which would keep a field the bytes lack.
	all := c.in.Messages[:cap(c.in.Messages)]
	clear(all)
	c.in = multiMsg{Messages: all[:0]}
	if _, err := c.in.UnmarshalMsg(stream[:len(stream)-len(rest)]); err != nil {
		return 0, err
	}
	for i := range c.in.Messages {
		if c.in.Messages[i].Body.variant == noVariant {
			return 0, fmt.Errorf("message %d has no body", i)
		}
	}
	a.Packet(c.in.SeqNo, len(c.in.Messages))
	for i := range c.in.Messages {
		m := &c.in.Messages[i]
		if m.Body.variant == tradeVariant {
			t := &m.Body.trade
			a.Trade(m.TS, []byte(m.Symbol), t.Price, t.Size)
		} else {
			l := &m.Body.levelUpdate
			a.LevelUpdate(m.TS, []byte(m.Symbol), workload.Side(l.Side), l.Flags, l.Price, l.Size)
		}
	}
	return len(stream) - len(rest), nil
}
