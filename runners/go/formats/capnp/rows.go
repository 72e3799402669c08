package capnp

import (
	"capnproto.org/go/capnp/v3"

	"shootout/generated/capnp/records"
	"shootout/workload"
)

// The tabular rows: a text cell is present when its pointer is non-null, a
// scalar cell when its bit (1 << i) is set in present (records.capnp).

var MixedUnpacked, MixedPacked = both(
	func(seg *capnp.Segment, r *workload.MixedRow) error {
		m, err := records.NewRootMixedRow(seg)
		if err != nil {
			return err
		}
		var present uint32
		if r.F1 != nil {
			if err := m.SetF1(*r.F1); err != nil {
				return err
			}
		}
		if r.F2 != nil {
			m.SetF2(*r.F2)
			present |= 1 << 1
		}
		if r.F3 != nil {
			m.SetF3(*r.F3)
			present |= 1 << 2
		}
		if r.F4 != nil {
			m.SetF4(*r.F4)
			present |= 1 << 3
		}
		if r.F5 != nil {
			if err := m.SetF5(*r.F5); err != nil {
				return err
			}
		}
		if r.F6 != nil {
			m.SetF6(*r.F6)
			present |= 1 << 5
		}
		if r.F7 != nil {
			m.SetF7(*r.F7)
			present |= 1 << 6
		}
		if r.F8 != nil {
			m.SetF8(*r.F8)
			present |= 1 << 7
		}
		if r.F9 != nil {
			m.SetF9(*r.F9)
			present |= 1 << 8
		}
		if r.F10 != nil {
			m.SetF10(*r.F10)
			present |= 1 << 9
		}
		if r.F11 != nil {
			m.SetF11(*r.F11)
			present |= 1 << 10
		}
		if r.F12 != nil {
			m.SetF12(*r.F12)
			present |= 1 << 11
		}
		if r.F13 != nil {
			if err := m.SetF13(*r.F13); err != nil {
				return err
			}
		}
		if r.F14 != nil {
			if err := m.SetF14(*r.F14); err != nil {
				return err
			}
		}
		if r.F15 != nil {
			m.SetF15(*r.F15)
			present |= 1 << 14
		}
		if r.F16 != nil {
			m.SetF16(*r.F16)
			present |= 1 << 15
		}
		if r.F17 != nil {
			m.SetF17(*r.F17)
			present |= 1 << 16
		}
		if r.F18 != nil {
			if err := m.SetF18(*r.F18); err != nil {
				return err
			}
		}
		if r.F19 != nil {
			if err := m.SetF19(*r.F19); err != nil {
				return err
			}
		}
		if r.F20 != nil {
			if err := m.SetF20(*r.F20); err != nil {
				return err
			}
		}
		m.SetPresent(present)
		return nil
	},
	func(msg *capnp.Message, s *workload.FieldSink) error {
		m, err := records.ReadRootMixedRow(msg)
		if err != nil {
			return err
		}
		s.Record()
		present := m.Present()
		if m.HasF1() {
			b, err := m.F1Bytes()
			if err != nil {
				return err
			}
			s.Text(0, b)
		}
		if present&(1<<1) != 0 {
			s.Float(1, m.F2())
		}
		if present&(1<<2) != 0 {
			s.Int(2, m.F3())
		}
		if present&(1<<3) != 0 {
			s.Int(3, int64(m.F4()))
		}
		if m.HasF5() {
			b, err := m.F5Bytes()
			if err != nil {
				return err
			}
			s.Text(4, b)
		}
		if present&(1<<5) != 0 {
			s.Float(5, m.F6())
		}
		if present&(1<<6) != 0 {
			s.Int(6, m.F7())
		}
		if present&(1<<7) != 0 {
			s.Int(7, int64(m.F8()))
		}
		if present&(1<<8) != 0 {
			s.Int(8, int64(m.F9()))
		}
		if present&(1<<9) != 0 {
			s.Int(9, m.F10())
		}
		if present&(1<<10) != 0 {
			s.Float(10, float64(m.F11()))
		}
		if present&(1<<11) != 0 {
			s.Float(11, m.F12())
		}
		if m.HasF13() {
			b, err := m.F13Bytes()
			if err != nil {
				return err
			}
			s.Text(12, b)
		}
		if m.HasF14() {
			b, err := m.F14Bytes()
			if err != nil {
				return err
			}
			s.Text(13, b)
		}
		if present&(1<<14) != 0 {
			s.Int(14, m.F15())
		}
		if present&(1<<15) != 0 {
			s.Int(15, int64(m.F16()))
		}
		if present&(1<<16) != 0 {
			s.Int(16, int64(m.F17()))
		}
		if m.HasF18() {
			b, err := m.F18Bytes()
			if err != nil {
				return err
			}
			s.Text(17, b)
		}
		if m.HasF19() {
			b, err := m.F19Bytes()
			if err != nil {
				return err
			}
			s.Text(18, b)
		}
		if m.HasF20() {
			b, err := m.F20Bytes()
			if err != nil {
				return err
			}
			s.Text(19, b)
		}
		return nil
	})

