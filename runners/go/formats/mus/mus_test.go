package mus

import (
	"math"
	"testing"

	"github.com/mus-format/mus-go/varint"

	"shootout/workload"
)

// A string length near 2^63 overflows ord.String's own bounds check (and
// panics slicing); the validator makes it an error.
func TestAStringLengthNear2To63IsAnError(t *testing.T) {
	record := make([]byte, 1+varint.PositiveInt.Size(math.MaxInt64-1))
	varint.Int64.Marshal(7, record)
	varint.PositiveInt.Marshal(math.MaxInt64-1, record[1:])
	if _, err := User().Decode(record, workload.UserSpec.NewSink()); err == nil {
		t.Fatal("decoded a string of 2^63-1 bytes from a record of 10")
	}
}
