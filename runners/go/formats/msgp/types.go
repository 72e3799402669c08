package msgp

// userMsg has workload.User's fields exactly, so a *workload.User converts to
// a *userMsg for free; msgp generates its methods (types_gen.go) from this
// declaration, MessagePack having no schema language of its own.
type userMsg struct {
	UID           int64  `msg:"uid"`
	MUID          string `msg:"muid"`
	Status        string `msg:"status"`
	Tutorial      int64  `msg:"tutorial"`
	Nickname      string `msg:"nickname"`
	TotalLoginNum int64  `msg:"total_login_num"`
	OpenedAt      string `msg:"opened_at"`
	CreatedAt     string `msg:"created_at"`
	UpdatedAt     string `msg:"updated_at"`
}

// multiMsg and message are workload.MultiMessage in serde's shape (as
// rmp-serde writes it with struct maps, crates/shootout/src/workload/iex/record.rs):
// a record's messages are copied into a reused []message. body and side
// (body.go) have methods written by hand, which the generated code calls.
type multiMsg struct {
	SeqNo    uint64    `msg:"seq_no"`
	Messages []message `msg:"messages"`
}

type message struct {
	TS     int64  `msg:"ts"`
	Symbol string `msg:"symbol"`
	Body   body   `msg:"body"`
}

type trade struct {
	Price uint64 `msg:"price"`
	Size  uint32 `msg:"size"`
}

type levelUpdate struct {
	Price uint64 `msg:"price"`
	Size  uint32 `msg:"size"`
	Flags uint8  `msg:"flags"`
	Side  side   `msg:"side"`
}

// The other record-shaped workloads, field for field as in workload, so
// their pointers convert.

type sqlMsg struct {
	Query string  `msg:"query"`
	Args  []int64 `msg:"args"`
}

type primitivesMsg struct {
	Ints     []int32   `msg:"ints"`
	Longs    []int64   `msg:"longs"`
	Doubles  []float64 `msg:"doubles"`
	Booleans []bool    `msg:"booleans"`
	Strings  []string  `msg:"strings"`
}

type objectMsg struct {
	ID        int64    `msg:"id"`
	Name      string   `msg:"name"`
	Email     string   `msg:"email"`
	Age       int32    `msg:"age"`
	Score     float64  `msg:"score"`
	Ratio     float32  `msg:"ratio"`
	Active    bool     `msg:"active"`
	Level     uint8    `msg:"level"`
	CreatedAt int64    `msg:"created_at"`
	Tags      []string `msg:"tags"`
}

type mixedMsg struct {
	F1  *string  `msg:"f1"`
	F2  *float64 `msg:"f2"`
	F3  *int64   `msg:"f3"`
	F4  *int32   `msg:"f4"`
	F5  *string  `msg:"f5"`
	F6  *float64 `msg:"f6"`
	F7  *int64   `msg:"f7"`
	F8  *int32   `msg:"f8"`
	F9  *int32   `msg:"f9"`
	F10 *int64   `msg:"f10"`
	F11 *float32 `msg:"f11"`
	F12 *float64 `msg:"f12"`
	F13 *string  `msg:"f13"`
	F14 *string  `msg:"f14"`
	F15 *int64   `msg:"f15"`
	F16 *int32   `msg:"f16"`
	F17 *int32   `msg:"f17"`
	F18 *string  `msg:"f18"`
	F19 *string  `msg:"f19"`
	F20 *string  `msg:"f20"`
}

type stringsMsg struct {
	F1  *string `msg:"f1"`
	F2  *string `msg:"f2"`
	F3  *string `msg:"f3"`
	F4  *string `msg:"f4"`
	F5  *string `msg:"f5"`
	F6  *string `msg:"f6"`
	F7  *string `msg:"f7"`
	F8  *string `msg:"f8"`
	F9  *string `msg:"f9"`
	F10 *string `msg:"f10"`
	F11 *string `msg:"f11"`
	F12 *string `msg:"f12"`
	F13 *string `msg:"f13"`
	F14 *string `msg:"f14"`
	F15 *string `msg:"f15"`
	F16 *string `msg:"f16"`
	F17 *string `msg:"f17"`
	F18 *string `msg:"f18"`
	F19 *string `msg:"f19"`
	F20 *string `msg:"f20"`
}

type longsMsg struct {
	F1  *int64 `msg:"f1"`
	F2  *int64 `msg:"f2"`
	F3  *int64 `msg:"f3"`
	F4  *int64 `msg:"f4"`
	F5  *int64 `msg:"f5"`
	F6  *int64 `msg:"f6"`
	F7  *int64 `msg:"f7"`
	F8  *int64 `msg:"f8"`
	F9  *int64 `msg:"f9"`
	F10 *int64 `msg:"f10"`
	F11 *int64 `msg:"f11"`
	F12 *int64 `msg:"f12"`
	F13 *int64 `msg:"f13"`
	F14 *int64 `msg:"f14"`
	F15 *int64 `msg:"f15"`
	F16 *int64 `msg:"f16"`
	F17 *int64 `msg:"f17"`
	F18 *int64 `msg:"f18"`
	F19 *int64 `msg:"f19"`
	F20 *int64 `msg:"f20"`
}
