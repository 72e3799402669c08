// Package sbe is Simple Binary Encoding with sbe-tool's Go output
// (generated/sbe/iex_sbe), a self-contained package: no library version but
// the generator's.
package sbe

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"shootout/codec"
	sbe "shootout/generated/sbe/iex_sbe"
	"shootout/workload"
)

var Info = codec.Info{
	Name: "sbe", Family: "SBE (Simple Binary Encoding)", Library: "sbe-tool",
	Framing: codec.FramingNone,
	Labels:  codec.Labels{BufferReuse: true, Decode: "owned", Access: "validated", API: "generated"},
	Notes: "sbe-tool's Go codecs read and write through io.Reader/io.Writer into a struct (var data copied into reused byte slices); " +
		"the SBE message header is the framing; iex symbols are space-padded to 8 bytes and trimmed on read (a symbol ending in a space would lose it). Before decoding, the codec checks the header and every var-data length against the bytes left, " +
		"as the generated code would otherwise allocate whatever length a corrupt buffer claims. " +
		"Range checks are on: SBE reserves each type's null value (u8 255, i32 -2^31, i64 -2^63, u64 2^64-1), so a required field holding one fails to encode",
}

type userCodec struct {
	m       *sbe.SbeGoMarshaller
	out     codec.Appender
	in      bytes.Reader
	hdr     sbe.MessageHeader
	rec, rd sbe.UserResponse
}

func User() codec.Codec[workload.User, *workload.FieldSink] {
	return &userCodec{m: sbe.NewSbeGoMarshaller()}
}

func (c *userCodec) Encode(stream []byte, u *workload.User) ([]byte, error) {
	r := &c.rec
	r.Uid, r.Tutorial, r.TotalLoginNum = u.UID, u.Tutorial, u.TotalLoginNum
	r.Muid, r.Status, r.Nickname = append(r.Muid[:0], u.MUID...), append(r.Status[:0], u.Status...), append(r.Nickname[:0], u.Nickname...)
	r.OpenedAt, r.CreatedAt, r.UpdatedAt = append(r.OpenedAt[:0], u.OpenedAt...), append(r.CreatedAt[:0], u.CreatedAt...), append(r.UpdatedAt[:0], u.UpdatedAt...)
	hdr := sbe.MessageHeader{BlockLength: r.SbeBlockLength(), TemplateId: r.SbeTemplateId(), SchemaId: r.SbeSchemaId(), Version: r.SbeSchemaVersion()}
	c.out.B = stream
	if err := hdr.Encode(c.m, &c.out); err != nil {
		return stream, err
	}
	if err := r.Encode(c.m, &c.out, true); err != nil {
		return stream, err
	}
	return c.out.B, nil
}

// check walks the message at the start of b: header, fixed block, six
// var-data fields each a u32 length and its bytes. It returns the message's length.
func check(b []byte) (int, error) {
	var r sbe.UserResponse
	const header = 8
	if len(b) < header {
		return 0, fmt.Errorf("sbe: %d bytes cannot hold a message header", len(b))
	}
	le := binary.LittleEndian
	block, template, schema := le.Uint16(b), le.Uint16(b[2:]), le.Uint16(b[4:])
	if template != r.SbeTemplateId() || schema != r.SbeSchemaId() || block != r.SbeBlockLength() {
		return 0, fmt.Errorf("sbe: header says template %d, schema %d, block %d; expected UserResponse (%d, %d, %d)",
			template, schema, block, r.SbeTemplateId(), r.SbeSchemaId(), r.SbeBlockLength())
	}
	at := uint64(header) + uint64(block)
	for range 6 {
		if at+4 > uint64(len(b)) {
			return 0, fmt.Errorf("sbe: var-data length at %d overruns %d bytes", at, len(b))
		}
		at += 4 + uint64(le.Uint32(b[at:]))
	}
	if at > uint64(len(b)) {
		return 0, fmt.Errorf("sbe: message of %d bytes, %d left", at, len(b))
	}
	return int(at), nil
}

func (c *userCodec) Decode(stream []byte, s *workload.FieldSink) (int, error) {
	n, err := check(stream)
	if err != nil {
		return 0, err
	}
	c.in.Reset(stream[:n])
	if err := c.hdr.Decode(c.m, &c.in, 0); err != nil {
		return 0, err
	}
	r := &c.rd
	if err := r.Decode(c.m, &c.in, c.hdr.Version, c.hdr.BlockLength, true); err != nil {
		return 0, err
	}
	s.Record()
	s.Int(0, r.Uid)
	s.Text(1, r.Muid)
	s.Text(2, r.Status)
	s.Int(3, r.Tutorial)
	s.Text(4, r.Nickname)
	s.Int(5, r.TotalLoginNum)
	s.Text(6, r.OpenedAt)
	s.Text(7, r.CreatedAt)
	s.Text(8, r.UpdatedAt)
	return n, nil
}