var StringsUnpacked, StringsPacked = both(
	func(seg *capnp.Segment, r *workload.StringsRow) error {
		m, err := records.NewRootStringsRow(seg)
		if err != nil {
			return err
		}
		if r.F1 != nil {
			if err := m.SetF1(*r.F1); err != nil {
				return err
			}
		}
		if r.F2 != nil {
			if err := m.SetF2(*r.F2); err != nil {
				return err
			}
		}
		if r.F3 != nil {
			if err := m.SetF3(*r.F3); err != nil {
				return err
			}
		}
		if r.F4 != nil {
			if err := m.SetF4(*r.F4); err != nil {
				return err
			}
		}
		if r.F5 != nil {
			if err := m.SetF5(*r.F5); err != nil {
				return err
			}
		}
		if r.F6 != nil {
			if err := m.SetF6(*r.F6); err != nil {
				return err
			}
		}
		if r.F7 != nil {
			if err := m.SetF7(*r.F7); err != nil {
				return err
			}
		}
		if r.F8 != nil {
			if err := m.SetF8(*r.F8); err != nil {
				return err
			}
		}
		if r.F9 != nil {
			if err := m.SetF9(*r.F9); err != nil {
				return err
			}
		}
		if r.F10 != nil {
			if err := m.SetF10(*r.F10); err != nil {
				return err
			}
		}
		if r.F11 != nil {
			if err := m.SetF11(*r.F11); err != nil {
				return err
			}
		}
		if r.F12 != nil {
			if err := m.SetF12(*r.F12); err != nil {
				return err
			}
		}
		if r.F13 != nil {
			if err := m.SetF13(*r.F13); err != nil {
				return err
			}
		}
		if r.F14 != nil {
			if err := m.SetF14(*r.F14); err != nil {
				return err
			}
		}
		if r.F15 != nil {
			if err := m.SetF15(*r.F15); err != nil {
				return err
			}
		}
		if r.F16 != nil {
			if err := m.SetF16(*r.F16); err != nil {
				return err
			}
		}
		if r.F17 != nil {
			if err := m.SetF17(*r.F17); err != nil {
				return err
			}
		}
		if r.F18 != nil {
			if err := m.SetF18(*r.F18); err != nil {
				return err
			}
		}
		if r.F19 != nil {
			if err := m.SetF19(*r.F19); err != nil {
				return err
			}
		}
		if r.F20 != nil {
			if err := m.SetF20(*r.F20); err != nil {
				return err
			}
		}
		return nil
	},
	func(msg *capnp.Message, s *workload.FieldSink) error {
		m, err := records.ReadRootStringsRow(msg)
		if err != nil {
			return err
		}
		s.Record()
		if m.HasF1() {
			b, err := m.F1Bytes()
			if err != nil {
				return err
			}
			s.Text(0, b)
		}
		if m.HasF2() {
			b, err := m.F2Bytes()
			if err != nil {
				return err
			}
			s.Text(1, b)
		}
		if m.HasF3() {
			b, err := m.F3Bytes()
			if err != nil {
				return err
			}
			s.Text(2, b)
		}
		if m.HasF4() {
			b, err := m.F4Bytes()
			if err != nil {
				return err
			}
			s.Text(3, b)
		}
		if m.HasF5() {
			b, err := m.F5Bytes()
			if err != nil {
				return err
			}
			s.Text(4, b)
		}
		if m.HasF6() {
			b, err := m.F6Bytes()
			if err != nil {
				return err
			}
			s.Text(5, b)
		}
		if m.HasF7() {
			b, err := m.F7Bytes()
			if err != nil {
				return err
			}
			s.Text(6, b)
		}
		if m.HasF8() {
			b, err := m.F8Bytes()
			if err != nil {
				return err
			}
			s.Text(7, b)
		}
		if m.HasF9() {
			b, err := m.F9Bytes()
			if err != nil {
				return err
			}
			s.Text(8, b)
		}
		if m.HasF10() {
			b, err := m.F10Bytes()
			if err != nil {
				return err
			}
			s.Text(9, b)
		}
		if m.HasF11() {
			b, err := m.F11Bytes()
			if err != nil {
				return err
			}
			s.Text(10, b)
		}
		if m.HasF12() {
			b, err := m.F12Bytes()
			if err != nil {
				return err
			}
			s.Text(11, b)
		}
		if m.HasF13() {
			b, err := m.F13Bytes()
			if err != nil {
				return err
			}
			s.Text(12, b)
		}
		if m.HasF14() {
			b, err := m.F14Bytes()
			if err != nil {
				return err
			}
			s.Text(13, b)
		}
		if m.HasF15() {
			b, err := m.F15Bytes()
			if err != nil {
				return err
			}
			s.Text(14, b)
		}
		if m.HasF16() {
			b, err := m.F16Bytes()
			if err != nil {
				return err
			}
			s.Text(15, b)
		}
		if m.HasF17() {
			b, err := m.F17Bytes()
			if err != nil {
				return err
			}
			s.Text(16, b)
		}
		if m.HasF18() {
			b, err := m.F18Bytes()
			if err != nil {
				return err
			}
			s.Text(17, b)
		}
		if m.HasF19() {
			b, err := m.F19Bytes()
			if err != nil {
				return err
			}
			s.Text(18, b)
		}
		if m.HasF20() {
			b, err := m.F20Bytes()
			if err != nil {
				return err
			}
			s.Text(19, b)
		}
		return nil
	})

