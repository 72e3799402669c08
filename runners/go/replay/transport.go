package replay

import (
	"encoding/binary"
	"fmt"
	"math"
	"net"
	"syscall"
)

// ringCapacity is the ring's size in records (docs/replay.md).
const ringCapacity = 1024

// slot is one transport buffer of the ring, with the record it holds.
type slot struct {
	buf     []byte
	index   int
	release int64
}

// ring is two buffered channels of ringCapacity slots: filled ones to the
// consumer, emptied ones back to the producer. Every slot is always in one
// of them or held by one end, so a send never waits for room, and once the
// slots' buffers have grown nothing is allocated per record. Both ends poll
// with select and default, which looks at the channel without taking its
// lock when it is empty: never parked, never blocked.
type ring struct {
	filled, empty chan *slot
	// The slot each end holds, nil when none.
	produced, consumed *slot
}

func newRing() *ring {
	q := &ring{filled: make(chan *slot, ringCapacity), empty: make(chan *slot, ringCapacity)}
	for range ringCapacity {
		q.empty <- &slot{buf: make([]byte, 0, 256)}
	}
	return q
}

func (q *ring) buffer(st *shared) ([]byte, bool) {
	for {
		select {
		case s := <-q.empty:
			q.produced = s
			return s.buf[:0], true
		default:
			if st.stopped.Load() {
				return nil, false
			}
			st.spin()
		}
	}
}

func (q *ring) send(buf []byte, index int, release int64) error {
	s := q.produced
	q.produced = nil
	s.buf, s.index, s.release = buf, index, release
	q.filled <- s
	return nil
}

func (q *ring) poll() ([]byte, int, int64, bool, error) {
	select {
	case s := <-q.filled:
		q.consumed = s
		return s.buf, s.index, s.release, true, nil
	default:
		return nil, 0, 0, false, nil
	}
}

func (q *ring) done() {
	q.empty <- q.consumed
	q.consumed = nil
}

// reset puts every slot back among the empty ones after a run, a failed
// one's too, so the next run of the format starts with the grown buffers.
func (q *ring) reset() {
	for _, s := range []*slot{q.produced, q.consumed} {
		if s != nil {
			q.empty <- s
		}
	}
	q.produced, q.consumed = nil, nil
	for {
		select {
		case s := <-q.filled:
			q.empty <- s
		default:
			return
		}
	}
}

const (
	// udpHeader is a datagram's header: the record's index (u32 LE) and its
	// release time in ns since start (u64 LE).
	udpHeader = 12
	// maxPayload is the most payload one datagram carries: an IPv4 UDP
	// datagram holds 65,507 bytes.
	maxPayload   = 65507 - udpHeader
	askedRcvBuf  = 4 << 20
	rcvBufMetric = "getsockopt(SO_RCVBUF)"
)

// udpLink is a loopback UDP socket pair, one datagram per record.
type udpLink struct {
	in, out *net.UDPConn
	raw     syscall.RawConn
	// recv is made once: a closure made per poll would be an allocation per poll.
	recv       func(fd uintptr) bool
	n          int
	recvErr    error
	rbuf, wbuf []byte
}

// listenUDP is the receiving socket on 127.0.0.1, asked for a 4 MiB buffer
// (receiveBuffer says what the OS granted).
func listenUDP() (*net.UDPConn, error) {
	in, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, fmt.Errorf("udp: listening on 127.0.0.1: %w", err)
	}
	if err := in.SetReadBuffer(askedRcvBuf); err != nil {
		in.Close()
		return nil, fmt.Errorf("udp: asking for a %d-byte receive buffer: %w", askedRcvBuf, err)
	}
	return in, nil
}

// describeUDP is the results' description of the udp transport, with the
// receive buffer a socket made as the runs make theirs was granted.
func describeUDP() string {
	const what = "loopback (127.0.0.1), one datagram per record from a connected socket: 12 header bytes (index u32 LE, " +
		"release time u64 LE in ns since start), then the payload; the consumer busy-polls with one non-blocking read(2) per look " +
		"(through syscall.RawConn, never parked in the netpoller); receive buffer: asked 4 MiB (SetReadBuffer(4194304)), "
	in, err := listenUDP()
	if err != nil {
		return what + "granted unknown (" + err.Error() + ")"
	}
	defer in.Close()
	granted, err := receiveBuffer(in)
	if err != nil {
		return what + "granted unknown (" + rcvBufMetric + " failed: " + err.Error() + ")"
	}
	return fmt.Sprintf("%sgranted %d bytes as %s reads it back (Linux reports twice the data it allows, "+
		"the request capped at net.core.rmem_max, the rest for its bookkeeping)", what, granted, rcvBufMetric)
}

func newUDPLink() (*udpLink, error) {
	in, err := listenUDP()
	if err != nil {
		return nil, err
	}
	out, err := net.DialUDP("udp4", nil, in.LocalAddr().(*net.UDPAddr))
	if err != nil {
		in.Close()
		return nil, fmt.Errorf("udp: connecting to %s: %w", in.LocalAddr(), err)
	}
	raw, err := in.SyscallConn()
	if err != nil {
		in.Close()
		out.Close()
		return nil, fmt.Errorf("udp: %w", err)
	}
	u := &udpLink{in: in, out: out, raw: raw, rbuf: make([]byte, 1<<16), wbuf: make([]byte, udpHeader, 1<<12)}
	// The consumer polls with one non-blocking read(2) per look: Go's
	// sockets are non-blocking, and a function that always returns true
	// makes RawConn.Read return after that one call, never waiting in the
	// netpoller. A read deadline in the past would not do: the runtime then
	// fails the read before making the call.
	u.recv = func(fd uintptr) bool {
		u.n, u.recvErr = recvNonblocking(fd, u.rbuf)
		return true
	}
	return u, nil
}

func (u *udpLink) close() { u.in.Close(); u.out.Close() }

func (u *udpLink) buffer(*shared) ([]byte, bool) { return u.wbuf[:udpHeader], true }

func (u *udpLink) send(buf []byte, index int, release int64) error {
	u.wbuf = buf
	if n := len(buf) - udpHeader; n > maxPayload {
		return fmt.Errorf("%d payload bytes do not fit one UDP datagram (%d at most after the %d-byte header)", n, maxPayload, udpHeader)
	}
	if index > math.MaxUint32 {
		return fmt.Errorf("index %d does not fit the datagram header's u32", index)
	}
	binary.LittleEndian.PutUint32(buf, uint32(index))
	binary.LittleEndian.PutUint64(buf[4:], uint64(release))
	if _, err := u.out.Write(buf); err != nil {
		return fmt.Errorf("sending its datagram: %w", err)
	}
	return nil
}

func (u *udpLink) poll() ([]byte, int, int64, bool, error) {
	if err := u.raw.Read(u.recv); err != nil {
		return nil, 0, 0, false, fmt.Errorf("udp: receiving: %w", err)
	}
	switch {
	case wouldBlock(u.recvErr):
		return nil, 0, 0, false, nil
	case u.recvErr != nil:
		return nil, 0, 0, false, fmt.Errorf("udp: receiving: %w", u.recvErr)
	case u.n < udpHeader:
		return nil, 0, 0, false, fmt.Errorf("udp: a datagram of %d bytes, expected at least its %d-byte header", u.n, udpHeader)
	}
	index := binary.LittleEndian.Uint32(u.rbuf)
	release := binary.LittleEndian.Uint64(u.rbuf[4:])
	return u.rbuf[udpHeader:u.n], int(index), int64(release), true, nil
}

func (u *udpLink) done() {}
