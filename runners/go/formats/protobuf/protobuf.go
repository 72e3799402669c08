// Package protobuf is google.golang.org/protobuf with protoc-gen-go messages
// (generated/protobuf).
package protobuf

import (
	"shootout/codec"
	"shootout/generated/protobuf/records"
	"shootout/workload"
)

var Info = codec.Info{
	Name: "protobuf", Family: "Protocol Buffers", Library: "google.golang.org/protobuf",
	Framing: codec.FramingU32LE, Wire: "protobuf", Labels: codec.OwnedGenerated,
	Notes: "proto3 messages from records.proto and iex.proto (iex symbols must be UTF-8, as proto3 strings are); one reused message each way, MarshalAppend into the stream, Unmarshal (strings copied, UTF-8 checked); 4-byte LE length prefix",
}

func UserWith[X Marshaller]() codec.Codec[workload.User, *workload.FieldSink] {
	return &fieldCodec[workload.User, records.UserResponse, *records.UserResponse, X]{
		to: func(u *workload.User, m *records.UserResponse) {
			m.Uid, m.Muid, m.Status, m.Tutorial, m.Nickname = u.UID, u.MUID, u.Status, u.Tutorial, u.Nickname
			m.TotalLoginNum, m.OpenedAt, m.CreatedAt, m.UpdatedAt = u.TotalLoginNum, u.OpenedAt, u.CreatedAt, u.UpdatedAt
		},
		from: func(m *records.UserResponse, s *workload.FieldSink) error {
			u := workload.User{UID: m.Uid, MUID: m.Muid, Status: m.Status, Tutorial: m.Tutorial, Nickname: m.Nickname,
				TotalLoginNum: m.TotalLoginNum, OpenedAt: m.OpenedAt, CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt}
			u.Visit(s)
			return nil
		},
	}
}
