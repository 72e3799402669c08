package msgp

import (
	"testing"

	"github.com/vmihailenco/msgpack/v5"

	"shootout/workload"
)

// record is a one-message record in rmp-serde's struct-map form, with body
// as given.
func record(t *testing.T, body any) []byte {
	t.Helper()
	b, err := msgpack.Marshal(map[string]any{"seq_no": 1, "messages": []any{map[string]any{"ts": 2, "symbol": "A", "body": body}}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A body serde would refuse is an error, not a zero trade fed to the sink;
// the well-formed body shows the bytes are otherwise what the codec reads.
func TestABodyWithoutExactlyOneKnownVariantIsAnError(t *testing.T) {
	trade := map[string]any{"price": 3, "size": 4}
	level := map[string]any{"price": 3, "size": 4, "flags": 1, "side": "Buy"}
	if _, err := Iex().Decode(record(t, map[string]any{"LevelUpdate": level}), workload.NewIexSink()); err != nil {
		t.Fatalf("the well-formed body: %v", err)
	}
	for name, body := range map[string]any{
		"no variant":      map[string]any{},
		"both variants":   map[string]any{"Trade": trade, "LevelUpdate": level},
		"unknown variant": map[string]any{"Cancel": trade},
		"null variant":    map[string]any{"Trade": nil},
		"no body":         nil,
		"side not a name": map[string]any{"LevelUpdate": map[string]any{"price": 3, "size": 4, "flags": 1, "side": 1}},
		"side unknown":    map[string]any{"LevelUpdate": map[string]any{"price": 3, "size": 4, "flags": 1, "side": "Up"}},
	} {
		if _, err := Iex().Decode(record(t, body), workload.NewIexSink()); err == nil {
			t.Errorf("%s: decoded without an error", name)
		}
	}
	missing, err := msgpack.Marshal(map[string]any{"seq_no": 1, "messages": []any{map[string]any{"ts": 2, "symbol": "A"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Iex().Decode(missing, workload.NewIexSink()); err == nil {
		t.Error("a message without a body decoded without an error")
	}
}
