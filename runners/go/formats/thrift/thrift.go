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
		Framing: codec.FramingU32LE, Wire: "thrift-binary", Labels: codec.OwnedGenerated,
		Notes: "TBinaryProtocol over a reused TMemoryBuffer (one copy into the stream each way), one reused struct each way; " +
			"required fields, checked on read; unsigned iex values bit-cast to Thrift's signed types; 4-byte LE length prefix",
	}
	CompactInfo = codec.Info{
		Name: "thrift-compact", Family: "Thrift", Library: "github.com/apache/thrift",
		Framing: codec.FramingU32LE, Wire: "thrift-compact", Labels: codec.OwnedGenerated,
		Notes: "TCompactProtocol over a reused TMemoryBuffer (one copy into the stream each way), one reused struct each way; " +
			"required fields, checked on read; unsigned iex values bit-cast to Thrift's signed types; 4-byte LE length prefix",
	}
)

type newProtocol func(thrift.TTransport, *thrift.TConfiguration) thrift.TProtocol

var (
	binary newProtocol = func(t thrift.TTransport, c *thrift.TConfiguration) thrift.TProtocol {
		return thrift.NewTBinaryProtocolConf(t, c)
	}
	compact newProtocol = func(t thrift.TTransport, c *thrift.TConfiguration) thrift.TProtocol {
		return thrift.NewTCompactProtocolConf(t, c)
	}
)

// transport is a protocol over a reused memory buffer.
type transport struct {
	ctx  context.Context
	buf  *thrift.TMemoryBuffer
	conf *thrift.TConfiguration
	newP newProtocol
	prot thrift.TProtocol
}

func newTransport(p newProtocol) *transport {
	t := &transport{ctx: context.Background(), buf: thrift.NewTMemoryBufferLen(256), conf: &thrift.TConfiguration{}, newP: p}
	t.prot = p(t.buf, t.conf)
	return t
}

// fail drops the protocol's state (the compact protocol tracks field ids),
// which an error mid-struct leaves behind.
func (t *transport) fail(err error) error {
	t.prot = t.newP(t.buf, t.conf)
	return err
}

func (t *transport) write(stream []byte, w func(context.Context, thrift.TProtocol) error) ([]byte, error) {
	t.buf.Reset()
	if err := w(t.ctx, t.prot); err != nil {
		return stream, t.fail(err)
	}
	if err := t.prot.Flush(t.ctx); err != nil {
		return stream, t.fail(err)
	}
	stream, at := codec.Reserve(stream)
	stream = append(stream, t.buf.Bytes()...)
	return codec.Seal(stream, at)
}

var errTrailing = errors.New("thrift: bytes left after the struct")

func (t *transport) read(stream []byte, r func(context.Context, thrift.TProtocol) error) (int, error) {
	body, n, err := codec.Frame(stream)
	if err != nil {
		return 0, err
	}
	// No container in body can hold more elements than it has bytes: a
	// corrupt count fails here instead of sizing an allocation.
	t.conf.MaxMessageSize = int32(len(body))
	t.buf.Reset()
	t.buf.Write(body)
	if err := r(t.ctx, t.prot); err != nil {
		return 0, t.fail(err)
	}
	if t.buf.Len() != 0 {
		return 0, t.fail(errTrailing)
	}
	return n, nil
}

func UserBinary() codec.Codec[workload.User, *workload.FieldSink]  { return user(binary) }
func UserCompact() codec.Codec[workload.User, *workload.FieldSink] { return user(compact) }

func user(p newProtocol) codec.Codec[workload.User, *workload.FieldSink] {
	return fields(p, func(u *workload.User, m *records.UserResponse) {
		m.UID, m.Muid, m.Status, m.Tutorial, m.Nickname = u.UID, u.MUID, u.Status, u.Tutorial, u.Nickname
		m.TotalLoginNum, m.OpenedAt, m.CreatedAt, m.UpdatedAt = u.TotalLoginNum, u.OpenedAt, u.CreatedAt, u.UpdatedAt
	}, func(m *records.UserResponse, s *workload.FieldSink) {
		u := workload.User{UID: m.UID, MUID: m.Muid, Status: m.Status, Tutorial: m.Tutorial, Nickname: m.Nickname,
			TotalLoginNum: m.TotalLoginNum, OpenedAt: m.OpenedAt, CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt}
		u.Visit(s)
	})
}
