package thrift

import (
	"fmt"

	"shootout/codec"
	"shootout/generated/thrift/iex"
	"shootout/workload"
)

// iexCodec keeps one Thrift message (and both bodies) per position, so
// encoding allocates nothing once the largest packet has been seen.
type iexCodec struct {
	t      *transport
	out    iex.MultiMessage
	pool   []*iex.Message
	bodies []iex.Body
	trades []iex.Trade
	levels []iex.LevelUpdate
	in     iex.MultiMessage
}

func IexBinary() codec.Codec[workload.MultiMessage, *workload.IexSink] {
	return &iexCodec{t: newTransport(binary)}
}

func IexCompact() codec.Codec[workload.MultiMessage, *workload.IexSink] {
	return &iexCodec{t: newTransport(compact)}
}

func (c *iexCodec) Encode(stream []byte, m *workload.MultiMessage) ([]byte, error) {
	for len(c.pool) < len(m.Messages) {
		c.pool = append(c.pool, &iex.Message{})
		c.bodies = append(c.bodies, iex.Body{})
		c.trades = append(c.trades, iex.Trade{})
		c.levels = append(c.levels, iex.LevelUpdate{})
	}
	c.out.SeqNo, c.out.Messages = int64(m.SeqNo), c.pool[:len(m.Messages)]
	for i := range m.Messages {
		msg, tm, body := &m.Messages[i], c.pool[i], &c.bodies[i]
		tm.Ts, tm.Symbol, tm.Body = msg.TS, msg.Symbol, body
		*body = iex.Body{}
		if msg.Kind == workload.Trade {
			c.trades[i] = iex.Trade{Price: int64(msg.Price), Size: int32(msg.Size)}
			body.Trade = &c.trades[i]
		} else {
			c.levels[i] = iex.LevelUpdate{Price: int64(msg.Price), Size: int32(msg.Size), Flags: int8(msg.Flags), Side: iex.Side(msg.Side)}
			body.LevelUpdate = &c.levels[i]
		}
	}
	return c.t.write(stream, c.out.Write)
}

func (c *iexCodec) Decode(stream []byte, a *workload.IexSink) (int, error) {
	c.in = iex.MultiMessage{}
	n, err := c.t.read(stream, c.in.Read)
	if err != nil {
		return 0, err
	}
	a.Packet(uint64(c.in.SeqNo), len(c.in.Messages))
	for _, m := range c.in.Messages {
		switch b := m.Body; {
		case b != nil && b.Trade != nil && b.LevelUpdate == nil:
			a.Trade(m.Ts, []byte(m.Symbol), uint64(b.Trade.Price), uint32(b.Trade.Size))
		case b != nil && b.LevelUpdate != nil && b.Trade == nil:
			l := b.LevelUpdate
			a.LevelUpdate(m.Ts, []byte(m.Symbol), workload.Side(l.Side), uint8(l.Flags), uint64(l.Price), uint32(l.Size))
		default:
			return 0, fmt.Errorf("thrift: a Body union must hold exactly one of trade, level_update")
		}
	}
	return n, nil
}
