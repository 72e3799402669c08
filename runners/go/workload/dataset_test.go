package workload

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/user.jsonl")

const userSample = "../testdata/user.jsonl"

// sampleUsers follows user.rs's generator in shape (not in values): a pool of
// records, operations picking from it.
func sampleUsers(pool, ops int, seed uint64) []User {
	r := rand.New(rand.NewPCG(seed, 0))
	const hexDigits, alnum = "0123456789abcdef", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	str := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	date := func() string {
		return fmt.Sprintf("20%02d-%02d-%02d %02d:%02d:%02d", 10+r.IntN(16), 1+r.IntN(12), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60))
	}
	statuses := []string{"activ", "guest", "block", "admin"}
	records := make([]User, pool)
	for i := range records {
		records[i] = User{UID: 1 + r.Int64N(1<<40-1), MUID: str(hexDigits, 32), Status: statuses[r.IntN(4)], Tutorial: r.Int64N(100),
			Nickname: str(alnum, 20), TotalLoginNum: r.Int64N(100_000), OpenedAt: date(), CreatedAt: date(), UpdatedAt: date()}
	}
	out := make([]User, ops)
	for i := range out {
		out[i] = records[r.IntN(pool)]
	}
	return out
}

func TestUserSampleIsCurrent(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteDataset(&buf, UserSpec, "Go test helper: 50 generated UserResponse records, 300 picks (seed 1)", sampleUsers(50, 300, 1)); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(userSample, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(userSample)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, buf.Bytes()) {
		t.Fatalf("%s is stale: go test ./workload -run TestUserSampleIsCurrent -update", userSample)
	}
}

func readAll(t *testing.T, path string, window int) ([]User, Header) {
	t.Helper()
	r, err := OpenDataset(path, UserSpec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var all []User
	for {
		w, err := r.Next(window)
		if err != nil {
			t.Fatal(err)
		}
		if len(w) == 0 {
			return all, r.Header
		}
		all = append(all, w...)
	}
}

func TestTheSampleReadInWindowsAddsUpToItsReference(t *testing.T) {
	records, header := readAll(t, userSample, 7)
	if len(records) != 300 {
		t.Fatalf("read %d records, want 300", len(records))
	}
	check, err := UserSpec.Checker(header.Reference)
	if err != nil {
		t.Fatal(err)
	}
	sink := UserSpec.NewSink()
	for i := range records {
		records[i].Visit(sink)
	}
	if d := check(sink); d != "" {
		t.Fatal(d)
	}
	records[5].Nickname += "x"
	sink = UserSpec.NewSink()
	for i := range records {
		records[i].Visit(sink)
	}
	if d := check(sink); !strings.HasPrefix(d, "field nickname:") {
		t.Fatalf("an altered nickname must show as a nickname difference, got %q", d)
	}
}

func TestTextHashIsTheDocumentedWordWiseFNV1a(t *testing.T) {
	step := func(h, w uint64) uint64 { return (h ^ w) * fnvPrime }
	word := uint64(0x6867666564636261) // "abcdefgh", little-endian
	for s, want := range map[string]uint64{
		"":                    step(fnvOffset, 0),
		"a":                   step(step(fnvOffset, 0x61), 1),
		"abcdefghi":           step(step(step(fnvOffset, word), 0x69), 9),
		"The quick brown fox": 0x2f1117863ae73cab, // pinned in the doc
	} {
		sink := NewFieldSink(2)
		sink.Text(0, []byte(s))
		sink.String(1, s)
		if sink.fields[0].TextHash != want || sink.fields[1].TextHash != want {
			t.Errorf("textHash(%q) = %#x / %#x, want %#x", s, sink.fields[0].TextHash, sink.fields[1].TextHash, want)
		}
	}
}

func TestFloatsCompareByBits(t *testing.T) {
	names := []string{"f"}
	a, b := NewFieldSink(1), NewFieldSink(1)
	a.Float(0, 0.0)
	b.Float(0, math.Copysign(0, -1))
	if d := a.Finish(names).FirstDifference(b.Finish(names), names); d == "" {
		t.Fatal("+0 and -0 must differ")
	}
	n1, n2 := NewFieldSink(1), NewFieldSink(1)
	n1.Float(0, math.NaN())
	n2.Float(0, math.NaN())
	if d := n1.Finish(names).FirstDifference(n2.Finish(names), names); d != "" {
		t.Fatalf("NaN must equal NaN by bits: %s", d)
	}
}

func TestABadDatasetIsAnErrorNamingWhy(t *testing.T) {
	dir := t.TempDir()
	sample, err := os.ReadFile(userSample)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(sample), "\n")
	cases := map[string]struct{ content, want string }{
		"wrong workload": {strings.Replace(string(sample), `"workload":"user"`, `"workload":"sql"`, 1), `workload "sql"`},
		"short":          {strings.Join(lines[:10], ""), "announces 300 records, the file holds 9"},
		"bad record":     {strings.Join(lines[:3], "") + "{\"uid\": \"x\"}\n", "line 4"},
	}
	for name, c := range cases {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(c.content), 0o644)
		r, err := OpenDataset(path, UserSpec)
		for err == nil {
			var w []User
			if w, err = r.Next(100); err == nil && len(w) == 0 {
				break
			}
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", name, err, c.want)
		}
	}
}
