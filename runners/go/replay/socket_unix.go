//go:build unix

package replay

import (
	"net"
	"syscall"
)

// recvNonblocking reads one datagram, or fails with EAGAIN when none is
// there: Go opens every socket non-blocking.
func recvNonblocking(fd uintptr, buf []byte) (int, error) {
	return syscall.Read(int(fd), buf)
}

// wouldBlock says a non-blocking read found nothing (EINTR counts: the
// next poll tries again).
func wouldBlock(err error) bool {
	return err == syscall.EAGAIN || err == syscall.EWOULDBLOCK || err == syscall.EINTR
}

// receiveBuffer is the socket's receive buffer as getsockopt(SO_RCVBUF)
// reports it (Linux reports twice what it granted for data: the other half
// is its bookkeeping).
func receiveBuffer(c *net.UDPConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, err
	}
	var size int
	var opt error
	if err := raw.Control(func(fd uintptr) {
		size, opt = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF)
	}); err != nil {
		return 0, err
	}
	return size, opt
}
