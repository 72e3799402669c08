package workload

// User is the `user` workload's record, the study's UserResponse
// (crates/shootout/src/workload/user.rs). The tags serve every reflection-based
// codec: JSON-family, MessagePack, CBOR and BSON read their own tag or fall
// back to "json".
type User struct {
	UID           int64  `json:"uid" msgpack:"uid" cbor:"uid" bson:"uid"`
	MUID          string `json:"muid" msgpack:"muid" cbor:"muid" bson:"muid"`
	Status        string `json:"status" msgpack:"status" cbor:"status" bson:"status"`
	Tutorial      int64  `json:"tutorial" msgpack:"tutorial" cbor:"tutorial" bson:"tutorial"`
	Nickname      string `json:"nickname" msgpack:"nickname" cbor:"nickname" bson:"nickname"`
	TotalLoginNum int64  `json:"total_login_num" msgpack:"total_login_num" cbor:"total_login_num" bson:"total_login_num"`
	OpenedAt      string `json:"opened_at" msgpack:"opened_at" cbor:"opened_at" bson:"opened_at"`
	CreatedAt     string `json:"created_at" msgpack:"created_at" cbor:"created_at" bson:"created_at"`
	UpdatedAt     string `json:"updated_at" msgpack:"updated_at" cbor:"updated_at" bson:"updated_at"`
}

// UserFields are the aggregate's field names, in the positions Visit uses.
var UserFields = []string{"uid", "muid", "status", "tutorial", "nickname", "total_login_num", "opened_at", "created_at", "updated_at"}

// Visit feeds every field to the sink in the order of user.rs's visit.
func (u *User) Visit(s *FieldSink) {
	s.Record()
	s.Int(0, u.UID)
	s.String(1, u.MUID)
	s.String(2, u.Status)
	s.Int(3, u.Tutorial)
	s.String(4, u.Nickname)
	s.Int(5, u.TotalLoginNum)
	s.String(6, u.OpenedAt)
	s.String(7, u.CreatedAt)
	s.String(8, u.UpdatedAt)
}