var LongsUnpacked, LongsPacked = both(
	func(seg *capnp.Segment, r *workload.LongsRow) error {
		m, err := records.NewRootLongsRow(seg)
		if err != nil {
			return err
		}
		var present uint32
		if r.F1 != nil {
			m.SetF1(*r.F1)
			present |= 1 << 0
		}
		if r.F2 != nil {
			m.SetF2(*r.F2)
			present |= 1 << 1
		}
		if r.F3 != nil {
			m.SetF3(*r.F3)
			present |= 1 << 2
		}
		if r.F4 != nil {
			m.SetF4(*r.F4)
			present |= 1 << 3
		}
		if r.F5 != nil {
			m.SetF5(*r.F5)
			present |= 1 << 4
		}
		if r.F6 != nil {
			m.SetF6(*r.F6)
			present |= 1 << 5
		}
		if r.F7 != nil {
			m.SetF7(*r.F7)
			present |= 1 << 6
		}
		if r.F8 != nil {
			m.SetF8(*r.F8)
			present |= 1 << 7
		}
		if r.F9 != nil {
			m.SetF9(*r.F9)
			present |= 1 << 8
		}
		if r.F10 != nil {
			m.SetF10(*r.F10)
			present |= 1 << 9
		}
		if r.F11 != nil {
			m.SetF11(*r.F11)
			present |= 1 << 10
		}
		if r.F12 != nil {
			m.SetF12(*r.F12)
			present |= 1 << 11
		}
		if r.F13 != nil {
			m.SetF13(*r.F13)
			present |= 1 << 12
		}
		if r.F14 != nil {
			m.SetF14(*r.F14)
			present |= 1 << 13
		}
		if r.F15 != nil {
			m.SetF15(*r.F15)
			present |= 1 << 14
		}
		if r.F16 != nil {
			m.SetF16(*r.F16)
			present |= 1 << 15
		}
		if r.F17 != nil {
			m.SetF17(*r.F17)
			present |= 1 << 16
		}
		if r.F18 != nil {
			m.SetF18(*r.F18)
			present |= 1 << 17
		}
		if r.F19 != nil {
			m.SetF19(*r.F19)
			present |= 1 << 18
		}
		if r.F20 != nil {
			m.SetF20(*r.F20)
			present |= 1 << 19
		}
		m.SetPresent(present)
		return nil
	},
	func(msg *capnp.Message, s *workload.FieldSink) error {
		m, err := records.ReadRootLongsRow(msg)
		if err != nil {
			return err
		}
		s.Record()
		present := m.Present()
		if present&(1<<0) != 0 {
			s.Int(0, m.F1())
		}
		if present&(1<<1) != 0 {
			s.Int(1, m.F2())
		}
		if present&(1<<2) != 0 {
			s.Int(2, m.F3())
		}
		if present&(1<<3) != 0 {
			s.Int(3, m.F4())
		}
		if present&(1<<4) != 0 {
			s.Int(4, m.F5())
		}
		if present&(1<<5) != 0 {
			s.Int(5, m.F6())
		}
		if present&(1<<6) != 0 {
			s.Int(6, m.F7())
		}
		if present&(1<<7) != 0 {
			s.Int(7, m.F8())
		}
		if present&(1<<8) != 0 {
			s.Int(8, m.F9())
		}
		if present&(1<<9) != 0 {
			s.Int(9, m.F10())
		}
		if present&(1<<10) != 0 {
			s.Int(10, m.F11())
		}
		if present&(1<<11) != 0 {
			s.Int(11, m.F12())
		}
		if present&(1<<12) != 0 {
			s.Int(12, m.F13())
		}
		if present&(1<<13) != 0 {
			s.Int(13, m.F14())
		}
		if present&(1<<14) != 0 {
			s.Int(14, m.F15())
		}
		if present&(1<<15) != 0 {
			s.Int(15, m.F16())
		}
		if present&(1<<16) != 0 {
			s.Int(16, m.F17())
		}
		if present&(1<<17) != 0 {
			s.Int(17, m.F18())
		}
		if present&(1<<18) != 0 {
			s.Int(18, m.F19())
		}
		if present&(1<<19) != 0 {
			s.Int(19, m.F20())
		}
		return nil
	})
