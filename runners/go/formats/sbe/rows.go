package sbe

import (
	"shootout/codec"
	sbe "shootout/generated/sbe/iex_sbe"
	"shootout/workload"
)

// The tabular rows: the Presence20 bitset says which cells hold a value; an
// absent scalar is written 0, an absent string as empty var data, neither read.

func Mixed() codec.Codec[workload.MixedRow, *workload.FieldSink] {
	return &fieldCodec[workload.MixedRow, sbe.MixedRow, *sbe.MixedRow]{
		m: sbe.NewSbeGoMarshaller(), layout: layout{template: 6, block: 84, varData: 7},
		to: func(r *workload.MixedRow, m *sbe.MixedRow) {
			m.Present = sbe.Presence20{}
			m.F1 = m.F1[:0]
			if r.F1 != nil {
				m.Present[0], m.F1 = true, append(m.F1, *r.F1...)
			}
			m.F2 = 0
			if r.F2 != nil {
				m.Present[1], m.F2 = true, *r.F2
			}
			m.F3 = 0
			if r.F3 != nil {
				m.Present[2], m.F3 = true, *r.F3
			}
			m.F4 = 0
			if r.F4 != nil {
				m.Present[3], m.F4 = true, *r.F4
			}
			m.F5 = m.F5[:0]
			if r.F5 != nil {
				m.Present[4], m.F5 = true, append(m.F5, *r.F5...)
			}
			m.F6 = 0
			if r.F6 != nil {
				m.Present[5], m.F6 = true, *r.F6
			}
			m.F7 = 0
			if r.F7 != nil {
				m.Present[6], m.F7 = true, *r.F7
			}
			m.F8 = 0
			if r.F8 != nil {
				m.Present[7], m.F8 = true, *r.F8
			}
			m.F9 = 0
			if r.F9 != nil {
				m.Present[8], m.F9 = true, *r.F9
			}
			m.F10 = 0
			if r.F10 != nil {
				m.Present[9], m.F10 = true, *r.F10
			}
			m.F11 = 0
			if r.F11 != nil {
				m.Present[10], m.F11 = true, *r.F11
			}
			m.F12 = 0
			if r.F12 != nil {
				m.Present[11], m.F12 = true, *r.F12
			}
			m.F13 = m.F13[:0]
			if r.F13 != nil {
				m.Present[12], m.F13 = true, append(m.F13, *r.F13...)
			}
			m.F14 = m.F14[:0]
			if r.F14 != nil {
				m.Present[13], m.F14 = true, append(m.F14, *r.F14...)
			}
			m.F15 = 0
			if r.F15 != nil {
				m.Present[14], m.F15 = true, *r.F15
			}
			m.F16 = 0
			if r.F16 != nil {
				m.Present[15], m.F16 = true, *r.F16
			}
			m.F17 = 0
			if r.F17 != nil {
				m.Present[16], m.F17 = true, *r.F17
			}
			m.F18 = m.F18[:0]
			if r.F18 != nil {
				m.Present[17], m.F18 = true, append(m.F18, *r.F18...)
			}
			m.F19 = m.F19[:0]
			if r.F19 != nil {
				m.Present[18], m.F19 = true, append(m.F19, *r.F19...)
			}
			m.F20 = m.F20[:0]
			if r.F20 != nil {
				m.Present[19], m.F20 = true, append(m.F20, *r.F20...)
			}
		},
		from: func(m *sbe.MixedRow, s *workload.FieldSink) {
			s.Record()
			if m.Present[0] {
				s.Text(0, m.F1)
			}
			if m.Present[1] {
				s.Float(1, m.F2)
			}
			if m.Present[2] {
				s.Int(2, m.F3)
			}
			if m.Present[3] {
				s.Int(3, int64(m.F4))
			}
			if m.Present[4] {
				s.Text(4, m.F5)
			}
			if m.Present[5] {
				s.Float(5, m.F6)
			}
			if m.Present[6] {
				s.Int(6, m.F7)
			}
			if m.Present[7] {
				s.Int(7, int64(m.F8))
			}
			if m.Present[8] {
				s.Int(8, int64(m.F9))
			}
			if m.Present[9] {
				s.Int(9, m.F10)
			}
			if m.Present[10] {
				s.Float(10, float64(m.F11))
			}
			if m.Present[11] {
				s.Float(11, m.F12)
			}
			if m.Present[12] {
				s.Text(12, m.F13)
			}
			if m.Present[13] {
				s.Text(13, m.F14)
			}
			if m.Present[14] {
				s.Int(14, m.F15)
			}
			if m.Present[15] {
				s.Int(15, int64(m.F16))
			}
			if m.Present[16] {
				s.Int(16, int64(m.F17))
			}
			if m.Present[17] {
				s.Text(17, m.F18)
			}
			if m.Present[18] {
				s.Text(18, m.F19)
			}
			if m.Present[19] {
				s.Text(19, m.F20)
			}
		},
	}
}

