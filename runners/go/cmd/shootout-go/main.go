// Command shootout-go measures the Go formats on a shootout-dataset/1 file
// and writes a shootout-results/3 file (docs/results-schema.md).
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"shootout/codec"
	"shootout/harness"
	"shootout/interop"
	"shootout/interopstream"
	"shootout/registry"
	"shootout/replay"
	"shootout/study"
	"shootout/workload"
)

type options struct {
	Dataset          string `json:"dataset"`
	Runs             int    `json:"runs"`
	ThroughputRounds int    `json:"throughput_rounds"`
	Warmup           int    `json:"warmup"`
	Window           int    `json:"window"`
	OrderSeed        uint64 `json:"order_seed"`
	Formats          string `json:"formats"`
	Out              string `json:"out"`
}

// maxThroughputRounds is the most `shootout run --throughput-rounds` allows.
const maxThroughputRounds = 100

func main() {
	code, err := run(os.Args)
	if err != nil {
		fmt.Fprintln(os.Stderr, "shootout-go:", err)
	}
	os.Exit(code)
}

func run(args []string) (int, error) {
	var o options
	fs := flag.NewFlagSet("shootout-go", flag.ContinueOnError)
	fs.StringVar(&o.Dataset, "dataset", "", "shootout-dataset/1 file (shootout export-dataset)")
	fs.IntVar(&o.Runs, "runs", 5, "measured runs, exactly, each a whole pass over the dataset (shootout run decides how many, and in how many processes)")
	fs.IntVar(&o.ThroughputRounds, "throughput-rounds", 1, "throughput passes over each window in a measured run: the first makes every pass, each further one, in a new shuffled order, times the throughput pass again")
	fs.IntVar(&o.Warmup, "warmup", 1, "warm-up runs before the measured ones (validated all the same)")
	fs.IntVar(&o.Window, "window", 4096, "records per window; each format's stream holds one window at a time")
	fs.Uint64Var(&o.OrderSeed, "order-seed", 1, "seed of the formats' shuffled order in every window")
	fs.StringVar(&o.Formats, "formats", "", "comma-separated format names (default: all); the baseline always runs")
	fs.StringVar(&o.Out, "out", "", "results file (shootout-results/3 JSON); - for standard output")
	list := fs.Bool("list", false, "list the formats and the workloads each runs, then exit")
	listJSON := fs.Bool("json", false, "with --list: print JSON (what `shootout formats --lang go` reads)")
	encodeDir := fs.String("interop-encode", "", "interop: write every format's stream of --dataset into this directory (go-<format>.bin, .ends, .json), then exit")
	decodeList := fs.String("interop-decode", "", "interop: decode the streams this file lists (<format>\\t<stream path> per line) against --dataset, one JSON answer per line on standard output, then exit")
	studyName := fs.String("study", "", "measure this published study as its document did ("+strings.Join(study.Names(), ", ")+") and write its shootout-study-figures/1 to --out, then exit")
	benchtime := fs.String("benchtime", "", "with --study: how long each benchmark runs, as go test -benchtime takes it (default 1s; Nx for N iterations)")
	quick := fs.Bool("quick", false, "with --study: --benchtime "+quickBenchtime+", a first look (what shootout study --quick asks), not figures to publish")
	plan := fs.String("replay", "", "replay --dataset (iex) at its own pace as this shootout-replay-plan/1 file says (docs/replay.md), writing shootout-replay-runs/1 to --out, then exit")
	if err := fs.Parse(args[1:]); err != nil {
		return 2, nil
	}
	if *plan != "" {
		return replayMode(fs, o, *plan)
	}
	if *quick && *benchtime == "" {
		*benchtime = quickBenchtime
	}
	if *studyName != "" || *benchtime != "" {
		return studyMode(*studyName, *benchtime, o.Out)
	}
	if *encodeDir != "" || *decodeList != "" {
		return interopMode(o, *encodeDir, *decodeList, o.Out != "" || *list)
	}
	if *list && *listJSON {
		return 0, printList(os.Stdout)
	}
	if *list {
		for _, f := range registry.Formats {
			fmt.Printf("%-18s %-17s %-38s %s\n", f.Info.Name, f.Info.Family, strings.Join(f.Info.Labels.Tags(), " "), strings.Join(registry.RunsOn(f), ","))
		}
		for _, u := range registry.Unavailable {
			fmt.Printf("%-18s %-17s not run: %s\n", u.Name, u.Family, u.Reason)
		}
		return 0, nil
	}
	if o.Dataset == "" || o.Out == "" {
		fs.Usage()
		return 2, errors.New("--dataset and --out are required")
	}
	// Checked here, not only by the harness, so that a bad count is a usage
	// error (exit 2), before the dataset is read.
	switch {
	case o.Runs < 1:
		return 2, fmt.Errorf("--runs must be at least 1, not %d", o.Runs)
	case o.ThroughputRounds < 1 || o.ThroughputRounds > maxThroughputRounds:
		return 2, fmt.Errorf("--throughput-rounds must be 1 to %d, not %d", maxThroughputRounds, o.ThroughputRounds)
	case o.Warmup < 0:
		return 2, fmt.Errorf("--warmup must not be negative, not %d", o.Warmup)
	case o.Window < 1:
		return 2, fmt.Errorf("--window must be at least 1, not %d", o.Window)
	}
	return measure(o, args)
}

