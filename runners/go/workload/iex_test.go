package workload

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"shootout/internal/spec"
)

func readIex(t *testing.T, path string) ([]MultiMessage, func(*IexSink) string) {
	t.Helper()
	all, header := readAll(t, path, IexSpec, 16)
	check, err := IexSpec.Checker(header.Reference)
	if err != nil {
		t.Fatal(err)
	}
	return all, check
}

func TestTheIexFixtureAddsUpAndEveryFieldShows(t *testing.T) {
	recs, check := readIex(t, spec.Fixture(t, "iex"))
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
		t.Fatalf("AAPL must have both sides in the fixture: %+v", b)
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