func Strings() codec.Codec[workload.StringsRow, *workload.FieldSink] {
	return &fieldCodec[workload.StringsRow, sbe.StringsRow, *sbe.StringsRow]{
		m: sbe.NewSbeGoMarshaller(), layout: layout{template: 7, block: 4, varData: 20},
		to: func(r *workload.StringsRow, m *sbe.StringsRow) {
			m.Present = sbe.Presence20{}
			m.F1 = m.F1[:0]
			if r.F1 != nil {
				m.Present[0], m.F1 = true, append(m.F1, *r.F1...)
			}
			m.F2 = m.F2[:0]
			if r.F2 != nil {
				m.Present[1], m.F2 = true, append(m.F2, *r.F2...)
			}
			m.F3 = m.F3[:0]
			if r.F3 != nil {
				m.Present[2], m.F3 = true, append(m.F3, *r.F3...)
			}
			m.F4 = m.F4[:0]
			if r.F4 != nil {
				m.Present[3], m.F4 = true, append(m.F4, *r.F4...)
			}
			m.F5 = m.F5[:0]
			if r.F5 != nil {
				m.Present[4], m.F5 = true, append(m.F5, *r.F5...)
			}
			m.F6 = m.F6[:0]
			if r.F6 != nil {
				m.Present[5], m.F6 = true, append(m.F6, *r.F6...)
			}
			m.F7 = m.F7[:0]
			if r.F7 != nil {
				m.Present[6], m.F7 = true, append(m.F7, *r.F7...)
			}
			m.F8 = m.F8[:0]
			if r.F8 != nil {
				m.Present[7], m.F8 = true, append(m.F8, *r.F8...)
			}
			m.F9 = m.F9[:0]
			if r.F9 != nil {
				m.Present[8], m.F9 = true, append(m.F9, *r.F9...)
			}
			m.F10 = m.F10[:0]
			if r.F10 != nil {
				m.Present[9], m.F10 = true, append(m.F10, *r.F10...)
			}
			m.F11 = m.F11[:0]
			if r.F11 != nil {
				m.Present[10], m.F11 = true, append(m.F11, *r.F11...)
			}
			m.F12 = m.F12[:0]
			if r.F12 != nil {
				m.Present[11], m.F12 = true, append(m.F12, *r.F12...)
			}
			m.F13 = m.F13[:0]
			if r.F13 != nil {
				m.Present[12], m.F13 = true, append(m.F13, *r.F13...)
			}
			m.F14 = m.F14[:0]
			if r.F14 != nil {
				m.Present[13], m.F14 = true, append(m.F14, *r.F14...)
			}
			m.F15 = m.F15[:0]
			if r.F15 != nil {
				m.Present[14], m.F15 = true, append(m.F15, *r.F15...)
			}
			m.F16 = m.F16[:0]
			if r.F16 != nil {
				m.Present[15], m.F16 = true, append(m.F16, *r.F16...)
			}
			m.F17 = m.F17[:0]
			if r.F17 != nil {
				m.Present[16], m.F17 = true, append(m.F17, *r.F17...)
			}
			m.F18 = m.F18[:0]
			if r.F18 != nil {
				m.Present[17], m.F18 = true, append(m.F18, *r.F18...)
			}
			m.F19 = m.F19[:0]
			if r.F19 != nil {
				m.Present[18], m.F19 = true, append(m.F19, *r.F19...)
			}
			m.F20 = m.F20[:0]
			if r.F20 != nil {
				m.Present[19], m.F20 = true, append(m.F20, *r.F20...)
			}
		},
		from: func(m *sbe.StringsRow, s *workload.FieldSink) {
			s.Record()
			if m.Present[0] {
				s.Text(0, m.F1)
			}
			if m.Present[1] {
				s.Text(1, m.F2)
			}
			if m.Present[2] {
				s.Text(2, m.F3)
			}
			if m.Present[3] {
				s.Text(3, m.F4)
			}
			if m.Present[4] {
				s.Text(4, m.F5)
			}
			if m.Present[5] {
				s.Text(5, m.F6)
			}
			if m.Present[6] {
				s.Text(6, m.F7)
			}
			if m.Present[7] {
				s.Text(7, m.F8)
			}
			if m.Present[8] {
				s.Text(8, m.F9)
			}
			if m.Present[9] {
				s.Text(9, m.F10)
			}
			if m.Present[10] {
				s.Text(10, m.F11)
			}
			if m.Present[11] {
				s.Text(11, m.F12)
			}
			if m.Present[12] {
				s.Text(12, m.F13)
			}
			if m.Present[13] {
				s.Text(13, m.F14)
			}
			if m.Present[14] {
				s.Text(14, m.F15)
			}
			if m.Present[15] {
				s.Text(15, m.F16)
			}
			if m.Present[16] {
				s.Text(16, m.F17)
			}
			if m.Present[17] {
				s.Text(17, m.F18)
			}
			if m.Present[18] {
				s.Text(18, m.F19)
			}
			if m.Present[19] {
				s.Text(19, m.F20)
			}
		},
	}
}

