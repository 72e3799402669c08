package study

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"shootout/codec/codecbench"
	"shootout/registry"
	"shootout/workload"
)

func TestGenerateMakesTheStudysRecords(t *testing.T) {
	data := generate(newRand())
	if len(data) != 1000 {
		t.Fatalf("%d records, want 1000", len(data))
	}
	hex := map[int]*regexp.Regexp{}
	for _, n := range []int{32, 5, 20} {
		hex[n] = regexp.MustCompile(`^[0-9a-f]{` + strconv.Itoa(n) + `}$`)
	}
	date := data[0].OpenedAt
	if _, err := time.Parse("2006-01-02 15:04:05", date); err != nil {
		t.Fatalf("date %q: %v", date, err)
	}
	for i, d := range data {
		for name, v := range map[string]int64{"uid": d.UID, "tutorial": d.Tutorial, "total_login_num": d.TotalLoginNum} {
			if s := strconv.FormatInt(v, 10); len(s) != 19 {
				t.Fatalf("record %d: %s %s has %d digits, want UnixNano's 19", i, name, s, len(s))
			}
		}
		for name, f := range map[string]struct {
			v string
			n int
		}{"muid": {d.MUID, 32}, "status": {d.Status, 5}, "nickname": {d.Nickname, 20}} {
			if !hex[f.n].MatchString(f.v) {
				t.Fatalf("record %d: %s %q is not %d hex digits", i, name, f.v, f.n)
			}
		}
		if d.OpenedAt != date || d.CreatedAt != date || d.UpdatedAt != date {
			t.Fatalf("record %d: dates %q %q %q, want all %q", i, d.OpenedAt, d.CreatedAt, d.UpdatedAt, date)
		}
	}
}

func TestTheSeedFixesTheStrings(t *testing.T) {
	a, b := generate(newRand()), generate(newRand())
	if a[999].MUID != b[999].MUID || a[0].Nickname != b[0].Nickname {
		t.Fatal("two generations with the seed made different strings")
	}
}

func TestTheStudysOperationsRoundTrip(t *testing.T) {
	for _, d := range generate(newRand()) {
		j, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		fromJSON := &UserResponseStruct{}
		if err := json.Unmarshal(j, fromJSON); err != nil {
			t.Fatal(err)
		}
		if *fromJSON != *d {
			t.Fatalf("JSON gave %+v, want %+v", *fromJSON, *d)
		}
		if fromFlat := fbUnmarshal(fbMarshal(d)); fromFlat != *d {
			t.Fatalf("FlatBuffers gave %+v, want %+v", fromFlat, *d)
		}
	}
}

func TestTheShootoutCodecsRoundTripIntoTheAggregate(t *testing.T) {
	data := generate(newRand())
	users := make([]workload.User, len(data))
	want := workload.UserSpec.NewSink()
	for i, d := range data {
		users[i] = workload.User(*d)
		users[i].Visit(want)
	}
	reference, err := json.Marshal(workload.UserSpec.Reference(want))
	if err != nil {
		t.Fatal(err)
	}
	check, err := workload.UserSpec.Checker(reference)
	if err != nil {
		t.Fatal(err)
	}
	jsonStd, inPlace, copying := shootoutCodecs()
	for name, c := range map[string]registry.UserCodec{"json-std": jsonStd, "flatbuffers": inPlace, "flatbuffers-copy": copying} {
		stream, err := codecbench.Stream(c, users)
		if err != nil {
			t.Fatal(err)
		}
		sink := workload.UserSpec.NewSink()
		for off := 0; off < len(stream); {
			used, err := c.Decode(stream[off:], sink)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			off += used
		}
		if d := check(sink); d != "" {
			t.Errorf("%s: %s", name, d)
		}
	}
}

func TestTheAnswerHasTheStudysShape(t *testing.T) {
	figures, err := Measure("go-flatbuffers-json", "1x")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(figures)
	if err != nil {
		t.Fatal(err)
	}
	var answer struct {
		Schema, Study, Language string
		Environment             map[string]any
		Variants                []struct {
			ID     string
			Tables []struct {
				ID   string
				Rows []struct {
					Label  string
					Values map[string]float64
					Runs   map[string][]float64
				}
			}
		}
		Departures []string
	}
	if err := json.Unmarshal(b, &answer); err != nil {
		t.Fatal(err)
	}
	if answer.Schema != "shootout-study-figures/1" || answer.Study != "go-flatbuffers-json" || answer.Language != "go" {
		t.Fatalf("schema %q, study %q, language %q", answer.Schema, answer.Study, answer.Language)
	}
	if answer.Environment["toolchain"] == nil || answer.Environment["libraries"] == nil || len(answer.Departures) == 0 {
		t.Fatalf("environment %v, departures %q", answer.Environment, answer.Departures)
	}
	ids := []string{}
	for _, v := range answer.Variants {
		ids = append(ids, v.ID)
	}
	if !slices.Equal(ids, []string{"study", "shootout"}) {
		t.Fatalf("variants %q, want study then shootout", ids)
	}
	keys := []string{"allocs_per_op", "bytes_per_op", "ns_per_op"}
	wantLabels := [][]string{
		{"JsonMarshal", "JsonUnmarshal", "FlatbufMarshal", "FlatbufUnmarshal"},
		{"json-std/encode", "json-std/decode", "flatbuffers/encode", "flatbuffers/decode", "flatbuffers-copy/decode"},
	}
	for i, v := range answer.Variants {
		if len(v.Tables) != 1 || v.Tables[0].ID != "benchmarks" {
			t.Fatalf("%s: tables %+v, want one, benchmarks", v.ID, v.Tables)
		}
		var labels []string
		for _, r := range v.Tables[0].Rows {
			labels = append(labels, r.Label)
			if got := slices.Sorted(maps.Keys(r.Values)); !slices.Equal(got, keys) {
				t.Errorf("%s %s: keys %q, want %q", v.ID, r.Label, got, keys)
			}
			// Every repetition's figures are kept, the median given as the value.
			for _, key := range keys {
				runs := r.Runs[key]
				if len(runs) != Repetitions || r.Values[key] != median(runs) {
					t.Errorf("%s %s %s: runs %v, value %v", v.ID, r.Label, key, runs, r.Values[key])
				}
			}
		}
		if !slices.Equal(labels, wantLabels[i]) {
			t.Errorf("%s: rows %q, want %q", v.ID, labels, wantLabels[i])
		}
	}
}

func TestAnUnknownStudyOrBenchtimeIsAUsageError(t *testing.T) {
	for _, args := range [][2]string{{"go-flatbuffers", ""}, {"go-flatbuffers-json", "soon"}} {
		_, err := Measure(args[0], args[1])
		if _, ok := err.(UsageError); !ok {
			t.Errorf("Measure(%q, %q): %v, want a UsageError", args[0], args[1], err)
		}
	}
}

// BenchmarkStudy is the study's four as `go test -bench . -benchmem
// ./study` runs them, the study's own command.
func BenchmarkStudy(b *testing.B) {
	data, err := marshalled(generate(newRand()))
	if err != nil {
		b.Fatal(err)
	}
	for _, bm := range studyBenchmarks(data) {
		b.Run(bm.label, bm.run)
	}
}

func TestMedianIsTheMiddleRunOrTheMeanOfTheMiddleTwo(t *testing.T) {
	if got := median([]float64{5, 1, 3}); got != 3 {
		t.Errorf("median of 5, 1, 3: %v", got)
	}
	if got := median([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Errorf("median of 4, 1, 3, 2: %v", got)
	}
}
