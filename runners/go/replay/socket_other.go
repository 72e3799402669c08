//go:build !unix

package replay

import (
	"errors"
	"net"
)

var errNoUnixSockets = errors.New("the udp transport needs Unix sockets")

func recvNonblocking(uintptr, []byte) (int, error) { return 0, errNoUnixSockets }

func wouldBlock(error) bool { return false }

func receiveBuffer(*net.UDPConn) (int, error) { return 0, errNoUnixSockets }
