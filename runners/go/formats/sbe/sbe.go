// Package sbe is Simple Binary Encoding with sbe-tool's Go output
// (generated/sbe/iex_sbe), a self-contained package: no library version but
// the generator's.
package sbe

import (
	"shootout/codec"
	sbe "shootout/generated/sbe/iex_sbe"
	"shootout/workload"
)

var Info = codec.Info{
	Name: "sbe", Family: "SBE (Simple Binary Encoding)", Library: "sbe-tool",
	Framing: codec.FramingNone, Wire: "sbe", Labels: codec.OwnedGenerated,
	Notes: "sbe-tool's Go codecs read and write through io.Reader/io.Writer into a struct (var data copied into reused byte slices); " +
		"the SBE message header is the framing; iex symbols are space-padded to 8 bytes and trimmed on read (a symbol ending in a space would lose it). Before decoding, the codec checks the header and every var-data length against the bytes left, " +
		"as the generated code would otherwise allocate whatever length a corrupt buffer claims. " +
		"Range checks are on: SBE reserves each type's null value (u8 255, i32 -2^31, i64 -2^63, u64 2^64-1), so a required field holding one fails to encode",
}

func User() codec.Codec[workload.User, *workload.FieldSink] {
	return newFieldCodec(nil, 6,
		func(u *workload.User, r *sbe.UserResponse) {
			r.Uid, r.Tutorial, r.TotalLoginNum = u.UID, u.Tutorial, u.TotalLoginNum
			r.Muid, r.Status, r.Nickname = append(r.Muid[:0], u.MUID...), append(r.Status[:0], u.Status...), append(r.Nickname[:0], u.Nickname...)
			r.OpenedAt, r.CreatedAt, r.UpdatedAt = append(r.OpenedAt[:0], u.OpenedAt...), append(r.CreatedAt[:0], u.CreatedAt...), append(r.UpdatedAt[:0], u.UpdatedAt...)
		},
		func(r *sbe.UserResponse, s *workload.FieldSink) {
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
		})
}
