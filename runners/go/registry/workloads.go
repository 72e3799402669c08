package registry

import (
	"fmt"
	"slices"

	"shootout/codec"
	"shootout/harness"
	"shootout/interopstream"
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
	// Runs says whether format f has a codec for the workload: one with a
	// JsonlWithSchema codec has one for a dataset that holds its schema.
	Runs func(f Format) bool
	// Measure runs the harness (harness.Measure) over the dataset with the
	// baseline and the formats named, every one when names is empty. A name
	// that does not run the workload is left out: callers check names first
	// (Runs); one without its schema in the dataset is left out too, and
	// NotRun says why.
	Measure func(dataset string, header workload.Header, names []string, settings harness.Settings,
		timer harness.Timer, progress func(string)) (*harness.Measured, error)
	// Interop is both modes of shootout-interop/1 over a dataset of it.
	Interop interopstream.Modes
	// entries is its []harness.Entry[R, S], for Entries.
	entries any
	// notOnDataset are the formats Runs says have a codec but that do not
	// run on the dataset the workload is bound to, each with why: by name.
	notOnDataset map[string]string
	// bind is the workload bound to a dataset's record schemas: the
	// formats with JsonlWithSchema codecs run as the schemas let them.
	// Workloads are bound to none.
	bind func(workload.RecordSchemas) Workload
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
	workloadAs(workload.JSONLSpec, workload.JSONLSpec.Name, jsonlCodec, jsonlWithSchema),
	// A csv dataset is a jsonl one under another name (docs/dataset-format.md):
	// every format runs it with its jsonl codec, or says its jsonl reason.
	workloadAs(workload.CSVSpec, workload.JSONLSpec.Name, jsonlCodec, jsonlWithSchema),
}

func jsonlCodec(f Format) func() JsonlCodec { return f.Jsonl }

func jsonlWithSchema(f Format) func(workload.RecordSchemas) (func() JsonlCodec, string) {
	return f.JsonlWithSchema
}

// newWorkload makes spec's workload from each format's constructor for it
// (constructor), or its Library.
func newWorkload[R, S any](spec workload.Spec[R, S], constructor func(Format) func() codec.Codec[R, S]) Workload {
	return workloadAs(spec, spec.Name, constructor, nil)
}

// workloadAs is newWorkload where each format runs spec's workload as it
// runs workload as: with the same constructor, Library and reasons. Where
// the workload's records may come with schemas (jsonl's), withSchema is
// each format's codec made from them (Format.JsonlWithSchema).
func workloadAs[R, S any](spec workload.Spec[R, S], as string, constructor func(Format) func() codec.Codec[R, S],
	withSchema func(Format) func(workload.RecordSchemas) (func() codec.Codec[R, S], string)) Workload {
	codecOf := func(f Format) func() codec.Codec[R, S] {
		if c := constructor(f); c != nil || f.Library == nil || f.NotRun[as] != "" {
			return c
		}
		return func() codec.Codec[R, S] { return &codec.Owned[R, S]{Library: f.Library(as), Feed: spec.Feed} }
	}
	schemaCodecOf := func(f Format) func(workload.RecordSchemas) (func() codec.Codec[R, S], string) {
		if withSchema == nil {
			return nil
		}
		return withSchema(f)
	}
	runs := func(f Format) bool { return codecOf(f) != nil || schemaCodecOf(f) != nil }
	var bind func(workload.RecordSchemas) Workload
	bind = func(schemas workload.RecordSchemas) Workload {
		entries := []harness.Entry[R, S]{{Info: harness.BaselineInfo, New: func() codec.Codec[R, S] { return harness.Baseline(spec.Feed) }}}
		notOnDataset := map[string]string{}
		for _, f := range Formats {
			c := codecOf(f)
			if fromSchemas := schemaCodecOf(f); fromSchemas != nil {
				var reason string
				if c, reason = fromSchemas(schemas); c == nil {
					notOnDataset[f.Info.Name] = reason
				}
			}
			if c != nil {
				entries = append(entries, harness.Entry[R, S]{Info: f.Info, New: c})
			}
		}
		w := Workload{Name: spec.Name, As: as, Runs: runs, entries: entries, notOnDataset: notOnDataset, bind: bind}
		w.Measure = measure(spec, entries)
		w.Interop = interopstream.Workload[R, S]{Spec: spec, Formats: entries[1:], Version: Version, NotRun: w.NotRun()}
		return w
	}
	return bind(workload.RecordSchemas{})
}

// measure is Workload.Measure over entries, spec's baseline first.
func measure[R, S any](spec workload.Spec[R, S], entries []harness.Entry[R, S]) func(dataset string, header workload.Header, names []string,
	settings harness.Settings, timer harness.Timer, progress func(string)) (*harness.Measured, error) {
	return func(dataset string, header workload.Header, names []string, settings harness.Settings,
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

// WorkloadOf is the workload of the dataset at path, whose header is
// header, bound to the dataset's record schemas.
func WorkloadOf(path string, header workload.Header) (Workload, error) {
	for _, w := range Workloads {
		if w.Name == header.Workload {
			return w.bind(header.RecordSchemas), nil
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
// or without a schema for it in the dataset the workload is bound to, with
// the reason; none is dropped silently.
func (w Workload) NotRun() []harness.NotRun {
	var out []harness.NotRun
	for _, f := range Formats {
		reason, withoutSchema := w.notOnDataset[f.Info.Name]
		switch {
		case withoutSchema:
		case w.Runs(f):
			continue
		case f.NotRun[w.As] != "":
			reason = f.NotRun[w.As]
		default:
			reason = noMapping
		}
		out = append(out, harness.NotRun{Name: f.Info.Name, Family: f.Info.Family, Reason: reason})
	}
	return append(out, Unavailable...)
}
