// Package thrift is github.com/apache/thrift with thrift-generated structs
// (generated/thrift), binary and compact protocols.
package thrift

import (
	"context"
	"errors"

	"github.com/apache/thrift/lib/go/thrift"

	"shootout/codec"
	"shootout/generated/thrift/records"
	"shootout/workload"
)

var (
	BinaryInfo = codec.Info{
		Name: "thrift-binary", Family: "Thrift", Library: "github.com/apache/thrift",
		Labels: codec.Labels{BufferReuse: true, Decode: "owned", Access: "validated", API: "generated"},
		Notes: "TBinaryProtocol over a reused TMemoryBuffer (one copy into the stream each way), one reused struct each way; " +
			"required fields, checked on read; 4-byte LE length prefix",
	}
	CompactInfo = codec.Info{
		Name: "thrift-compact", Family: "Thrift", Library: "github.com/apache/thrift",
		Labels: BinaryInfo.Labels,
		Notes: "TCompactProtocol over a reused TMemoryBuffer (one copy into the stream each way), one reused struct each way; " +
			"required fields, checked on read; 4-byte LE length prefix",
	}
)

type userCodec struct {
	ctx     context.Context
	buf     *thrift.TMemoryBuffer
	newProt func(thrift.TTransport) thrift.TProtocol
	prot    thrift.TProtocol
	out, in records.UserResponse
}

func user(newProt func(thrift.TTransport) thrift.TProtocol) codec.Codec[workload.User, *workload.FieldSink] {
	buf := thrift.NewTMemoryBufferLen(256)
	return &userCodec{ctx: context.Background(), buf: buf, newProt: newProt, prot: newProt(buf)}
}

func UserBinary() codec.Codec[workload.User, *workload.FieldSink] {
	return user(func(t thrift.TTransport) thrift.TProtocol { return thrift.NewTBinaryProtocolConf(t, nil) })
}

func UserCompact() codec.Codec[workload.User, *workload.FieldSink] {
	return user(func(t thrift.TTransport) thrift.TProtocol { return thrift.NewTCompactProtocolConf(t, nil) })
}

// fail drops the protocol's state (the compact protocol tracks field ids),
// which an error mid-struct leaves behind.
func (c *userCodec) fail(err error) error {
	c.prot = c.newProt(c.buf)
	return err
}

func (c *userCodec) Encode(stream []byte, u *workload.User) ([]byte, error) {
	m := &c.out
	m.UID, m.Muid, m.Status, m.Tutorial, m.Nickname = u.UID, u.MUID, u.Status, u.Tutorial, u.Nickname
	m.TotalLoginNum, m.OpenedAt, m.CreatedAt, m.UpdatedAt = u.TotalLoginNum, u.OpenedAt, u.CreatedAt, u.UpdatedAt
	c.buf.Reset()
	if err := m.Write(c.ctx, c.prot); err != nil {
		return stream, c.fail(err)
	}
	if err := c.prot.Flush(c.ctx); err != nil {
		return stream, c.fail(err)
	}
	stream, at := codec.Reserve(stream)
	stream = append(stream, c.buf.Bytes()...)
	return codec.Seal(stream, at)
}

func (c *userCodec) Decode(stream []byte, s *workload.FieldSink) (int, error) {
	body, n, err := codec.Frame(stream)
	if err != nil {
		return 0, err
	}
	c.buf.Reset()
	c.buf.Write(body)
	m := &c.in
	*m = records.UserResponse{}
	if err := m.Read(c.ctx, c.prot); err != nil {
		return 0, c.fail(err)
	}
	if c.buf.Len() != 0 {
		return 0, c.fail(thrift.NewTProtocolException(errTrailing))
	}
	s.Record()
	s.Int(0, m.UID)
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

var errTrailing = errors.New("thrift: bytes left after the struct")
