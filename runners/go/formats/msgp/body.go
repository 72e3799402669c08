package msgp

import (
	"fmt"

	"github.com/tinylib/msgp/msgp"

	"shootout/workload"
)

// body is serde's externally tagged enum, as rmp-serde writes it: a map of
// one entry, the variant's name to its struct. msgp has no sum type, so
// these methods are written by hand around the variants' generated ones;
// both variants are kept by value so decoding allocates nothing.
type body struct {
	variant     variant
	trade       trade
	levelUpdate levelUpdate
}

type variant uint8

const (
	// noVariant is a zeroed body's: a message without a body decodes to it,
	// and the codec refuses it.
	noVariant variant = iota
	tradeVariant
	levelUpdateVariant
)

func (b *body) MarshalMsg(o []byte) ([]byte, error) {
	o = msgp.AppendMapHeader(o, 1)
	switch b.variant {
	case tradeVariant:
		return b.trade.MarshalMsg(msgp.AppendString(o, "Trade"))
	case levelUpdateVariant:
		return b.levelUpdate.MarshalMsg(msgp.AppendString(o, "LevelUpdate"))
	}
	return o, fmt.Errorf("body holds no variant")
}

// UnmarshalMsg takes a map of exactly one entry, so a body with neither
// variant or both is an error.
func (b *body) UnmarshalMsg(bts []byte) ([]byte, error) {
	entries, bts, err := msgp.ReadMapHeaderBytes(bts)
	if err != nil {
		return bts, msgp.WrapError(err, "body")
	}
	if entries != 1 {
		return bts, fmt.Errorf("body: a map of %d entries, not the one of a Trade or LevelUpdate variant", entries)
	}
	name, bts, err := msgp.ReadMapKeyZC(bts)
	if err != nil {
		return bts, msgp.WrapError(err, "body")
	}
	switch string(name) {
	case "Trade":
		b.variant = tradeVariant
		return b.trade.UnmarshalMsg(bts)
	case "LevelUpdate":
		b.variant = levelUpdateVariant
		return b.levelUpdate.UnmarshalMsg(bts)
	}
	return bts, fmt.Errorf("body: unknown variant %q", name)
}

func (b *body) Msgsize() int {
	// A one-entry map's header, the longer name and the larger variant.
	return msgp.MapHeaderSize + msgp.StringPrefixSize + len("LevelUpdate") + max(b.trade.Msgsize(), b.levelUpdate.Msgsize())
}

// side is serde's unit enum: its variant's name as a string.
type side workload.Side

func (s side) MarshalMsg(o []byte) ([]byte, error) {
	if workload.Side(s) == workload.Buy {
		return msgp.AppendString(o, "Buy"), nil
	}
	return msgp.AppendString(o, "Sell"), nil
}

func (s *side) UnmarshalMsg(bts []byte) ([]byte, error) {
	name, rest, err := msgp.ReadStringZC(bts)
	if err != nil {
		return bts, msgp.WrapError(err, "side")
	}
	switch string(name) {
	case "Buy":
		*s = side(workload.Buy)
	case "Sell":
		*s = side(workload.Sell)
	default:
		return bts, fmt.Errorf("side %q is neither Buy nor Sell", name)
	}
	return rest, nil
}

func (s side) Msgsize() int { return msgp.StringPrefixSize + len("Sell") }
