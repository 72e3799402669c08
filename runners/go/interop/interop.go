// Package interop is the Go runner's side of shootout-interop/1
// (docs/interop.md): encode a dataset in every Go format into streams other
// languages decode, and decode other languages' streams, re-framed for a Go
// codec, against the dataset's reference aggregate. It picks the dataset's
// workload from registry.Workloads; package interopstream does the work.
package interop

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"shootout/interopstream"
	"shootout/registry"
	"shootout/workload"
)

// UsageError is bad input from the caller (exit status 2), as opposed to an
// I/O failure (exit status 1).
type UsageError struct{ error }

// Encode writes DIR/go-<format>.{bin,ends,json} for every format named (all
// when names is empty) that runs the dataset's workload, and a line per
// format to log. An encoder error is recorded in its manifest, not returned.
func Encode(dataset, dir string, names []string, log io.Writer) error {
	header, err := workload.ReadHeader(dataset)
	if err != nil {
		return err
	}
	for _, n := range names {
		if !slices.ContainsFunc(registry.Formats, func(f registry.Format) bool { return f.Info.Name == n }) {
			return UsageError{fmt.Errorf("--formats: no format %q in the go runner", n)}
		}
	}
	w, err := registry.WorkloadOf(dataset, header)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return w.Interop.Encode(dataset, header, dir, names, log)
}

// Decode answers every request, in order, with one JSON line on out. A
// request's own failure (an unknown format, an unreadable stream, a bad
// stream) is its answer; only the dataset's I/O fails the whole call.
func Decode(dataset string, requests []interopstream.Request, out io.Writer) error {
	header, err := workload.ReadHeader(dataset)
	if err != nil {
		return err
	}
	w, err := registry.WorkloadOf(dataset, header)
	if err != nil {
		return err
	}
	return w.Interop.Decode(dataset, header, requests, out)
}

// ReadRequests parses a decode list: `<format>\t<stream path>` per line,
// blank lines ignored.
func ReadRequests(path string) ([]interopstream.Request, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []interopstream.Request
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		format, streamPath, ok := strings.Cut(line, "\t")
		if !ok || format == "" || streamPath == "" {
			return nil, UsageError{fmt.Errorf("%s line %d: expected <format><TAB><stream path>, got %q", path, i+1, line)}
		}
		out = append(out, interopstream.Request{Format: format, Stream: streamPath})
	}
	return out, nil
}
