package study

// The Go study of FlatBuffers against encoding/json on a UserResponse
// (../shared/studies/002_c213c6b66d03b1f8.txt, published figures in
// spec/studies/go-flatbuffers-json.json): its generate, randString,
// fbMarshal, fbUnmarshal and four benchmarks as its test file wrote them,
// and the project's practice on the same records beside them.

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"testing"
	"time"

	flatbuffers "github.com/google/flatbuffers/go"

	"shootout/codec"
	"shootout/codec/codecbench"
	"shootout/formats/flatbuf"
	"shootout/formats/jsonstd"
	"shootout/generated/flatbuffers/shootout/records"
	"shootout/registry"
	"shootout/workload"
)

// UserResponseStruct is the study's struct with its json tags. The Go
// field names are workload.User's (UID where the study wrote Uid), so that
// one converts to the other; no wire carries them.
type UserResponseStruct struct {
	UID           int64  `json:"uid,omitempty"`
	MUID          string `json:"muid,omitempty"`
	Status        string `json:"status,omitempty"`
	Tutorial      int64  `json:"tutorial,omitempty"`
	Nickname      string `json:"nickname,omitempty"`
	TotalLoginNum int64  `json:"total_login_num,omitempty"`
	OpenedAt      string `json:"opened_at,omitempty"`
	CreatedAt     string `json:"created_at,omitempty"`
	UpdatedAt     string `json:"updated_at,omitempty"`
}

const (
	// studyRecords is how many records the study's generate makes.
	studyRecords = 1000
	// seed is what math/rand's global source, which the study used
	// unseeded, started from before Go 1.20.
	seed              = 1
	flatbuffersModule = "github.com/google/flatbuffers"
)

func newRand() *rand.Rand { return rand.New(rand.NewSource(seed)) }

// randString is the study's: l hex digits of (l+1)/2 random bytes.
func randString(r *rand.Rand, l int) string {
	buf := make([]byte, l)
	for i := 0; i < (l+1)/2; i++ {
		buf[i] = byte(r.Intn(256))
	}
	return fmt.Sprintf("%x", buf)[:l]
}

// generate is the study's: three UnixNano longs, hex strings of 32, 5 and
// 20 digits, one timestamp for the three dates.
func generate(r *rand.Rand) []*UserResponseStruct {
	a := make([]*UserResponseStruct, 0, studyRecords)
	t := time.Now().Format("2006-01-02 15:04:05")
	for range studyRecords {
		a = append(a, &UserResponseStruct{
			UID:           time.Now().UnixNano(),
			MUID:          randString(r, 32),
			Status:        randString(r, 5),
			Tutorial:      time.Now().UnixNano(),
			Nickname:      randString(r, 20),
			TotalLoginNum: time.Now().UnixNano(),
			OpenedAt:      t,
			CreatedAt:     t,
			UpdatedAt:     t,
		})
	}
	return a
}

// fbMarshal is the study's: a fresh Builder per record, the table written
// field by field in the study's order (as the runner's codec writes it),
// finished without a size prefix.
func fbMarshal(obj *UserResponseStruct) []byte {
	builder := flatbuffers.NewBuilder(0)
	builder.Finish(flatbuf.UserTable(builder, (*workload.User)(obj)))
	return builder.Bytes[builder.Head():]
}

// fbUnmarshal is the study's: GetRootAsUserResponse, then every field
// copied into the application's struct (by the copy flatbuffers-copy makes).
func fbUnmarshal(data []byte) UserResponseStruct {
	var u UserResponseStruct
	flatbuf.CopyUser(records.GetRootAsUserResponse(data, 0), (*workload.User)(&u))
	return u
}

// studyData is the study's records, and each marshalled as its unmarshal
// benchmarks read them.
type studyData struct {
	records      []*UserResponseStruct
	jsons, flats [][]byte
}

func marshalled(records []*UserResponseStruct) (studyData, error) {
	d := studyData{records: records, jsons: make([][]byte, len(records)), flats: make([][]byte, len(records))}
	for i, r := range records {
		var err error
		if d.jsons[i], err = json.Marshal(r); err != nil {
			return d, err
		}
		d.flats[i] = fbMarshal(r)
	}
	return d, nil
}

// studyBenchmarks are the study's four, each picking a record with
// rand.Intn inside the timed loop as the study did.
func studyBenchmarks(d studyData) []benchmark {
	data, jsons, flats := d.records, d.jsons, d.flats
	// picked runs op on b.N records picked at random, with allocations
	// reported and the timer started after the generator is made.
	picked := func(op func(b *testing.B, i int)) func(b *testing.B) {
		return func(b *testing.B) {
			pick := newRand()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				op(b, pick.Intn(len(data)))
			}
		}
	}
	return []benchmark{
		{"JsonMarshal", picked(func(b *testing.B, i int) {
			if _, err := json.Marshal(data[i]); err != nil {
				b.Fatal(err)
			}
		})},
		{"JsonUnmarshal", picked(func(b *testing.B, i int) {
			o := &UserResponseStruct{}
			if err := json.Unmarshal(jsons[i], o); err != nil {
				b.Fatal(err)
			}
		})},
		{"FlatbufMarshal", picked(func(b *testing.B, i int) { fbMarshal(data[i]) })},
		{"FlatbufUnmarshal", picked(func(b *testing.B, i int) { _ = fbUnmarshal(flats[i]) })},
	}
}

