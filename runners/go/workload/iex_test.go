package workload

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const iexSample = "../testdata/iex.jsonl"

// sampleIex makes packets shaped like the iex workload's: a few trades and
// price-level updates each, on a handful of symbols; it includes a sequence
// number that wraps the sum and a price with the top bit set (negative as
// the i64 the bid/ask bounds use).
func sampleIex(n int, seed uint64) []MultiMessage {
	r := rand.New(rand.NewPCG(seed, 1))
	symbols := []string{"AAPL", "MSFT", "SPY", "ZVZZT", "BRK.A"}
	out := make([]MultiMessage, n)
	for i := range out {
		m := MultiMessage{SeqNo: uint64(1000 + 3*i), Messages: make([]Message, 1+r.IntN(4))}
		if i == 7 {
			m.SeqNo = math.MaxUint64 - 2
		}
		for j := range m.Messages {
			msg := Message{TS: 1_700_000_000_000_000_000 + int64(i*1000+j), Symbol: symbols[r.IntN(len(symbols))],
				Price: uint64(1_000_000 + r.IntN(2_000_000)), Size: uint32(r.IntN(1000))}
			if r.IntN(3) > 0 {
				msg.Kind, msg.Flags, msg.Side = LevelUpdate, uint8(r.IntN(2)), Side(r.IntN(2))
			}
			if i == 11 && j == 0 {
				msg.Kind, msg.Side, msg.Price = LevelUpdate, Buy, 1<<63+5
			}
			m.Messages[j] = msg
		}
		out[i] = m
	}
	return out
}

func TestIexSampleIsCurrent(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteDataset(&buf, IexSpec, "Go test helper: 200 generated IEX-TP packets (seed 1)", sampleIex(200, 1)); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(iexSample, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(iexSample)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, buf.Bytes()) {
		t.Fatalf("%s is stale: go test ./workload -run SampleIsCurrent -update", iexSample)
	}
}

func readIex(t *testing.T, path string) ([]MultiMessage, func(*IexSink) string) {
	t.Helper()
	r, err := OpenDataset(path, IexSpec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var all []MultiMessage
	for {
		w, err := r.Next(16)
		if err != nil {
			t.Fatal(err)
		}
		if len(w) == 0 {
			break
		}
		all = append(all, w...)
	}
	check, err := IexSpec.Checker(r.Header.Reference)
	if err != nil {
		t.Fatal(err)
	}
	return all, check
}

func TestTheIexSampleAddsUpAndEveryFieldShows(t *testing.T) {
	recs, check := readIex(t, iexSample)
	feed := func() *IexSink {
		s := NewIexSink()
		for i := range recs {
			recs[i].Feed(s)
		}
		return s
	}
	if d := check(feed()); d != "" {
		t.Fatal(d)
	}
	if b := feed().Finish().Symbols["AAPL"]; b.BidLow == nil || b.AskHigh == nil {
		t.Fatalf("AAPL must have both sides in the sample: %+v", b)
	}
	alter := []struct {
		name string
		f    func(*Message)
		want string
	}{
		{"ts", func(m *Message) { m.TS++ }, "ts_sum"},
		{"flags", func(m *Message) { m.Flags++ }, "flags_sum"},
		{"side", func(m *Message) { m.Side ^= 1 }, "buy_updates"},
		{"size", func(m *Message) { m.Size++ }, "size_sum"},
		{"symbol", func(m *Message) { m.Symbol = "XX" }, "symbol"},
	}
	for _, a := range alter {
		i := 0
		for recs[i].Messages[0].Kind != LevelUpdate {
			i++
		}
		saved := recs[i].Messages[0]
		a.f(&recs[i].Messages[0])
		if d := check(feed()); !strings.Contains(d, a.want) {
			t.Errorf("altering %s: difference %q does not name %s", a.name, d, a.want)
		}
		recs[i].Messages[0] = saved
	}
}

func TestIexSymbolsCarryAnyByteAsLatin1(t *testing.T) {
	recs := []MultiMessage{{SeqNo: 1, Messages: []Message{{Symbol: "A\xe9\x00B", Kind: Trade, Size: 3}}}}
	path := filepath.Join(t.TempDir(), "iex.jsonl")
	var buf bytes.Buffer
	if err := WriteDataset(&buf, IexSpec, "test", recs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"symbol":"Aé\u0000B"`) {
		t.Fatalf("symbol not written as Latin-1 characters: %s", buf.String())
	}
	os.WriteFile(path, buf.Bytes(), 0o644)
	got, check := readIex(t, path)
	if got[0].Messages[0].Symbol != "A\xe9\x00B" {
		t.Fatalf("read back %q", got[0].Messages[0].Symbol)
	}
	s := NewIexSink()
	got[0].Feed(s)
	if d := check(s); d != "" {
		t.Fatal(d)
	}
}
