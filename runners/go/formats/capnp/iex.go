package capnp

import (
	"fmt"

	"shootout/codec"
	"shootout/generated/capnp/iex"
	"shootout/workload"
)

type iexCodec struct{ framing }

func IexUnpacked() codec.Codec[workload.MultiMessage, *workload.IexSink] {
	return &iexCodec{newFraming(false)}
}

func IexPacked() codec.Codec[workload.MultiMessage, *workload.IexSink] {
	return &iexCodec{newFraming(true)}
}

func (c *iexCodec) Encode(stream []byte, m *workload.MultiMessage) ([]byte, error) {
	seg, err := c.begin()
	if err != nil {
		return stream, err
	}
	root, err := iex.NewRootMultiMessage(seg)
	if err != nil {
		return stream, err
	}
	root.SetSeqNo(m.SeqNo)
	list, err := root.NewMessages(int32(len(m.Messages)))
	if err != nil {
		return stream, err
	}
	for i := range m.Messages {
		msg, out := &m.Messages[i], list.At(i)
		out.SetTs(msg.TS)
		if err := out.SetSymbol(msg.Symbol); err != nil {
			return stream, err
		}
		if msg.Kind == workload.Trade {
			t, err := out.Body().NewTrade()
			if err != nil {
				return stream, err
			}
			t.SetPrice(msg.Price)
			t.SetSize(msg.Size)
		} else {
			l, err := out.Body().NewLevelUpdate()
			if err != nil {
				return stream, err
			}
			l.SetPrice(msg.Price)
			l.SetSize(msg.Size)
			l.SetFlags(msg.Flags)
			l.SetSide(iex.Side(msg.Side))
		}
	}
	return c.finish(stream, seg)
}

func (c *iexCodec) Decode(stream []byte, a *workload.IexSink) (int, error) {
	msg, used, err := c.open(stream)
	if err != nil {
		return 0, err
	}
	root, err := iex.ReadRootMultiMessage(msg)
	if err != nil {
		return 0, err
	}
	list, err := root.Messages()
	if err != nil {
		return 0, err
	}
	a.Packet(root.SeqNo(), list.Len())
	for i := range list.Len() {
		m := list.At(i)
		sym, err := m.SymbolBytes()
		if err != nil {
			return 0, err
		}
		switch body := m.Body(); body.Which() {
		case iex.Message_body_Which_trade:
			t, err := body.Trade()
			if err != nil {
				return 0, err
			}
			a.Trade(m.Ts(), sym, t.Price(), t.Size())
		case iex.Message_body_Which_levelUpdate:
			l, err := body.LevelUpdate()
			if err != nil {
				return 0, err
			}
			a.LevelUpdate(m.Ts(), sym, workload.Side(l.Side()), l.Flags(), l.Price(), l.Size())
		default:
			return 0, fmt.Errorf("capnp: body union discriminant %d", body.Which())
		}
	}
	return used, nil
}
