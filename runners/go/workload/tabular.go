package workload

// The tabular workloads (crates/shootout/src/workload/tabular/mod.rs): 20
// optional cells f1..f20, nil = absent. A present cell is one value of its
// field.

type MixedRow struct {
	F1  *string  `json:"f1" msgpack:"f1" cbor:"f1"`
	F2  *float64 `json:"f2" msgpack:"f2" cbor:"f2"`
	F3  *int64   `json:"f3" msgpack:"f3" cbor:"f3"`
	F4  *int32   `json:"f4" msgpack:"f4" cbor:"f4"`
	F5  *string  `json:"f5" msgpack:"f5" cbor:"f5"`
	F6  *float64 `json:"f6" msgpack:"f6" cbor:"f6"`
	F7  *int64   `json:"f7" msgpack:"f7" cbor:"f7"`
	F8  *int32   `json:"f8" msgpack:"f8" cbor:"f8"`
	F9  *int32   `json:"f9" msgpack:"f9" cbor:"f9"`
	F10 *int64   `json:"f10" msgpack:"f10" cbor:"f10"`
	F11 *float32 `json:"f11" msgpack:"f11" cbor:"f11"`
	F12 *float64 `json:"f12" msgpack:"f12" cbor:"f12"`
	F13 *string  `json:"f13" msgpack:"f13" cbor:"f13"`
	F14 *string  `json:"f14" msgpack:"f14" cbor:"f14"`
	F15 *int64   `json:"f15" msgpack:"f15" cbor:"f15"`
	F16 *int32   `json:"f16" msgpack:"f16" cbor:"f16"`
	F17 *int32   `json:"f17" msgpack:"f17" cbor:"f17"`
	F18 *string  `json:"f18" msgpack:"f18" cbor:"f18"`
	F19 *string  `json:"f19" msgpack:"f19" cbor:"f19"`
	F20 *string  `json:"f20" msgpack:"f20" cbor:"f20"`
}

func (r *MixedRow) Visit(s *FieldSink) {
	s.Record()
	if r.F1 != nil {
		s.String(0, *r.F1)
	}
	if r.F2 != nil {
		s.Float(1, *r.F2)
	}
	if r.F3 != nil {
		s.Int(2, *r.F3)
	}
	if r.F4 != nil {
		s.Int(3, int64(*r.F4))
	}
	if r.F5 != nil {
		s.String(4, *r.F5)
	}
	if r.F6 != nil {
		s.Float(5, *r.F6)
	}
	if r.F7 != nil {
		s.Int(6, *r.F7)
	}
	if r.F8 != nil {
		s.Int(7, int64(*r.F8))
	}
	if r.F9 != nil {
		s.Int(8, int64(*r.F9))
	}
	if r.F10 != nil {
		s.Int(9, *r.F10)
	}
	if r.F11 != nil {
		s.Float(10, float64(*r.F11))
	}
	if r.F12 != nil {
		s.Float(11, *r.F12)
	}
	if r.F13 != nil {
		s.String(12, *r.F13)
	}
	if r.F14 != nil {
		s.String(13, *r.F14)
	}
	if r.F15 != nil {
		s.Int(14, *r.F15)
	}
	if r.F16 != nil {
		s.Int(15, int64(*r.F16))
	}
	if r.F17 != nil {
		s.Int(16, int64(*r.F17))
	}
	if r.F18 != nil {
		s.String(17, *r.F18)
	}
	if r.F19 != nil {
		s.String(18, *r.F19)
	}
	if r.F20 != nil {
		s.String(19, *r.F20)
	}
}

type StringsRow struct {
	F1  *string `json:"f1" msgpack:"f1" cbor:"f1"`
	F2  *string `json:"f2" msgpack:"f2" cbor:"f2"`
	F3  *string `json:"f3" msgpack:"f3" cbor:"f3"`
	F4  *string `json:"f4" msgpack:"f4" cbor:"f4"`
	F5  *string `json:"f5" msgpack:"f5" cbor:"f5"`
	F6  *string `json:"f6" msgpack:"f6" cbor:"f6"`
	F7  *string `json:"f7" msgpack:"f7" cbor:"f7"`
	F8  *string `json:"f8" msgpack:"f8" cbor:"f8"`
	F9  *string `json:"f9" msgpack:"f9" cbor:"f9"`
	F10 *string `json:"f10" msgpack:"f10" cbor:"f10"`
	F11 *string `json:"f11" msgpack:"f11" cbor:"f11"`
	F12 *string `json:"f12" msgpack:"f12" cbor:"f12"`
	F13 *string `json:"f13" msgpack:"f13" cbor:"f13"`
	F14 *string `json:"f14" msgpack:"f14" cbor:"f14"`
	F15 *string `json:"f15" msgpack:"f15" cbor:"f15"`
	F16 *string `json:"f16" msgpack:"f16" cbor:"f16"`
	F17 *string `json:"f17" msgpack:"f17" cbor:"f17"`
	F18 *string `json:"f18" msgpack:"f18" cbor:"f18"`
	F19 *string `json:"f19" msgpack:"f19" cbor:"f19"`
	F20 *string `json:"f20" msgpack:"f20" cbor:"f20"`
}

