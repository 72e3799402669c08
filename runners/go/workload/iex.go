package workload

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Side of a price-level update, numbered as iex.fbs numbers it.
type Side uint8

const (
	Buy  Side = 0
	Sell Side = 1
)

// Kind says which body a Message holds: Go has no sum type, so both bodies'
// fields live in Message, unused ones zero.
type Kind uint8

const (
	Trade       Kind = 0
	LevelUpdate Kind = 1
)

// MultiMessage is the iex workload's record (crates/shootout/src/workload/iex/record.rs):
// one IEX-TP packet's trades and price-level updates.
type MultiMessage struct {
	SeqNo    uint64    `json:"seq_no"`
	Messages []Message `json:"messages"`
}

// Message is one trade (Kind Trade: Price, Size) or price-level update
// (Kind LevelUpdate: Price, Size, Flags, Side). Symbol holds the wire bytes.
// Its JSON tags are json-std-flat's shape; the codecs of every other wire
// map it to their schema or to serde's shape (formats/iexserde).
type Message struct {
	TS     int64  `json:"ts"`
	Symbol string `json:"symbol"`
	Kind   Kind   `json:"kind"`
	Price  uint64 `json:"price"`
	Size   uint32 `json:"size"`
	Flags  uint8  `json:"flags"`
	Side   Side   `json:"side"`
}

// SymbolStats is the reference's per-symbol fold; a side without updates
// has nil bounds.
type SymbolStats struct {
	Trades        uint64 `json:"trades"`
	TradeVolume   uint64 `json:"trade_volume"`
	TradePriceSum uint64 `json:"trade_price_sum"`
	LevelUpdates  uint64 `json:"level_updates"`
	BuyUpdates    uint64 `json:"buy_updates"`
	LevelSizeSum  uint64 `json:"level_size_sum"`
	LevelPriceSum uint64 `json:"level_price_sum"`
	FlagsSum      uint64 `json:"flags_sum"`
	TSSum         int64  `json:"ts_sum"`
	BidLow        *int64 `json:"bid_low"`
	BidHigh       *int64 `json:"bid_high"`
	AskLow        *int64 `json:"ask_low"`
	AskHigh       *int64 `json:"ask_high"`
}

// IexAggregate is the iex reference aggregate; symbols are keyed by their
// Latin-1 reading (one character per wire byte), as the dataset writes them.
type IexAggregate struct {
	Records  uint64                 `json:"records"`
	Messages uint64                 `json:"messages"`
	SeqNoSum uint64                 `json:"seq_no_sum"`
	Symbols  map[string]SymbolStats `json:"symbols"`
}

type symbolSink struct {
	SymbolStats
	bidLow, bidHigh, askLow, askHigh int64
	bids, asks                       bool
}

// IexSink accumulates decoded records. It is keyed by the symbol's wire
// bytes; looking a []byte up as string(b) does not allocate, so only a
// symbol's first sighting does.
type IexSink struct {
	records, messages, seqNoSum uint64
	symbols                     map[string]*symbolSink
}

func NewIexSink() *IexSink { return &IexSink{symbols: make(map[string]*symbolSink, 256)} }

// Packet is called once per record, with the number of messages it declares.
func (a *IexSink) Packet(seqNo uint64, messages int) {
	a.records++
	a.messages += uint64(messages)
	a.seqNoSum += seqNo
}

func (a *IexSink) stats(symbol []byte) *symbolSink {
	s := a.symbols[string(symbol)]
	if s == nil {
		s = &symbolSink{}
		a.symbols[string(symbol)] = s
	}
	return s
}

func (a *IexSink) Trade(ts int64, symbol []byte, price uint64, size uint32) {
	s := a.stats(symbol)
	s.Trades++
	s.TradeVolume += uint64(size)
	s.TradePriceSum += price
	s.TSSum += ts
}

// LevelUpdate counts every update, size-0 deletions included.
func (a *IexSink) LevelUpdate(ts int64, symbol []byte, side Side, flags uint8, price uint64, size uint32) {
	s := a.stats(symbol)
	s.LevelUpdates++
	if side == Buy {
		s.BuyUpdates++
	}
	s.LevelSizeSum += uint64(size)
	s.LevelPriceSum += price
	s.FlagsSum += uint64(flags)
	s.TSSum += ts
	p := int64(price) // the wire's i64 price, carried as u64
	low, high, seen := &s.askLow, &s.askHigh, &s.asks
	if side == Buy {
		low, high, seen = &s.bidLow, &s.bidHigh, &s.bids
	}
	if !*seen {
		*low, *high, *seen = p, p, true
	}
	*low, *high = min(*low, p), max(*high, p)
}

// Feed is the source side: a record as read from the dataset.
func (m *MultiMessage) Feed(a *IexSink) {
	a.Packet(m.SeqNo, len(m.Messages))
	for i := range m.Messages {
		msg := &m.Messages[i]
		a.Message(msg)
	}
}

// Message feeds a decoded message; the []byte conversion of its symbol does
// not escape, so it does not allocate.
func (a *IexSink) Message(m *Message) {
	if m.Kind == Trade {
		a.Trade(m.TS, []byte(m.Symbol), m.Price, m.Size)
	} else {
		a.LevelUpdate(m.TS, []byte(m.Symbol), m.Side, m.Flags, m.Price, m.Size)
	}
}

func latin1(b string) string {
	var s strings.Builder
	for i := 0; i < len(b); i++ {
		s.WriteRune(rune(b[i]))
	}
	return s.String()
}