func Longs() codec.Codec[workload.LongsRow, *workload.FieldSink] {
	return &fieldCodec[workload.LongsRow, sbe.LongsRow, *sbe.LongsRow]{
		m: sbe.NewSbeGoMarshaller(), layout: layout{template: 8, block: 164, varData: 0},
		to: func(r *workload.LongsRow, m *sbe.LongsRow) {
			m.Present = sbe.Presence20{}
			m.F1 = 0
			if r.F1 != nil {
				m.Present[0], m.F1 = true, *r.F1
			}
			m.F2 = 0
			if r.F2 != nil {
				m.Present[1], m.F2 = true, *r.F2
			}
			m.F3 = 0
			if r.F3 != nil {
				m.Present[2], m.F3 = true, *r.F3
			}
			m.F4 = 0
			if r.F4 != nil {
				m.Present[3], m.F4 = true, *r.F4
			}
			m.F5 = 0
			if r.F5 != nil {
				m.Present[4], m.F5 = true, *r.F5
			}
			m.F6 = 0
			if r.F6 != nil {
				m.Present[5], m.F6 = true, *r.F6
			}
			m.F7 = 0
			if r.F7 != nil {
				m.Present[6], m.F7 = true, *r.F7
			}
			m.F8 = 0
			if r.F8 != nil {
				m.Present[7], m.F8 = true, *r.F8
			}
			m.F9 = 0
			if r.F9 != nil {
				m.Present[8], m.F9 = true, *r.F9
			}
			m.F10 = 0
			if r.F10 != nil {
				m.Present[9], m.F10 = true, *r.F10
			}
			m.F11 = 0
			if r.F11 != nil {
				m.Present[10], m.F11 = true, *r.F11
			}
			m.F12 = 0
			if r.F12 != nil {
				m.Present[11], m.F12 = true, *r.F12
			}
			m.F13 = 0
			if r.F13 != nil {
				m.Present[12], m.F13 = true, *r.F13
			}
			m.F14 = 0
			if r.F14 != nil {
				m.Present[13], m.F14 = true, *r.F14
			}
			m.F15 = 0
			if r.F15 != nil {
				m.Present[14], m.F15 = true, *r.F15
			}
			m.F16 = 0
			if r.F16 != nil {
				m.Present[15], m.F16 = true, *r.F16
			}
			m.F17 = 0
			if r.F17 != nil {
				m.Present[16], m.F17 = true, *r.F17
			}
			m.F18 = 0
			if r.F18 != nil {
				m.Present[17], m.F18 = true, *r.F18
			}
			m.F19 = 0
			if r.F19 != nil {
				m.Present[18], m.F19 = true, *r.F19
			}
			m.F20 = 0
			if r.F20 != nil {
				m.Present[19], m.F20 = true, *r.F20
			}
		},
		from: func(m *sbe.LongsRow, s *workload.FieldSink) {
			s.Record()
			if m.Present[0] {
				s.Int(0, m.F1)
			}
			if m.Present[1] {
				s.Int(1, m.F2)
			}
			if m.Present[2] {
				s.Int(2, m.F3)
			}
			if m.Present[3] {
				s.Int(3, m.F4)
			}
			if m.Present[4] {
				s.Int(4, m.F5)
			}
			if m.Present[5] {
				s.Int(5, m.F6)
			}
			if m.Present[6] {
				s.Int(6, m.F7)
			}
			if m.Present[7] {
				s.Int(7, m.F8)
			}
			if m.Present[8] {
				s.Int(8, m.F9)
			}
			if m.Present[9] {
				s.Int(9, m.F10)
			}
			if m.Present[10] {
				s.Int(10, m.F11)
			}
			if m.Present[11] {
				s.Int(11, m.F12)
			}
			if m.Present[12] {
				s.Int(12, m.F13)
			}
			if m.Present[13] {
				s.Int(13, m.F14)
			}
			if m.Present[14] {
				s.Int(14, m.F15)
			}
			if m.Present[15] {
				s.Int(15, m.F16)
			}
			if m.Present[16] {
				s.Int(16, m.F17)
			}
			if m.Present[17] {
				s.Int(17, m.F18)
			}
			if m.Present[18] {
				s.Int(18, m.F19)
			}
			if m.Present[19] {
				s.Int(19, m.F20)
			}
		},
	}
}
