package avro

import (
	"fmt"

	"github.com/hamba/avro/v2"

	"shootout/codec"
	schemas "shootout/generated/avro"
	"shootout/workload"
)

// The iex record as iex.avsc has it: unsigned values bit-cast to long (sizes
// widened), flags an int, the body a union of two records (an interface
// holding one of them, resolved by the registered names) and the side an
// enum (its symbol).
type (
	avMulti struct {
		SeqNo    int64       `json:"seq_no"`
		Messages []avMessage `json:"messages"`
	}
	avMessage struct {
		TS     int64  `json:"ts"`
		Symbol string `json:"symbol"`
		Body   any    `json:"body"`
	}
	avTrade struct {
		Price int64 `json:"price"`
		Size  int64 `json:"size"`
	}
	avLevel struct {
		Price int64  `json:"price"`
		Size  int64  `json:"size"`
		Flags int32  `json:"flags"`
		Side  string `json:"side"`
	}
)

func init() {
	api.Register("shootout.iex.Trade", avTrade{})
	api.Register("shootout.iex.LevelUpdate", avLevel{})
}

var sides = [2]string{"Buy", "Sell"}

type iexCodec struct {
	schema avro.Schema
	out    codec.Appender
	enc    *avro.Encoder
	rec    avMulti
	in     avMulti
}

func Iex() codec.Codec[workload.MultiMessage, *workload.IexSink] {
	c := &iexCodec{schema: avro.MustParse(schemas.Iex)}
	c.enc = api.NewEncoder(c.schema, &c.out)
	return c
}

func (c *iexCodec) Encode(stream []byte, m *workload.MultiMessage) ([]byte, error) {
	c.rec.SeqNo, c.rec.Messages = int64(m.SeqNo), c.rec.Messages[:0]
	for _, msg := range m.Messages {
		am := avMessage{TS: msg.TS, Symbol: msg.Symbol}
		if msg.Kind == workload.Trade {
			am.Body = avTrade{Price: int64(msg.Price), Size: int64(msg.Size)}
		} else {
			am.Body = avLevel{Price: int64(msg.Price), Size: int64(msg.Size), Flags: int32(msg.Flags), Side: sides[msg.Side&1]}
		}
		c.rec.Messages = append(c.rec.Messages, am)
	}
	stream, at := codec.Reserve(stream)
	c.out.B = stream
	if err := c.enc.Encode(&c.rec); err != nil {
		return c.out.B[:at], err
	}
	return codec.Seal(c.out.B, at)
}

func (c *iexCodec) Decode(stream []byte, a *workload.IexSink) (int, error) {
	body, n, err := codec.Frame(stream)
	if err != nil {
		return 0, err
	}
	c.in = avMulti{}
	if err := api.Unmarshal(c.schema, body, &c.in); err != nil {
		return 0, err
	}
	a.Packet(uint64(c.in.SeqNo), len(c.in.Messages))
	for _, m := range c.in.Messages {
		switch b := m.Body.(type) {
		case avTrade:
			a.Trade(m.TS, []byte(m.Symbol), uint64(b.Price), uint32(b.Size))
		case avLevel:
			side := workload.Buy
			if b.Side == "Sell" {
				side = workload.Sell
			}
			a.LevelUpdate(m.TS, []byte(m.Symbol), side, uint8(b.Flags), uint64(b.Price), uint32(b.Size))
		default:
			return 0, fmt.Errorf("avro: message body of type %T", m.Body)
		}
	}
	return n, nil
}
