package harness

import (
	"encoding/binary"
	"fmt"

	"shootout/codec"
)

const BaselineName = "baseline"

// BaselineInfo is the floor row: the same loops with no format.
var BaselineInfo = codec.Info{
	Name: BaselineName, Family: "none", Library: "std",
	Framing: codec.FramingNone,
	Labels:  codec.Labels{BufferReuse: true, Decode: "owned", Access: "unchecked", API: "generated"},
	Notes:   "not a format: encode copies the record into a reused slot and appends its 4-byte slot index, decode feeds the copy to the aggregate",
}

type baseline[R any, S any] struct {
	slots []R
	feed  func(*R, S)
}

// Baseline is the floor codec of a workload whose records feed a sink with feed.
func Baseline[R any, S any](feed func(*R, S)) codec.Codec[R, S] {
	return &baseline[R, S]{feed: feed}
}

func (b *baseline[R, S]) Encode(stream []byte, r *R) ([]byte, error) {
	i := len(stream) / 4
	if i < len(b.slots) {
		b.slots[i] = *r
	} else {
		b.slots = append(b.slots, *r)
	}
	return binary.LittleEndian.AppendUint32(stream, uint32(i)), nil
}

func (b *baseline[R, S]) Decode(stream []byte, sink S) (int, error) {
	if len(stream) < 4 {
		return 0, fmt.Errorf("baseline: %d bytes left, need 4", len(stream))
	}
	i := binary.LittleEndian.Uint32(stream)
	if int(i) >= len(b.slots) {
		return 0, fmt.Errorf("baseline: slot %d of %d", i, len(b.slots))
	}
	b.feed(&b.slots[i], sink)
	return 4, nil
}
