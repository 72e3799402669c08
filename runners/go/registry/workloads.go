package registry

import (
	"fmt"
	"slices"

	"shootout/codec"
	"shootout/harness"
	"shootout/interop/stream"
	"shootout/workload"
)

// Workload is one workload with its record and sink types bound: which
// formats run it, and what the runner does with a dataset of it. Adding a
// workload is its record type (package workload), a field in Format and a
// line in Workloads; adding one that is another under a new name (csv) is a
// line in Workloads only.
type Workload struct {
	Name string
	// As is the workload whose codecs and reasons not to run each format
	// has for this one (the key of Format.NotRun): Name, but for a workload
	// whose datasets hold another's records under a new name.
	As string
	// Runs says whether format f has a codec for the workload.
	Runs func(f Format) bool
	// Measure runs the harness (harness.Measure) over the dataset with the
	// baseline and the formats named, every one when names is empty. A name
	// that does not run the workload is left out: callers check names first.
	Measure func(dataset string, header workload.Header, names []string, settings harness.Settings,
		timer harness.Timer, progress func(string)) (*harness.Measured, error)
	// Interop is both modes of shootout-interop/1 over a dataset of it.
	Interop stream.Modes
	// entries is its []harness.Entry[R, S], for Entries.
	entries any
}

// Workloads are the shootout's workloads, in docs/results-schema.md's order.
var Workloads = []Workload{
	newWorkload(workload.IexSpec, func(f Format) func() IexCodec { return f.Iex }),
	newWorkload(workload.UserSpec, func(f Format) func() UserCodec { return f.User }),
	newWorkload(workload.SqlSpec, func(f Format) func() SqlCodec { return f.Sql }),
	newWorkload(workload.PrimitivesSpec, func(f Format) func() PrimitivesCodec { return f.Primitives }),
	newWorkload(workload.ObjectSpec, func(f Format) func() ObjectCodec { return f.Object }),
	newWorkload(workload.MixedSpec, func(f Format) func() MixedCodec { return f.Mixed }),
	newWorkload(workload.StringsSpec, func(f Format) func() StringsCodec { return f.Strings }),
	newWorkload(workload.LongsSpec, func(f Format) func() LongsCodec { return f.Longs }),
	newWorkload(workload.JSONLSpec, func(f Format) func() JsonlCodec { return f.Jsonl }),
	// A csv dataset is a jsonl one under another name (docs/dataset-format.md):
	// every format runs it with its jsonl codec, or says its jsonl reason.
	workloadAs(workload.CSVSpec, workload.JSONLSpec.Name, func(f Format) func() JsonlCodec { return f.Jsonl }),
}

// newWorkload makes spec's workload from each format's constructor for it
// (constructor), or its Library.
func newWorkload[R, S any](spec workload.Spec[R, S], constructor func(Format) func() codec.Codec[R, S]) Workload {
	return workloadAs(spec, spec.Name, constructor)
}

// workloadAs is newWorkload where each format runs spec's workload as it
// runs workload as: with the same constructor, Library and reasons.
func workloadAs[R, S any](spec workload.Spec[R, S], as string, constructor func(Format) func() codec.Codec[R, S]) Workload {
	codecOf := func(f Format) func() codec.Codec[R, S] {
		if c := constructor(f); c != nil || f.Library == nil || f.NotRun[as] != "" {
			return c
		}
		return func() codec.Codec[R, S] { return &codec.Owned[R, S]{Library: f.Library(as), Feed: spec.Feed} }
	}
	entries := []harness.Entry[R, S]{{Info: harness.BaselineInfo, New: func() codec.Codec[R, S] { return harness.Baseline(spec.Feed) }}}
	for _, f := range Formats {
		if c := codecOf(f); c != nil {
			entries = append(entries, harness.Entry[R, S]{Info: f.Info, New: c})
		}
	}
	w := Workload{Name: spec.Name, As: as, Runs: func(f Format) bool { return codecOf(f) != nil }, entries: entries}
	w.Measure = func(dataset string, header workload.Header, names []string, settings harness.Settings,
		timer harness.Timer, progress func(string)) (*harness.Measured, error) {
		check, err := spec.Checker(header.Reference)
		if err != nil {
			return nil, err
		}
		selected := entries
		if len(names) > 0 {
			selected = nil
			for _, e := range entries {
				if e.Info.Name == harness.BaselineName || slices.Contains(names, e.Info.Name) {
					selected = append(selected, e)
				}
			}
		}
		return harness.Measure(datasetFile[R, S]{dataset, spec}, spec, check, selected, settings, timer, workload.Position, progress)
	}
	w.Interop = stream.Workload[R, S]{Spec: spec, Formats: entries[1:], Version: Version, NotRun: w.NotRun()}
	return w
}

// datasetFile is a dataset file as the harness's source, opened afresh for
// every pass.
type datasetFile[R, S any] struct {
	path string
	spec workload.Spec[R, S]
}

func (d datasetFile[R, S]) Open() (harness.Windows[R], error) {
	return workload.OpenDataset(d.path, d.spec)
}

// WorkloadOf is the workload of the dataset at path, whose header is header.
func WorkloadOf(path string, header workload.Header) (Workload, error) {
	for _, w := range Workloads {
		if w.Name == header.Workload {
			return w, nil
		}
	}
	return Workload{}, fmt.Errorf("%s: workload %q is not one of the shootout's", path, header.Workload)
}

// Entries is spec's workload's entries, baseline first: for the typed tests,
// and for replay (package replay), which runs the iex workload's codecs.
func Entries[R, S any](spec workload.Spec[R, S]) []harness.Entry[R, S] {
	for _, w := range Workloads {
		if w.Name == spec.Name {
			return w.entries.([]harness.Entry[R, S])
		}
	}
	panic("no workload " + spec.Name)
}

// RunsOn lists the workloads f has a codec for.
func RunsOn(f Format) []string {
	var out []string
	for _, w := range Workloads {
		if w.Runs(f) {
			out = append(out, w.Name)
		}
	}
	return out
}

// NotRun lists every registered format without a codec for the workload,
// with the reason; none is dropped silently.
func (w Workload) NotRun() []harness.NotRun {
	var out []harness.NotRun
	for _, f := range Formats {
		if w.Runs(f) {
			continue
		}
		reason := f.NotRun[w.As]
		if reason == "" {
			reason = noMapping
		}
		out = append(out, harness.NotRun{Name: f.Info.Name, Family: f.Info.Family, Reason: reason})
	}
	return append(out, Unavailable...)
}
