// Package iexserde is the iex record in the shape serde gives the Rust record
// types (crates/shootout/src/workload/iex/record.rs), for the reflection
// libraries of the json, msgpack-map, msgpack-array and cbor-map wires: a
// message's body is the externally tagged enum {"Trade": {price, size}} or
// {"LevelUpdate": {price, size, flags, side}}, side the unit variant's name
// ("Buy" or "Sell"). Rust's and Java's codecs of those wires write this shape,
// so Go reads their streams and they read Go's.
//
// workload.Message is flat (Go has no sum type), so each codec copies a record
// into these wire structs to encode and feeds the sink from them on decode.
// Wire structs rather than whole-record marshal methods: encoding/json, goccy,
// sonic and fxamacker re-scan the bytes a MarshalJSON or MarshalCBOR returns and
// hand UnmarshalJSON or UnmarshalCBOR bytes they have already scanned, so a
// method per record would read every byte twice; the methods here are only on
// the two values the libraries cannot map by reflection (the enum and its unit
// variant).
package iexserde

import (
	"errors"
	"fmt"
	"slices"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"

	"shootout/codec"
	"shootout/workload"
)

type MultiMessage struct {
	SeqNo    uint64    `json:"seq_no" msgpack:"seq_no" cbor:"seq_no"`
	Messages []Message `json:"messages" msgpack:"messages" cbor:"messages"`
}

type Message struct {
	TS     int64  `json:"ts" msgpack:"ts" cbor:"ts"`
	Symbol string `json:"symbol" msgpack:"symbol" cbor:"symbol"`
	Body   Body   `json:"body" msgpack:"body" cbor:"body"`
}

// Body is serde's externally tagged enum as a map of one entry: the variant
// set is the one written, and after a decode exactly one must be set (see
// variant). JSON and CBOR map it by reflection (an unset variant is omitted);
// MessagePack through its methods below, since vmihailenco writes every field
// of a struct encoded as an array.
type Body struct {
	Trade       *Trade       `json:"Trade,omitempty" cbor:"Trade,omitempty"`
	LevelUpdate *LevelUpdate `json:"LevelUpdate,omitempty" cbor:"LevelUpdate,omitempty"`
}

type Trade struct {
	Price uint64 `json:"price" msgpack:"price" cbor:"price"`
	Size  uint32 `json:"size" msgpack:"size" cbor:"size"`
}

type LevelUpdate struct {
	Price uint64 `json:"price" msgpack:"price" cbor:"price"`
	Size  uint32 `json:"size" msgpack:"size" cbor:"size"`
	Flags uint8  `json:"flags" msgpack:"flags" cbor:"flags"`
	Side  Side   `json:"side" msgpack:"side" cbor:"side"`
}

// Side is serde's unit enum: its variant's name as a string. Every JSON
// library here and fxamacker (with TextMarshalerTextString) take it as text;
// vmihailenco would write MarshalText's bytes as MessagePack bin, so it has
// its own methods. A struct, not an integer type: fxamacker decodes a CBOR
// integer into an integer type whatever its methods, where a struct refuses
// anything but the name.
//
// Its encoding methods have pointer receivers, as every library here finds
// them on the addressable field: vmihailenco would box a copy of the value
// to call a value receiver's (an allocation per side), and would take a
// value receiver's MarshalText before a pointer receiver's EncodeMsgpack.
type Side struct{ value workload.Side }

// The names as bytes made once: MarshalText returns them without allocating,
// and the libraries copy them into their output.
var (
	buyText  = []byte("Buy")
	sellText = []byte("Sell")
)

func (s Side) String() string {
	if s.value == workload.Buy {
		return "Buy"
	}
	return "Sell"
}

func (s *Side) MarshalText() ([]byte, error) {
	if s.value == workload.Buy {
		return buyText, nil
	}
	return sellText, nil
}

// UnmarshalText and DecodeMsgpack each switch on the name themselves: a
// conversion between []byte and string allocates unless it is compared
// where it is made.
func (s *Side) UnmarshalText(text []byte) error {
	switch string(text) {
	case "Buy":
		s.value = workload.Buy
	case "Sell":
		s.value = workload.Sell
	default:
		return fmt.Errorf("side %q is neither Buy nor Sell", text)
	}
	return nil
}

func (s *Side) EncodeMsgpack(e *msgpack.Encoder) error { return e.EncodeString(s.String()) }

func (s *Side) DecodeMsgpack(d *msgpack.Decoder) error {
	name, err := d.DecodeString()
	if err != nil {
		return err
	}
	switch name {
	case "Buy":
		s.value = workload.Buy
	case "Sell":
		s.value = workload.Sell
	default:
		return fmt.Errorf("side %q is neither Buy nor Sell", name)
	}
	return nil
}

