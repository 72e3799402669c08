// Package protobuf is google.golang.org/protobuf with protoc-gen-go messages
// (generated/protobuf).
package protobuf

import (
	"google.golang.org/protobuf/proto"

	"shootout/codec"
	"shootout/generated/protobuf/records"
	"shootout/workload"
)

var Info = codec.Info{
	Name: "protobuf", Family: "Protocol Buffers", Library: "google.golang.org/protobuf",
	Framing: codec.FramingU32LE,
	Labels:  codec.Labels{BufferReuse: true, Decode: "owned", Access: "validated", API: "generated"},
	Notes:   "proto3 messages from records.proto and iex.proto (iex symbols must be UTF-8, as proto3 strings are); one reused message each way, MarshalAppend into the stream, Unmarshal (strings copied, UTF-8 checked); 4-byte LE length prefix",
}

type userCodec struct {
	out, in records.UserResponse
}

func User() codec.Codec[workload.User, *workload.FieldSink] { return &userCodec{} }

func (c *userCodec) Encode(stream []byte, u *workload.User) ([]byte, error) {
	m := &c.out
	m.Uid, m.Muid, m.Status, m.Tutorial, m.Nickname = u.UID, u.MUID, u.Status, u.Tutorial, u.Nickname
	m.TotalLoginNum, m.OpenedAt, m.CreatedAt, m.UpdatedAt = u.TotalLoginNum, u.OpenedAt, u.CreatedAt, u.UpdatedAt
	stream, at := codec.Reserve(stream)
	stream, err := proto.MarshalOptions{}.MarshalAppend(stream, m)
	if err != nil {
		return stream[:at], err
	}
	return codec.Seal(stream, at)
}

func (c *userCodec) Decode(stream []byte, s *workload.FieldSink) (int, error) {
	body, n, err := codec.Frame(stream)
	if err != nil {
		return 0, err
	}
	m := &c.in
	if err := proto.Unmarshal(body, m); err != nil {
		return 0, err
	}
	s.Record()
	s.Int(0, m.Uid)
	s.String(1, m.Muid)
	s.String(2, m.Status)
	s.Int(3, m.Tutorial)
	s.String(4, m.Nickname)
	s.Int(5, m.TotalLoginNum)
	s.String(6, m.OpenedAt)
	s.String(7, m.CreatedAt)
	s.String(8, m.UpdatedAt)
	return n, nil
}
