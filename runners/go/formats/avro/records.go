package avro

import (
	"github.com/hamba/avro/v2"

	"shootout/codec"
	schemas "shootout/generated/avro"
)

// New is the codec of a record-shaped workload whose Go record hamba maps
// onto schema directly (by json tags; optional cells are ["null", T] unions
// onto pointer fields).
func New[R, S any](schema string) func(feed func(*R, S)) codec.Codec[R, S] {
	return func(feed func(*R, S)) codec.Codec[R, S] {
		parsed := avro.MustParse(schema)
		out := &codec.Appender{}
		e := api.NewEncoder(parsed, out)
		return &codec.Owned[R, S]{
			Append: func(dst []byte, r *R) ([]byte, error) {
				out.B = dst
				err := e.Encode(r)
				return out.B, err
			},
			Unmarshal: func(b []byte, r *R) error { return api.Unmarshal(parsed, b, r) },
			Feed:      feed,
		}
	}
}

var (
	Sql        = schemas.Sql
	Primitives = schemas.Primitives
	Object     = schemas.Object
	Mixed      = schemas.Mixed
	Strings    = schemas.Strings
	Longs      = schemas.Longs
)
