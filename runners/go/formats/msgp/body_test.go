package msgp

import (
	"testing"

	"github.com/vmihailenco/msgpack/v5"

	"shootout/internal/iexserdetest"
	"shootout/workload"
)

// record is a one-message record in rmp-serde's struct-map form, with body
// as given.
func record(t *testing.T, body any) []byte {
	t.Helper()
	b, err := msgpack.Marshal(iexserdetest.MapForm(body))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A body serde would refuse is an error, not a zero trade fed to the sink;
// the well-formed body shows the bytes are otherwise what the codec reads.
func TestABodyWithoutExactlyOneKnownVariantIsAnError(t *testing.T) {
	if _, err := Iex().Decode(record(t, map[string]any{"LevelUpdate": iexserdetest.LevelMap}), workload.NewIexSink()); err != nil {
		t.Fatalf("the well-formed body: %v", err)
	}
	for name, body := range iexserdetest.BadBodyMaps {
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