// interopMode runs one side of shootout-interop/1 (package interop).
func interopMode(o options, encodeDir, decodeList string, measuring bool) (int, error) {
	switch {
	case encodeDir != "" && decodeList != "":
		return 2, errors.New("--interop-encode and --interop-decode are separate runs")
	case measuring:
		return 2, errors.New("--interop-encode and --interop-decode do not measure: no --out or --list")
	case o.Dataset == "":
		return 2, errors.New("--dataset is required")
	case decodeList != "" && o.Formats != "":
		return 2, errors.New("--formats selects what --interop-encode writes; --interop-decode decodes what its list names")
	}
	var err error
	if encodeDir != "" {
		var names []string
		if o.Formats != "" {
			names = strings.Split(o.Formats, ",")
		}
		err = interop.Encode(o.Dataset, encodeDir, names, os.Stderr)
	} else {
		var requests []interopstream.Request
		if requests, err = interop.ReadRequests(decodeList); err == nil {
			err = interop.Decode(o.Dataset, requests, os.Stdout)
		}
	}
	var usage interop.UsageError
	switch {
	case errors.As(err, &usage):
		return 2, err
	case err != nil:
		return 1, err
	}
	return 0, nil
}

// replayFlags are the flags --replay takes; any other is a usage error.
var replayFlags = []string{"replay", "dataset", "formats", "out"}

// replayMode replays the dataset as the plan says (package replay). Exit
// status: 0 every run valid, 1 a bad dataset or plan (one line naming the
// file and what was expected) or an I/O error, 2 usage, 3 some runs failed
// (each with its error in the results).
func replayMode(fs *flag.FlagSet, o options, plan string) (int, error) {
	var other []string
	fs.Visit(func(f *flag.Flag) {
		if !slices.Contains(replayFlags, f.Name) {
			other = append(other, "--"+f.Name)
		}
	})
	switch {
	case len(other) > 0:
		return 2, fmt.Errorf("--replay takes --dataset, --formats and --out only, not %s", strings.Join(other, ", "))
	case o.Dataset == "" || o.Out == "":
		return 2, errors.New("--replay needs --dataset and --out (a file, or - for standard output)")
	}
	var names []string
	if o.Formats != "" {
		names = strings.Split(o.Formats, ",")
	}
	results, err := replay.Replay(replay.Options{Dataset: o.Dataset, Plan: plan, Formats: names}, func(s string) {
		fmt.Fprintln(os.Stderr, s)
	})
	var usage replay.UsageError
	switch {
	case errors.As(err, &usage):
		return 2, err
	case err != nil:
		return 1, err
	}
	if err := write(o.Out, results); err != nil {
		return 1, err
	}
	failed := 0
	for _, r := range results.Runs {
		if r.Error != nil {
			failed++
		}
	}
	if failed > 0 {
		fmt.Fprintf(os.Stderr, "%d of %d runs failed (each with its error in the results)\n", failed, len(results.Runs))
		return 3, nil
	}
	return 0, nil
}

// quickBenchtime is --quick's --benchtime: long enough for stable allocation
// counts, too short for timings worth publishing.
const quickBenchtime = "100ms"

// studyMode measures one published study (package study) and writes its figures.
func studyMode(name, benchtime, out string) (int, error) {
	switch {
	case name == "":
		return 2, errors.New("--benchtime and --quick go with --study")
	case out == "":
		return 2, errors.New("--study needs --out (a file, or - for standard output)")
	}
	figures, err := study.Measure(name, benchtime)
	var usage study.UsageError
	switch {
	case errors.As(err, &usage):
		return 2, err
	case err == nil:
		err = write(out, figures)
	}
	if err != nil {
		return 1, err
	}
	return 0, nil
}

