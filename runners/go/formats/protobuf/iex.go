package protobuf

import (
	"fmt"

	"shootout/codec"
	"shootout/generated/protobuf/iex"
	"shootout/workload"
)

// iexCodec keeps one pb.Message per position (and both bodies for each) so
// encoding a packet allocates nothing once the largest packet has been seen.
type iexCodec[X Marshaller] struct {
	out    iex.MultiMessage
	pool   []*iex.Message
	trades []iex.Message_Trade
	levels []iex.Message_LevelUpdate
	in     iex.MultiMessage
}

func IexWith[X Marshaller]() codec.Codec[workload.MultiMessage, *workload.IexSink] {
	return &iexCodec[X]{}
}

func (c *iexCodec[X]) Encode(stream []byte, m *workload.MultiMessage) ([]byte, error) {
	for len(c.pool) < len(m.Messages) {
		c.pool = append(c.pool, &iex.Message{})
		c.trades = append(c.trades, iex.Message_Trade{Trade: &iex.Trade{}})
		c.levels = append(c.levels, iex.Message_LevelUpdate{LevelUpdate: &iex.LevelUpdate{}})
	}
	c.out.SeqNo, c.out.Messages = m.SeqNo, c.pool[:len(m.Messages)]
	for i := range m.Messages {
		msg, pb := &m.Messages[i], c.pool[i]
		pb.Ts, pb.Symbol = msg.TS, msg.Symbol
		if msg.Kind == workload.Trade {
			t := &c.trades[i]
			t.Trade.Price, t.Trade.Size = msg.Price, msg.Size
			pb.Body = t
		} else {
			l := &c.levels[i]
			l.LevelUpdate.Price, l.LevelUpdate.Size, l.LevelUpdate.Flags, l.LevelUpdate.Side = msg.Price, msg.Size, uint32(msg.Flags), iex.Side(msg.Side)
			pb.Body = l
		}
	}
	stream, at := codec.Reserve(stream)
	var x X
	stream, err := x.Append(stream, &c.out)
	if err != nil {
		return stream[:at], err
	}
	return codec.Seal(stream, at)
}

func (c *iexCodec[X]) Decode(stream []byte, a *workload.IexSink) (int, error) {
	body, n, err := codec.Frame(stream)
	if err != nil {
		return 0, err
	}
	var x X
	if err := x.Unmarshal(body, &c.in); err != nil {
		return 0, err
	}
	a.Packet(c.in.SeqNo, len(c.in.Messages))
	for _, m := range c.in.Messages {
		switch b := m.Body.(type) {
		case *iex.Message_Trade:
			a.Trade(m.Ts, []byte(m.Symbol), b.Trade.GetPrice(), b.Trade.GetSize())
		case *iex.Message_LevelUpdate:
			l := b.LevelUpdate
			if l.GetFlags() > 0xff {
				return 0, fmt.Errorf("protobuf: flags %d do not fit a byte", l.GetFlags())
			}
			a.LevelUpdate(m.Ts, []byte(m.Symbol), workload.Side(l.GetSide()), uint8(l.GetFlags()), l.GetPrice(), l.GetSize())
		default:
			return 0, fmt.Errorf("protobuf: message without a body")
		}
	}
	return n, nil
}
