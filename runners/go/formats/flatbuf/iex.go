package flatbuf

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"shootout/codec"
	"shootout/generated/flatbuffers/shootout/iex"
	"shootout/workload"
)

var (
	dataStruct  = field{kind: inline, size: 16} // TradeData and LevelUpdateData, padded
	bodyFields  = map[uint8][]field{uint8(iex.BodyTrade): {dataStruct}, uint8(iex.BodyLevelUpdate): {dataStruct}}
	iexMessage  = []field{{kind: inline, size: 8}, {kind: str}, {kind: unionType}, {kind: unionValue, union: bodyFields}}
	multiFields = []field{{kind: inline, size: 8}, {kind: tables, fields: iexMessage}}
)

type iexCodec struct {
	b       *flatbuffers.Builder
	offsets []flatbuffers.UOffsetT
}

func IexInPlace() codec.Codec[workload.MultiMessage, *workload.IexSink] {
	return &iexCodec{b: flatbuffers.NewBuilder(1024)}
}

func (c *iexCodec) Encode(stream []byte, m *workload.MultiMessage) ([]byte, error) {
	b := c.b
	b.Reset()
	// Children first, as FlatBuffers builds bottom-up.
	c.offsets = c.offsets[:0]
	for i := range m.Messages {
		msg := &m.Messages[i]
		sym := b.CreateString(msg.Symbol)
		var body flatbuffers.UOffsetT
		kind := iex.BodyTrade
		if msg.Kind == workload.Trade {
			iex.TradeStart(b)
			iex.TradeAddData(b, iex.CreateTradeData(b, msg.Price, msg.Size))
			body = iex.TradeEnd(b)
		} else {
			kind = iex.BodyLevelUpdate
			iex.LevelUpdateStart(b)
			iex.LevelUpdateAddData(b, iex.CreateLevelUpdateData(b, msg.Price, msg.Size, msg.Flags, iex.Side(msg.Side)))
			body = iex.LevelUpdateEnd(b)
		}
		iex.MessageStart(b)
		iex.MessageAddTs(b, msg.TS)
		iex.MessageAddSymbol(b, sym)
		iex.MessageAddBodyType(b, kind)
		iex.MessageAddBody(b, body)
		c.offsets = append(c.offsets, iex.MessageEnd(b))
	}
	iex.MultiMessageStartMessagesVector(b, len(c.offsets))
	for i := len(c.offsets) - 1; i >= 0; i-- {
		b.PrependUOffsetT(c.offsets[i])
	}
	vec := b.EndVector(len(c.offsets))
	iex.MultiMessageStart(b)
	iex.MultiMessageAddSeqNo(b, m.SeqNo)
	iex.MultiMessageAddMessages(b, vec)
	b.FinishSizePrefixed(iex.MultiMessageEnd(b))
	return append(stream, b.FinishedBytes()...), nil
}

func (c *iexCodec) Decode(stream []byte, a *workload.IexSink) (int, error) {
	buf, pos, used, err := root(stream)
	if err != nil {
		return 0, err
	}
	if err := verifyTable(buf, pos, multiFields); err != nil {
		return 0, err
	}
	var (
		mm    iex.MultiMessage
		m     iex.Message
		tab   flatbuffers.Table
		trade iex.Trade
		level iex.LevelUpdate
		td    iex.TradeData
		ld    iex.LevelUpdateData
	)
	mm.Init(buf, flatbuffers.UOffsetT(pos))
	n := mm.MessagesLength()
	a.Packet(mm.SeqNo(), n)
	for i := range n {
		mm.Messages(&m, i)
		if !m.Body(&tab) {
			return 0, errNoBody
		}
		switch m.BodyType() {
		case iex.BodyTrade:
			trade.Init(tab.Bytes, tab.Pos)
			if trade.Data(&td) == nil {
				return 0, errNoBody
			}
			a.Trade(m.Ts(), m.Symbol(), td.Price(), td.Size())
		case iex.BodyLevelUpdate:
			level.Init(tab.Bytes, tab.Pos)
			if level.Data(&ld) == nil {
				return 0, errNoBody
			}
			a.LevelUpdate(m.Ts(), m.Symbol(), workload.Side(ld.Side()), ld.Flags(), ld.Price(), ld.Size())
		}
	}
	return used, nil
}
