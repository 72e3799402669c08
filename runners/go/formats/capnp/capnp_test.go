package capnp

import (
	"fmt"
	"testing"

	"shootout/workload"
)

// A packet larger than any the samples hold, after a small one: the build
// arena must grow (DEEP10 has such packets; a fixed 1 KiB arena refused them).
func TestMessagesGrowPastAnyEarlierOne(t *testing.T) {
	small := workload.MultiMessage{SeqNo: 1, Messages: []workload.Message{{TS: 1, Symbol: "A", Price: 1, Size: 1}}}
	large := workload.MultiMessage{SeqNo: 2}
	for i := range 500 {
		large.Messages = append(large.Messages, workload.Message{TS: int64(i), Symbol: fmt.Sprintf("SYM%d", i%7),
			Kind: workload.LevelUpdate, Price: uint64(i) * 100, Size: uint32(i), Flags: 1, Side: workload.Side('B')})
	}
	for name, c := range map[string]func() *iexCodec{"unpacked": func() *iexCodec { return &iexCodec{newFraming(false)} },
		"packed": func() *iexCodec { return &iexCodec{newFraming(true)} }} {
		codec := c()
		want, got := workload.NewIexSink(), workload.NewIexSink()
		var stream []byte
		for _, m := range []*workload.MultiMessage{&small, &large, &small} {
			var err error
			if stream, err = codec.Encode(stream, m); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			m.Feed(want)
		}
		for off := 0; off < len(stream); {
			used, err := codec.Decode(stream[off:], got)
			if err != nil {
				t.Fatalf("%s: decoding at %d: %v", name, off, err)
			}
			off += used
		}
		if d := want.Finish().FirstDifference(got.Finish()); d != "" {
			t.Fatalf("%s: %s", name, d)
		}
	}
}
