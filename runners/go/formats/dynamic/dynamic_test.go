package dynamic

import (
	"testing"

	"shootout/internal/workloadtest"
	"shootout/workload"
)

// counting is a model that counts the values it is asked to make.
func counting(made *int) *workload.JSONModel {
	return &workload.JSONModel{Name: "counting", Convert: func(v *workload.JSONValue) (any, error) {
		*made++
		return GoTree.Convert(v)
	}}
}

// A prepared record is encoded from the model made before the timed loops,
// not made again; another codec's model replaces it, and an unprepared
// record is made as it is encoded.
func TestEncodingUsesThePreparedModel(t *testing.T) {
	records := []workload.JSONRecord{workloadtest.JSONRecord(t, `{"a":[1,2.5]}`), workloadtest.JSONRecord(t, `"x"`), workloadtest.JSONRecord(t, `null`)}
	var madeA, madeB int
	encode := func(dst []byte, model any) ([]byte, error) { return append(dst, 'x'), nil }
	a := New(Library{Model: counting(&madeA), Append: encode}).(*Codec)
	b := New(Library{Model: counting(&madeB), Append: encode}).(*Codec)
	a.Prepare(records)
	for range 2 {
		for i := range records {
			if _, err := a.Encode(nil, &records[i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if madeA != 3 {
		t.Fatalf("a made %d models for 3 records encoded twice after Prepare", madeA)
	}
	b.Prepare(records)
	a.Encode(nil, &records[0])
	if madeB != 3 || madeA != 4 {
		t.Fatalf("after b's Prepare: a made %d, b %d; want 4 and 3", madeA, madeB)
	}
}