// shootoutCodecs are the runner's codecs the shootout variant measures:
// json-std, flatbuffers and flatbuffers-copy, as the registry makes them.
func shootoutCodecs() (jsonStd, inPlace, copying registry.UserCodec) {
	return &codec.Owned[workload.User, *workload.FieldSink]{Library: jsonstd.New(), Feed: workload.UserSpec.Feed},
		flatbuf.UserInPlace(), flatbuf.UserCopy()
}

// shootoutBenchmarks measure the runner's codecs as registry's BenchmarkUser
// does: records in order into one reused stream, and decoding from it into
// the workload's aggregate.
func shootoutBenchmarks(users []workload.User) []benchmark {
	jsonStd, inPlace, copying := shootoutCodecs()
	sink := workload.UserSpec.NewSink
	return []benchmark{
		{jsonstd.Info.Name + "/encode", codecbench.Encode(jsonStd, users)},
		{jsonstd.Info.Name + "/decode", codecbench.Decode(jsonStd, users, sink())},
		{flatbuf.Info.Name + "/encode", codecbench.Encode(inPlace, users)},
		{flatbuf.Info.Name + "/decode", codecbench.Decode(inPlace, users, sink())},
		{flatbuf.CopyInfo.Name + "/decode", codecbench.Decode(copying, users, sink())},
	}
}

func flatbufJSON(env map[string]any) (measurement, error) {
	data, err := marshalled(generate(newRand()))
	if err != nil {
		return measurement{}, err
	}
	users := make([]workload.User, len(data.records))
	var jsonBytes, flatBytes int
	for i, r := range data.records {
		users[i] = workload.User(*r)
		jsonBytes, flatBytes = jsonBytes+len(data.jsons[i]), flatBytes+len(data.flats[i])
	}
	faithful, err := table("benchmarks", studyBenchmarks(data))
	if err != nil {
		return measurement{}, err
	}
	practice, err := table("benchmarks", shootoutBenchmarks(users))
	if err != nil {
		return measurement{}, err
	}
	return measurement{
		libraries: map[string]string{"std": registry.Version("std"), flatbuffersModule: registry.Version(flatbuffersModule)},
		variants: []Variant{
			{ID: "study", Title: "as the study did", Tables: []Table{faithful}},
			{ID: "shootout", Title: "the runner's codecs, as `shootout run` measures them: the same 1,000 records in order " +
				"into one reused stream; json-std is one json.Encoder appending to it and json.Unmarshal into one reused struct; " +
				"flatbuffers one reused Builder, size-prefixed, verified and read in place; flatbuffers-copy the same, " +
				"then copied into the struct as the study's unmarshal did; every decode feeds the workload's aggregate",
				Tables: []Table{practice}},
		},
		facts: map[string]float64{
			"json_bytes_per_record":        float64(jsonBytes) / float64(len(users)),
			"flatbuffers_bytes_per_record": float64(flatBytes) / float64(len(users)),
		},
		departures: flatbufJSONDepartures(env),
	}, nil
}

func flatbufJSONDepartures(env map[string]any) []string {
	return []string{
		fmt.Sprintf("Machine: %v, %d logical CPUs, GOMAXPROCS %d; the study's had 4 logical CPUs (its -4 suffix), model not stated.",
			env["cpu"], runtime.NumCPU(), runtime.GOMAXPROCS(0)),
		fmt.Sprintf("Go %s, with its compiler, garbage collector and encoding/json; the study does not state its Go version "+
			"(its sample dates are of November 2016).", strings.TrimPrefix(runtime.Version(), "go")),
		fmt.Sprintf("%s %s, with flatc 25.12.19's generated Go code; the study does not state its FlatBuffers version.",
			flatbuffersModule, registry.Version(flatbuffersModule)),
		"The table is the runner's shootout.records.UserResponse (schemas/records/records.fbs): the study's fields in its order " +
			"and types, in another namespace and with the strings marked (required), which flatc's Go code neither checks nor " +
			"writes: on the wire, the study's schema.",
		"math/rand is seeded with 1 in sources of the runner's own, one for the data and one per benchmark for the picks: " +
			"the study used the global source unseeded, which before Go 1.20 also started from 1, but since Go 1.20 the global " +
			"source is seeded at random and since Go 1.24 rand.Seed does nothing. The study's one global source also served " +
			"every benchmark in turn, so its picks were another sequence, and it was the same generator behind a mutex: " +
			"each pick here saves an uncontended lock and unlock.",
		"rand.Intn stays inside the timed loop, as the study had it: every figure includes one pick.",
		"The 1,000 records are generated once and shared by the four benchmarks, outside the timer; the study's benchmark " +
			"functions each generated their own, with the timer stopped, every time go test called them. The longs are " +
			"time.Now().UnixNano() as the study's, so they differ from run to run; the hex strings are the seed's.",
		"Each operation is called through a closure, one dynamic call per operation: the study's JSON benchmarks made one " +
			"too (through its Serializer interface), its FlatBuffers ones called fbMarshal and fbUnmarshal directly. " +
			"The study ignored json.Marshal's error; the runner checks it.",
		fmt.Sprintf("Each benchmark is run by testing.Benchmark, as go test -bench runs it (b.N grown until the benchtime is reached), "+
			"%d times, the benchmarks in turn (go test -count %d), and the table gives the median of the %d; the study ran each once. "+
			"ns/op is unrounded, B/op and allocs/op are go test's integers, and every run's figures are kept, so that each "+
			"conclusion's ratio is decided by the 95 %% Student-t interval of its runs.", Repetitions, Repetitions, Repetitions),
	}
}