func measure(o options, args []string) (int, error) {
	header, err := workload.ReadHeader(o.Dataset)
	if err != nil {
		return 1, err
	}
	w, err := registry.WorkloadOf(o.Dataset, header)
	if err != nil {
		return 1, err
	}
	var names []string
	if o.Formats != "" {
		names = strings.Split(o.Formats, ",")
	}
	for _, n := range names {
		i := slices.IndexFunc(registry.Formats, func(f registry.Format) bool { return f.Info.Name == n })
		if n != harness.BaselineName && (i < 0 || !w.Runs(registry.Formats[i])) {
			return 2, fmt.Errorf("--formats: unknown format %q on this workload", n)
		}
	}
	dataset, err := describe(o.Dataset)
	if err != nil {
		return 1, err
	}
	started := time.Now()
	loadBefore := harness.LoadAverage()
	timer := harness.Calibrate()
	settings := harness.Settings{WarmupRuns: o.Warmup, Runs: o.Runs, ThroughputRounds: o.ThroughputRounds, Window: o.Window, OrderSeed: o.OrderSeed}
	m, err := w.Measure(o.Dataset, header, names, settings, timer, func(s string) {
		fmt.Fprintln(os.Stderr, s)
	})
	if err != nil {
		return 1, err
	}
	formats, failed := harness.Build(m, registry.Version)
	var warnings []string
	if o.Warmup == 0 {
		warnings = append(warnings, "--warmup 0: the first measured run includes first-use costs (each format did one unmeasured window)")
	}
	results := harness.Results{
		Schema:      harness.Schema,
		Runner:      map[string]any{"language": "go", "name": "shootout-go"},
		Invocation:  map[string]any{"command_line": args, "options": o, "load_before": loadBefore, "load_after": harness.LoadAverage()},
		Environment: harness.Environment(started),
		Timer: map[string]any{"clock": "time.Now (Go monotonic clock, vDSO clock_gettime)", "counter_hz": 1e9,
			"empty_region_ns": timer.EmptyNs, "resolution_ns": timer.ResolutionNs, "flag_below_ns": 5 * timer.ResolutionNs},
		Settings: settings,
		Workload: map[string]any{"name": header.Workload, "source": header.Source, "input": header.Input,
			"records": m.Operations, "csv": nil, "dataset": dataset},
		Runs:     m.Runs,
		Formats:  orEmpty(formats),
		Failed:   orEmpty(failed),
		NotRun:   w.NotRun(),
		Warnings: orEmpty(warnings),
	}
	if err := write(o.Out, results); err != nil {
		return 1, err
	}
	for _, f := range failed {
		fmt.Fprintf(os.Stderr, "FAILED %s: %s\n", f.Name, f.Reason)
	}
	where, file := o.Out, o.Out
	if o.Out == "-" {
		where, file = "standard output", "FILE"
	}
	fmt.Fprintf(os.Stderr, "results in %s; `shootout report %s` shows the tables\n", where, file)
	if len(failed) > 0 {
		return 3, nil
	}
	return 0, nil
}

func orEmpty[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

func describe(path string) (map[string]any, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return nil, err
	}
	return map[string]any{"path": path, "bytes": n, "sha256": hex.EncodeToString(h.Sum(nil))}, nil
}

func write(path string, v any) error {
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	out = append(out, '\n')
	if path == "-" {
		_, err = os.Stdout.Write(out)
		return err
	}
	return os.WriteFile(path, out, 0o644)
}

// listEntry is one format as `--list --json` prints it: the same keys as a
// results file's format entry, its wire and framing (as spec/formats.json
// has them), plus the workloads it runs on, or why none.
type listEntry struct {
	Name           string        `json:"name"`
	Family         string        `json:"family"`
	Wire           string        `json:"wire,omitempty"`
	Framing        string        `json:"framing,omitempty"`
	Library        string        `json:"library"`
	LibraryVersion string        `json:"library_version"`
	Labels         *codec.Labels `json:"labels"`
	Tags           []string      `json:"tags"`
	Notes          string        `json:"notes"`
	Workloads      []string      `json:"workloads"`
	NotRun         string        `json:"not_run,omitempty"`
}

func printList(out io.Writer) error {
	entries := []listEntry{}
	for _, f := range registry.Formats {
		labels := f.Info.Labels
		entries = append(entries, listEntry{Name: f.Info.Name, Family: f.Info.Family, Wire: f.Info.Wire, Framing: f.Info.Framing, Library: f.Info.Library,
			LibraryVersion: registry.Version(f.Info.Library), Labels: &labels, Tags: labels.Tags(),
			Notes: f.Info.Notes, Workloads: registry.RunsOn(f)})
	}
	for _, u := range registry.Unavailable {
		entries = append(entries, listEntry{Name: u.Name, Family: u.Family, Tags: []string{}, Workloads: []string{}, NotRun: u.Reason})
	}
	encoder := json.NewEncoder(out)
	encoder.SetIndent("", "  ")
	return encoder.Encode(entries)
}
