// Package flatbuf is github.com/google/flatbuffers/go with flatc-generated
// accessors (generated/flatbuffers), size-prefixed buffers as the framing.
package flatbuf

import (
	"errors"

	flatbuffers "github.com/google/flatbuffers/go"

	"shootout/codec"
	"shootout/generated/flatbuffers/shootout/records"
	"shootout/workload"
)

var (
	Info = codec.Info{
		Name: "flatbuffers", Family: "FlatBuffers", Library: "github.com/google/flatbuffers",
		Framing: codec.FramingU32LE, Wire: "flatbuffers", Labels: codec.ZeroCopyGenerated,
		Notes: "one reused Builder, size-prefixed buffers; fields read in place, strings handed to the aggregate as views of the stream. " +
			"The Go library has no verifier, so the codec checks every offset it will follow (verify.go) before reading",
	}
	CopyInfo = codec.Info{
		Name: "flatbuffers-copy", Family: "FlatBuffers", Library: "github.com/google/flatbuffers",
		Framing: codec.FramingU32LE, Wire: "flatbuffers", Labels: codec.OwnedGenerated,
		Notes: "as flatbuffers, but every field is copied into the application's own struct before use: the Go study's 'unmarshal' (read in place instead)",
	}
)

var (
	long, text = field{kind: inline, size: 8}, field{kind: str, required: true}
	userFields = []field{long, text, text, long, text, long, text, text, text}
)

var errNoBody = errors.New("flatbuffers: message without a body")

type userCodec struct {
	b    *flatbuffers.Builder
	copy bool
	own  workload.User
}

func UserInPlace() codec.Codec[workload.User, *workload.FieldSink] {
	return &userCodec{b: flatbuffers.NewBuilder(256)}
}

func UserCopy() codec.Codec[workload.User, *workload.FieldSink] {
	return &userCodec{b: flatbuffers.NewBuilder(256), copy: true}
}

// buildUser writes u into b (reset first) as a size-prefixed buffer.
func buildUser(b *flatbuffers.Builder, u *workload.User) []byte {
	b.Reset()
	b.FinishSizePrefixed(UserTable(b, u))
	return b.FinishedBytes()
}

// UserTable writes u's table into b and returns its offset, for the caller to finish.
func UserTable(b *flatbuffers.Builder, u *workload.User) flatbuffers.UOffsetT {
	muid, status, nick := b.CreateString(u.MUID), b.CreateString(u.Status), b.CreateString(u.Nickname)
	opened, created, updated := b.CreateString(u.OpenedAt), b.CreateString(u.CreatedAt), b.CreateString(u.UpdatedAt)
	records.UserResponseStart(b)
	records.UserResponseAddUid(b, u.UID)
	records.UserResponseAddMuid(b, muid)
	records.UserResponseAddStatus(b, status)
	records.UserResponseAddTutorial(b, u.Tutorial)
	records.UserResponseAddNickname(b, nick)
	records.UserResponseAddTotalLoginNum(b, u.TotalLoginNum)
	records.UserResponseAddOpenedAt(b, opened)
	records.UserResponseAddCreatedAt(b, created)
	records.UserResponseAddUpdatedAt(b, updated)
	return records.UserResponseEnd(b)
}

// CopyUser copies a read-in-place record into the application's struct.
func CopyUser(r *records.UserResponse, u *workload.User) {
	*u = workload.User{
		UID: r.Uid(), MUID: string(r.Muid()), Status: string(r.Status()), Tutorial: r.Tutorial(),
		Nickname: string(r.Nickname()), TotalLoginNum: r.TotalLoginNum(),
		OpenedAt: string(r.OpenedAt()), CreatedAt: string(r.CreatedAt()), UpdatedAt: string(r.UpdatedAt()),
	}
}

func (c *userCodec) Encode(stream []byte, u *workload.User) ([]byte, error) {
	return append(stream, buildUser(c.b, u)...), nil
}

func (c *userCodec) Decode(stream []byte, s *workload.FieldSink) (int, error) {
	buf, pos, used, err := root(stream)
	if err != nil {
		return 0, err
	}
	if err := verifyTable(buf, pos, userFields); err != nil {
		return 0, err
	}
	var r records.UserResponse
	r.Init(buf, flatbuffers.UOffsetT(pos))
	if c.copy {
		CopyUser(&r, &c.own)
		c.own.Visit(s)
		return used, nil
	}
	s.Record()
	s.Int(0, r.Uid())
	s.Text(1, r.Muid())
	s.Text(2, r.Status())
	s.Int(3, r.Tutorial())
	s.Text(4, r.Nickname())
	s.Int(5, r.TotalLoginNum())
	s.Text(6, r.OpenedAt())
	s.Text(7, r.CreatedAt())
	s.Text(8, r.UpdatedAt())
	return used, nil
}
