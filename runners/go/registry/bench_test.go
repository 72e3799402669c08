package registry

import (
	"testing"

	"shootout/codec/codecbench"
	"shootout/internal/workloadtest"
	"shootout/workload"
)

// BenchmarkUser measures every format on the fixture's UserResponse records
// through the codec interface, one record per op, as the harness does
// (reused codec and stream; decode includes the aggregate).
func BenchmarkUser(b *testing.B) {
	recs, _ := workloadtest.Fixture(b, workload.UserSpec)
	for _, e := range Entries(workload.UserSpec) {
		c := e.New()
		b.Run(e.Info.Name+"/encode", codecbench.Encode(c, recs))
		b.Run(e.Info.Name+"/decode", codecbench.Decode(c, recs, workload.UserSpec.NewSink()))
	}
}
