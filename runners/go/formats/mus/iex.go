package mus

import (
	"fmt"

	"shootout/workload"
)

// A message is its timestamp, symbol and kind (a byte: workload.Trade or
// workload.LevelUpdate), then its body: a trade's price and size, a level
// update's price, size, flags and side (a byte: workload.Buy or
// workload.Sell). MUS has no union: the kind byte is this codec's.

func writeIex(o *out, m *workload.MultiMessage) {
	o.uint64(m.SeqNo)
	o.length(len(m.Messages))
	for i := range m.Messages {
		msg := &m.Messages[i]
		o.int64(msg.TS)
		o.string(msg.Symbol)
		o.uint8(uint8(msg.Kind))
		o.uint64(msg.Price)
		o.uint32(msg.Size)
		if msg.Kind == workload.LevelUpdate {
			o.uint8(msg.Flags)
			o.uint8(uint8(msg.Side))
		}
	}
}

func readIex(f *in, m *workload.MultiMessage) {
	m.SeqNo = f.uint64()
	m.Messages = m.Messages[:0]
	for range f.length() {
		msg := workload.Message{TS: f.int64(), Symbol: f.string(), Kind: workload.Kind(f.uint8())}
		msg.Price, msg.Size = f.uint64(), f.uint32()
		switch msg.Kind {
		case workload.Trade:
		case workload.LevelUpdate:
			msg.Flags, msg.Side = f.uint8(), workload.Side(f.uint8())
			if msg.Side != workload.Buy && msg.Side != workload.Sell && f.err == nil {
				f.err = fmt.Errorf("mus: side %d is neither buy nor sell", msg.Side)
			}
		default:
			if f.err == nil {
				f.err = fmt.Errorf("mus: message kind %d is neither a trade nor a level update", msg.Kind)
			}
		}
		m.Messages = append(m.Messages, msg)
	}
}