// EncodeMsgpack writes rmp-serde's enum: a map of one entry, the variant's
// name to its struct, which the encoder writes as a map or an array as it
// writes every struct.
func (b *Body) EncodeMsgpack(e *msgpack.Encoder) error {
	trade, level, err := b.variant()
	if err != nil {
		return err
	}
	if err := e.EncodeMapLen(1); err != nil {
		return err
	}
	if trade != nil {
		if err := e.EncodeString("Trade"); err != nil {
			return err
		}
		return e.Encode(trade)
	}
	if err := e.EncodeString("LevelUpdate"); err != nil {
		return err
	}
	return e.Encode(level)
}

func (b *Body) DecodeMsgpack(d *msgpack.Decoder) error {
	entries, err := d.DecodeMapLen()
	if err != nil {
		return err
	}
	if entries != 1 {
		return fmt.Errorf("body: a map of %d entries, not the one of a Trade or LevelUpdate variant", entries)
	}
	name, err := d.DecodeString()
	if err != nil {
		return err
	}
	// A nil variant would decode into a zero struct without an error.
	code, err := d.PeekCode()
	if err != nil {
		return err
	}
	if code == msgpcode.Nil {
		return fmt.Errorf("body: variant %q holds nil, not its struct", name)
	}
	switch name {
	case "Trade":
		b.Trade = &Trade{}
		return d.Decode(b.Trade)
	case "LevelUpdate":
		b.LevelUpdate = &LevelUpdate{}
		return d.Decode(b.LevelUpdate)
	}
	return fmt.Errorf("body: unknown variant %q", name)
}

var errNotOneVariant = errors.New("body must be exactly one of Trade, LevelUpdate")

// variant is the body's one variant (the other nil), or an error when it
// has none or both.
func (b *Body) variant() (*Trade, *LevelUpdate, error) {
	if (b.Trade == nil) == (b.LevelUpdate == nil) {
		return nil, nil, errNotOneVariant
	}
	return b.Trade, b.LevelUpdate, nil
}

// bodies back one message's Body pointers while encoding, so a record
// copied into the wire structs allocates nothing once the codec has seen
// its longest record.
type bodies struct {
	trade Trade
	level LevelUpdate
}

type iexCodec struct {
	lib codec.Library
	out MultiMessage
	// outBodies[i] holds out.Messages[i]'s variant.
	outBodies []bodies
	in        MultiMessage
}

// Codec is the iex codec of a reflection library (made by newLibrary) in
// serde's shape, each record behind a 4-byte length as codec.Owned frames it.
func Codec(newLibrary func() codec.Library) func() codec.Codec[workload.MultiMessage, *workload.IexSink] {
	return func() codec.Codec[workload.MultiMessage, *workload.IexSink] {
		return &iexCodec{lib: newLibrary()}
	}
}

func (c *iexCodec) Encode(stream []byte, m *workload.MultiMessage) ([]byte, error) {
	n := len(m.Messages)
	// Grown before any pointer into it is taken: growing moves the elements.
	c.outBodies = slices.Grow(c.outBodies[:0], n)[:n]
	c.out.SeqNo, c.out.Messages = m.SeqNo, slices.Grow(c.out.Messages[:0], n)[:n]
	for i := range m.Messages {
		msg, out, kept := &m.Messages[i], &c.out.Messages[i], &c.outBodies[i]
		out.TS, out.Symbol, out.Body = msg.TS, msg.Symbol, Body{}
		if msg.Kind == workload.Trade {
			kept.trade = Trade{Price: msg.Price, Size: msg.Size}
			out.Body.Trade = &kept.trade
		} else {
			kept.level = LevelUpdate{Price: msg.Price, Size: msg.Size, Flags: msg.Flags, Side: Side{msg.Side}}
			out.Body.LevelUpdate = &kept.level
		}
	}
	stream, at := codec.Reserve(stream)
	stream, err := c.lib.Append(stream, &c.out)
	if err != nil {
		return stream[:at], err
	}
	return codec.Seal(stream, at)
}

func (c *iexCodec) Decode(stream []byte, sink *workload.IexSink) (int, error) {
	body, used, err := codec.Frame(stream)
	if err != nil {
		return 0, err
	}
	// Zeroed, not only truncated: a library may decode into the slice's old
	// elements, where a variant the bytes lack would survive from an
	// earlier record.
	all := c.in.Messages[:cap(c.in.Messages)]
	clear(all)
	c.in = MultiMessage{Messages: all[:0]}
	if err := c.lib.Unmarshal(body, &c.in); err != nil {
		return 0, err
	}
	for i := range c.in.Messages {
		if _, _, err := c.in.Messages[i].Body.variant(); err != nil {
			return 0, fmt.Errorf("message %d: %w", i, err)
		}
	}
	sink.Packet(c.in.SeqNo, len(c.in.Messages))
	for i := range c.in.Messages {
		m := &c.in.Messages[i]
		if t := m.Body.Trade; t != nil {
			sink.Trade(m.TS, []byte(m.Symbol), t.Price, t.Size)
		} else {
			l := m.Body.LevelUpdate
			sink.LevelUpdate(m.TS, []byte(m.Symbol), l.Side.value, l.Flags, l.Price, l.Size)
		}
	}
	return used, nil
}
