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

// multiMsg and message mirror workload.MultiMessage and workload.Message;
// a record's messages are copied into a reused []message (element types
// differ, so the slice cannot be converted).
type multiMsg struct {
	SeqNo    uint64    `msg:"seq_no"`
	Messages []message `msg:"messages"`
}

type message struct {
	TS     int64  `msg:"ts"`
	Symbol string `msg:"symbol"`
	Kind   uint8  `msg:"kind"`
	Price  uint64 `msg:"price"`
	Size   uint32 `msg:"size"`
	Flags  uint8  `msg:"flags"`
	Side   uint8  `msg:"side"`
}