func (a *IexSink) Finish() IexAggregate {
	out := IexAggregate{Records: a.records, Messages: a.messages, SeqNoSum: a.seqNoSum, Symbols: map[string]SymbolStats{}}
	for sym, s := range a.symbols {
		st := s.SymbolStats
		if s.bids {
			st.BidLow, st.BidHigh = &s.bidLow, &s.bidHigh
		}
		if s.asks {
			st.AskLow, st.AskHigh = &s.askLow, &s.askHigh
		}
		out.Symbols[latin1(sym)] = st
	}
	return out
}

// FirstDifference names the first differing figure, per symbol (sorted) first,
// then the totals, as aggregate.rs does; "" when equal.
func (want IexAggregate) FirstDifference(got IexAggregate) string {
	names := make([]string, 0, len(want.Symbols))
	for s := range want.Symbols {
		names = append(names, s)
	}
	slices.Sort(names)
	for _, s := range names {
		g, ok := got.Symbols[s]
		if !ok {
			return fmt.Sprintf("symbol %q: missing from decoded aggregate", s)
		}
		w, _ := json.Marshal(want.Symbols[s])
		gj, _ := json.Marshal(g)
		if string(w) != string(gj) {
			return fmt.Sprintf("symbol %q: expected %s, decoded %s", s, w, gj)
		}
	}
	for s := range got.Symbols {
		if _, ok := want.Symbols[s]; !ok {
			return fmt.Sprintf("symbol %q: decoded but absent from the reference", s)
		}
	}
	for _, f := range []struct {
		name      string
		want, got uint64
	}{{"records", want.Records, got.Records}, {"messages", want.Messages, got.Messages}, {"seq_no_sum", want.SeqNoSum, got.SeqNoSum}} {
		if f.want != f.got {
			return fmt.Sprintf("%s expected %d, decoded %d", f.name, f.want, f.got)
		}
	}
	return ""
}

// The dataset's JSON form of a record: serde's externally tagged enum.
type iexTrade struct {
	Price uint64 `json:"price"`
	Size  uint32 `json:"size"`
}

type iexLevel struct {
	Price uint64 `json:"price"`
	Size  uint32 `json:"size"`
	Flags uint8  `json:"flags"`
	Side  string `json:"side"`
}

type iexMessage struct {
	TS     int64  `json:"ts"`
	Symbol string `json:"symbol"`
	Body   struct {
		Trade       *iexTrade `json:"Trade,omitempty"`
		LevelUpdate *iexLevel `json:"LevelUpdate,omitempty"`
	} `json:"body"`
}

type iexLine struct {
	SeqNo    uint64       `json:"seq_no"`
	Messages []iexMessage `json:"messages"`
}

// readIexLine turns a dataset line into a record: each symbol character
// (U+0000–U+00FF) back into its wire byte.
func readIexLine(line []byte, m *MultiMessage) error {
	var l iexLine
	if err := json.Unmarshal(line, &l); err != nil {
		return err
	}
	m.SeqNo = l.SeqNo
	m.Messages = make([]Message, len(l.Messages))
	for i, lm := range l.Messages {
		sym := make([]byte, 0, len(lm.Symbol))
		for _, r := range lm.Symbol {
			if r > 0xff || r == utf8.RuneError {
				return fmt.Errorf("message %d: symbol %q has a character above U+00FF", i, lm.Symbol)
			}
			sym = append(sym, byte(r))
		}
		msg := Message{TS: lm.TS, Symbol: string(sym)}
		switch b := lm.Body; {
		case b.Trade != nil && b.LevelUpdate == nil:
			msg.Kind, msg.Price, msg.Size = Trade, b.Trade.Price, b.Trade.Size
		case b.LevelUpdate != nil && b.Trade == nil:
			msg.Kind, msg.Price, msg.Size, msg.Flags = LevelUpdate, b.LevelUpdate.Price, b.LevelUpdate.Size, b.LevelUpdate.Flags
			switch b.LevelUpdate.Side {
			case "Buy":
				msg.Side = Buy
			case "Sell":
				msg.Side = Sell
			default:
				return fmt.Errorf("message %d: side %q", i, b.LevelUpdate.Side)
			}
		default:
			return fmt.Errorf("message %d: body must be exactly one of Trade, LevelUpdate", i)
		}
		m.Messages[i] = msg
	}
	return nil
}

// writeIexLine is readIexLine's inverse, for WriteDataset.
func writeIexLine(m *MultiMessage) ([]byte, error) {
	l := iexLine{SeqNo: m.SeqNo, Messages: make([]iexMessage, len(m.Messages))}
	for i, msg := range m.Messages {
		lm := &l.Messages[i]
		lm.TS, lm.Symbol = msg.TS, latin1(msg.Symbol)
		if msg.Kind == Trade {
			lm.Body.Trade = &iexTrade{msg.Price, msg.Size}
		} else {
			side := "Buy"
			if msg.Side == Sell {
				side = "Sell"
			}
			lm.Body.LevelUpdate = &iexLevel{msg.Price, msg.Size, msg.Flags, side}
		}
	}
	return json.Marshal(l)
}

// IexSpec is the iex workload's Spec.
var IexSpec = Spec[MultiMessage, *IexSink]{
	Name:    "iex",
	Fields:  []string{},
	NewSink: NewIexSink,
	Feed:    (*MultiMessage).Feed,
	Checker: func(raw json.RawMessage) (func(*IexSink) string, error) {
		var want IexAggregate
		if err := json.Unmarshal(raw, &want); err != nil {
			return nil, fmt.Errorf("reading the reference aggregate: %w", err)
		}
		return func(s *IexSink) string { return want.FirstDifference(s.Finish()) }, nil
	},
	Reference: func(s *IexSink) any { return s.Finish() },
	ReadLine:  readIexLine,
	WriteLine: writeIexLine,
}
