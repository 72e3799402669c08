package workload

// The other record-shaped workloads (crates/shootout/src/workload/{sql,
// primitives,object}.rs), fed to the sink in their visit order.

// SqlRequest is `select * from cars where year > ? and seats = ?` with its arguments.
type SqlRequest struct {
	Query string  `json:"query" msgpack:"query" cbor:"query"`
	Args  []int64 `json:"args" msgpack:"args" cbor:"args"`
}

var SqlFields = []string{"query", "args"}

func (r *SqlRequest) Visit(s *FieldSink) {
	s.Record()
	s.String(0, r.Query)
	for _, a := range r.Args {
		s.Int(1, a)
	}
}

// Primitives holds runs of each primitive type.
type Primitives struct {
	Ints     []int32   `json:"ints" msgpack:"ints" cbor:"ints"`
	Longs    []int64   `json:"longs" msgpack:"longs" cbor:"longs"`
	Doubles  []float64 `json:"doubles" msgpack:"doubles" cbor:"doubles"`
	Booleans []bool    `json:"booleans" msgpack:"booleans" cbor:"booleans"`
	Strings  []string  `json:"strings" msgpack:"strings" cbor:"strings"`
}

var PrimitivesFields = []string{"ints", "longs", "doubles", "booleans", "strings"}

func (r *Primitives) Visit(s *FieldSink) {
	s.Record()
	for _, v := range r.Ints {
		s.Int(0, int64(v))
	}
	for _, v := range r.Longs {
		s.Int(1, v)
	}
	for _, v := range r.Doubles {
		s.Float(2, v)
	}
	for _, v := range r.Booleans {
		s.Bool(3, v)
	}
	for _, v := range r.Strings {
		s.String(4, v)
	}
}

// SmallObject is a small object of ten mixed fields.
type SmallObject struct {
	ID        int64    `json:"id" msgpack:"id" cbor:"id" bson:"id"`
	Name      string   `json:"name" msgpack:"name" cbor:"name" bson:"name"`
	Email     string   `json:"email" msgpack:"email" cbor:"email" bson:"email"`
	Age       int32    `json:"age" msgpack:"age" cbor:"age" bson:"age"`
	Score     float64  `json:"score" msgpack:"score" cbor:"score" bson:"score"`
	Ratio     float32  `json:"ratio" msgpack:"ratio" cbor:"ratio" bson:"ratio"`
	Active    bool     `json:"active" msgpack:"active" cbor:"active" bson:"active"`
	Level     uint8    `json:"level" msgpack:"level" cbor:"level" bson:"level"`
	CreatedAt int64    `json:"created_at" msgpack:"created_at" cbor:"created_at" bson:"created_at"`
	Tags      []string `json:"tags" msgpack:"tags" cbor:"tags" bson:"tags"`
}

var ObjectFields = []string{"id", "name", "email", "age", "score", "ratio", "active", "level", "created_at", "tags"}

func (r *SmallObject) Visit(s *FieldSink) {
	s.Record()
	s.Int(0, r.ID)
	s.String(1, r.Name)
	s.String(2, r.Email)
	s.Int(3, int64(r.Age))
	s.Float(4, r.Score)
	s.Float(5, float64(r.Ratio))
	s.Bool(6, r.Active)
	s.Int(7, int64(r.Level))
	s.Int(8, r.CreatedAt)
	for _, t := range r.Tags {
		s.String(9, t)
	}
}

var (
	SqlSpec        = FieldSpec("sql", SqlFields, (*SqlRequest).Visit)
	PrimitivesSpec = FieldSpec("primitives", PrimitivesFields, (*Primitives).Visit)
	ObjectSpec     = FieldSpec("object", ObjectFields, (*SmallObject).Visit)
)
