package workload

// The tabular workloads (crates/shootout/src/workload/tabular/mod.rs): 20
// optional cells f1..f20, nil = absent. A present cell is one value of its
// field. The row types and their Visit are generated (rows_gen.go) from
// schemas/records/{mixed,strings,longs}.avsc.

// TabularFields are the tabular workloads' field names.
var TabularFields = []string{"f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12", "f13", "f14", "f15", "f16", "f17", "f18", "f19", "f20"}

var (
	MixedSpec   = FieldSpec("mixed", TabularFields, (*MixedRow).Visit)
	StringsSpec = FieldSpec("strings", TabularFields, (*StringsRow).Visit)
	LongsSpec   = FieldSpec("longs", TabularFields, (*LongsRow).Visit)
)
