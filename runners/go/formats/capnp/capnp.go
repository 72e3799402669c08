// Package capnp is capnproto.org/go/capnp/v3 with capnpc-go accessors
// (generated/capnp), unpacked and packed.
package capnp

import (
	"encoding/binary"
	"errors"
	"fmt"

	"capnproto.org/go/capnp/v3"
	"capnproto.org/go/capnp/v3/packed"

	"shootout/codec"
	"shootout/generated/capnp/records"
	"shootout/workload"
)

var (
	UnpackedInfo = codec.Info{
		Name: "capnp-unpacked", Family: "Cap'n Proto", Library: "capnproto.org/go/capnp/v3",
		Framing: codec.FramingNone, Wire: "capnp-unpacked", Labels: codec.ZeroCopyGenerated,
		Notes: "one single-segment message per record, built in a reused buffer; the standard segment table is the framing. " +
			"Read in place (text as views of the stream), every pointer bounds-checked by the library",
	}
	PackedInfo = codec.Info{
		Name: "capnp-packed", Family: "Cap'n Proto", Library: "capnproto.org/go/capnp/v3",
		Framing: codec.FramingU32LE, Wire: "capnp-packed", Labels: codec.ZeroCopyGenerated,
		Notes: "as capnp-unpacked, packed (capnp/packed) into the stream after a 4-byte LE length prefix (a packed message does not " +
			"reveal its length without unpacking); unpacked into a reused buffer, then read in place",
	}
)

// framing builds single-segment messages in a reused buffer and frames them,
// and opens framed messages for reading in place.
type framing struct {
	packed   bool
	msg      capnp.Message
	unpacked []byte
	read     capnp.Message
}

func newFraming(packed bool) framing { return framing{packed: packed} }

// begin starts a new message. SingleSegment(nil) is the library's reuse path:
// Reset releases the previous arena to its pool and its buffer to the
// buffer pool, so the next message grows into recycled memory. (An arena
// over a buffer of our own cannot grow past that buffer's capacity: a
// DEEP10 packet of more than 1 KiB failed so.)
func (c *framing) begin() (*capnp.Segment, error) {
	return c.msg.Reset(capnp.SingleSegment(nil))
}

// finish frames the built segment onto stream: the standard segment table of
// a one-segment message (count − 1, size in words), packed or not.
func (c *framing) finish(stream []byte, seg *capnp.Segment) ([]byte, error) {
	data := seg.Data()
	header := [8]byte{}
	binary.LittleEndian.PutUint32(header[4:], uint32(len(data)/8))
	if !c.packed {
		stream = append(stream, header[:]...)
		return append(stream, data...), nil
	}
	stream, at := codec.Reserve(stream)
	stream = packed.Pack(stream, header[:])
	stream = packed.Pack(stream, data)
	return codec.Seal(stream, at)
}

// segment returns the single segment of the framed message at the start of
// b and the message's length; other messages get a nil segment.
func segment(b []byte) (seg []byte, n int, err error) {
	if len(b) < 8 {
		return nil, 0, fmt.Errorf("capnp: %d bytes cannot hold a segment table", len(b))
	}
	count := uint64(binary.LittleEndian.Uint32(b)) + 1
	head := (4 + 4*count + 7) / 8 * 8
	if head > uint64(len(b)) {
		return nil, 0, fmt.Errorf("capnp: segment table of %d segments overruns %d bytes", count, len(b))
	}
	total := head
	for i := range count {
		total += 8 * uint64(binary.LittleEndian.Uint32(b[4+4*i:]))
	}
	if total > uint64(len(b)) {
		return nil, 0, fmt.Errorf("capnp: message of %d bytes, %d left", total, len(b))
	}
	if count == 1 {
		seg = b[8:total]
	}
	return seg, int(total), nil
}

// open reads the framed message at the start of stream in place and
// returns it with the bytes it used.
func (c *framing) open(stream []byte) (*capnp.Message, int, error) {
	msgBytes, used := stream, 0
	if c.packed {
		body, n, err := codec.Frame(stream)
		if err != nil {
			return nil, 0, err
		}
		if c.unpacked, err = packed.Unpack(c.unpacked[:0], body); err != nil {
			return nil, 0, err
		}
		msgBytes, used = c.unpacked, n
	}
	seg, n, err := segment(msgBytes)
	if err != nil {
		return nil, 0, err
	}
	if !c.packed {
		used = n
	} else if n != len(msgBytes) {
		return nil, 0, fmt.Errorf("capnp: %d bytes left after the message", len(msgBytes)-n)
	}
	if seg == nil {
		msg, err := capnp.Unmarshal(msgBytes[:n])
		return msg, used, err
	}
	if _, err := c.read.Reset(capnp.NewReadOnlySingleSegment(seg)); err != nil {
		return nil, 0, err
	}
	return &c.read, used, nil
}

var UserUnpacked, UserPacked = both(
	func(seg *capnp.Segment, u *workload.User) error {
		r, err := records.NewRootUserResponse(seg)
		if err != nil {
			return err
		}
		r.SetUid(u.UID)
		r.SetTutorial(u.Tutorial)
		r.SetTotalLoginNum(u.TotalLoginNum)
		// errors.Join of nils is nil: one check for the six texts.
		return errors.Join(r.SetMuid(u.MUID), r.SetStatus(u.Status), r.SetNickname(u.Nickname),
			r.SetOpenedAt(u.OpenedAt), r.SetCreatedAt(u.CreatedAt), r.SetUpdatedAt(u.UpdatedAt))
	},
	func(msg *capnp.Message, s *workload.FieldSink) error {
		r, err := records.ReadRootUserResponse(msg)
		if err != nil {
			return err
		}
		muid, e1 := r.MuidBytes()
		status, e2 := r.StatusBytes()
		nick, e3 := r.NicknameBytes()
		opened, e4 := r.OpenedAtBytes()
		created, e5 := r.CreatedAtBytes()
		updated, e6 := r.UpdatedAtBytes()
		if err := errors.Join(e1, e2, e3, e4, e5, e6); err != nil {
			return err
		}
		s.Record()
		s.Int(0, r.Uid())
		s.Text(1, muid)
		s.Text(2, status)
		s.Int(3, r.Tutorial())
		s.Text(4, nick)
		s.Int(5, r.TotalLoginNum())
		s.Text(6, opened)
		s.Text(7, created)
		s.Text(8, updated)
		return nil
	})
