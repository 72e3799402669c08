// Package vtprotobuf is github.com/planetscale/vtprotobuf: the methods
// protoc-gen-go-vtproto generates beside protoc-gen-go's messages
// (generated/protobuf/*_vtproto.pb.go), on the protobuf format's own messages
// and mappings (package protobuf), so the two differ only in how a message
// becomes bytes and back.
package vtprotobuf

import (
	"slices"

	"google.golang.org/protobuf/proto"

	"shootout/codec"
	"shootout/formats/protobuf"
)

var Info = codec.Info{
	Name: "vtprotobuf", Family: "Protocol Buffers", Library: "github.com/planetscale/vtprotobuf",
	Framing: codec.FramingU32LE, Wire: "protobuf", Labels: codec.OwnedGenerated,
	Notes: "the protobuf format's proto3 messages and mappings, marshalled by protoc-gen-go-vtproto's generated code (features marshal+unmarshal+size, no pool): SizeVT, then MarshalToSizedBufferVT into the stream; Reset and UnmarshalVT (strings copied). Unlike protobuf-go it checks no string for UTF-8 either way, and omits a float or double field of -0.0 (it reads back +0.0); 4-byte LE length prefix",
}

// message is what protoc-gen-go and protoc-gen-go-vtproto generate for every message.
type message interface {
	Reset()
	SizeVT() int
	MarshalToSizedBufferVT(dst []byte) (int, error)
	UnmarshalVT(body []byte) error
}

// Generated marshals with the message's generated methods.
type Generated struct{}

func (Generated) Append(dst []byte, m proto.Message) ([]byte, error) {
	vt := m.(message)
	size := vt.SizeVT()
	dst = slices.Grow(dst, size)
	// It writes back to front: the slice must be exactly the message's size.
	if _, err := vt.MarshalToSizedBufferVT(dst[len(dst) : len(dst)+size]); err != nil {
		return dst, err
	}
	return dst[:len(dst)+size], nil
}

// Unmarshal resets m first: UnmarshalVT alone merges into what m holds, and
// its documentation asks for proto.Reset (or a new message) before it.
func (Generated) Unmarshal(body []byte, m proto.Message) error {
	vt := m.(message)
	vt.Reset()
	return vt.UnmarshalVT(body)
}

var (
	User       = protobuf.UserWith[Generated]
	Iex        = protobuf.IexWith[Generated]
	Sql        = protobuf.SqlWith[Generated]
	Primitives = protobuf.PrimitivesWith[Generated]
	Object     = protobuf.ObjectWith[Generated]
	Mixed      = protobuf.MixedWith[Generated]
	Strings    = protobuf.StringsWith[Generated]
	Longs      = protobuf.LongsWith[Generated]
)