func (r *StringsRow) Visit(s *FieldSink) {
	s.Record()
	if r.F1 != nil {
		s.String(0, *r.F1)
	}
	if r.F2 != nil {
		s.String(1, *r.F2)
	}
	if r.F3 != nil {
		s.String(2, *r.F3)
	}
	if r.F4 != nil {
		s.String(3, *r.F4)
	}
	if r.F5 != nil {
		s.String(4, *r.F5)
	}
	if r.F6 != nil {
		s.String(5, *r.F6)
	}
	if r.F7 != nil {
		s.String(6, *r.F7)
	}
	if r.F8 != nil {
		s.String(7, *r.F8)
	}
	if r.F9 != nil {
		s.String(8, *r.F9)
	}
	if r.F10 != nil {
		s.String(9, *r.F10)
	}
	if r.F11 != nil {
		s.String(10, *r.F11)
	}
	if r.F12 != nil {
		s.String(11, *r.F12)
	}
	if r.F13 != nil {
		s.String(12, *r.F13)
	}
	if r.F14 != nil {
		s.String(13, *r.F14)
	}
	if r.F15 != nil {
		s.String(14, *r.F15)
	}
	if r.F16 != nil {
		s.String(15, *r.F16)
	}
	if r.F17 != nil {
		s.String(16, *r.F17)
	}
	if r.F18 != nil {
		s.String(17, *r.F18)
	}
	if r.F19 != nil {
		s.String(18, *r.F19)
	}
	if r.F20 != nil {
		s.String(19, *r.F20)
	}
}

type LongsRow struct {
	F1  *int64 `json:"f1" msgpack:"f1" cbor:"f1"`
	F2  *int64 `json:"f2" msgpack:"f2" cbor:"f2"`
	F3  *int64 `json:"f3" msgpack:"f3" cbor:"f3"`
	F4  *int64 `json:"f4" msgpack:"f4" cbor:"f4"`
	F5  *int64 `json:"f5" msgpack:"f5" cbor:"f5"`
	F6  *int64 `json:"f6" msgpack:"f6" cbor:"f6"`
	F7  *int64 `json:"f7" msgpack:"f7" cbor:"f7"`
	F8  *int64 `json:"f8" msgpack:"f8" cbor:"f8"`
	F9  *int64 `json:"f9" msgpack:"f9" cbor:"f9"`
	F10 *int64 `json:"f10" msgpack:"f10" cbor:"f10"`
	F11 *int64 `json:"f11" msgpack:"f11" cbor:"f11"`
	F12 *int64 `json:"f12" msgpack:"f12" cbor:"f12"`
	F13 *int64 `json:"f13" msgpack:"f13" cbor:"f13"`
	F14 *int64 `json:"f14" msgpack:"f14" cbor:"f14"`
	F15 *int64 `json:"f15" msgpack:"f15" cbor:"f15"`
	F16 *int64 `json:"f16" msgpack:"f16" cbor:"f16"`
	F17 *int64 `json:"f17" msgpack:"f17" cbor:"f17"`
	F18 *int64 `json:"f18" msgpack:"f18" cbor:"f18"`
	F19 *int64 `json:"f19" msgpack:"f19" cbor:"f19"`
	F20 *int64 `json:"f20" msgpack:"f20" cbor:"f20"`
}

func (r *LongsRow) Visit(s *FieldSink) {
	s.Record()
	if r.F1 != nil {
		s.Int(0, *r.F1)
	}
	if r.F2 != nil {
		s.Int(1, *r.F2)
	}
	if r.F3 != nil {
		s.Int(2, *r.F3)
	}
	if r.F4 != nil {
		s.Int(3, *r.F4)
	}
	if r.F5 != nil {
		s.Int(4, *r.F5)
	}
	if r.F6 != nil {
		s.Int(5, *r.F6)
	}
	if r.F7 != nil {
		s.Int(6, *r.F7)
	}
	if r.F8 != nil {
		s.Int(7, *r.F8)
	}
	if r.F9 != nil {
		s.Int(8, *r.F9)
	}
	if r.F10 != nil {
		s.Int(9, *r.F10)
	}
	if r.F11 != nil {
		s.Int(10, *r.F11)
	}
	if r.F12 != nil {
		s.Int(11, *r.F12)
	}
	if r.F13 != nil {
		s.Int(12, *r.F13)
	}
	if r.F14 != nil {
		s.Int(13, *r.F14)
	}
	if r.F15 != nil {
		s.Int(14, *r.F15)
	}
	if r.F16 != nil {
		s.Int(15, *r.F16)
	}
	if r.F17 != nil {
		s.Int(16, *r.F17)
	}
	if r.F18 != nil {
		s.Int(17, *r.F18)
	}
	if r.F19 != nil {
		s.Int(18, *r.F19)
	}
	if r.F20 != nil {
		s.Int(19, *r.F20)
	}
}

// TabularFields are the tabular workloads' field names.
var TabularFields = []string{"f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12", "f13", "f14", "f15", "f16", "f17", "f18", "f19", "f20"}

var (
	MixedSpec   = FieldSpec("mixed", TabularFields, (*MixedRow).Visit)
	StringsSpec = FieldSpec("strings", TabularFields, (*StringsRow).Visit)
	LongsSpec   = FieldSpec("longs", TabularFields, (*LongsRow).Visit)
)
