package iexserde

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"
	"github.com/vmihailenco/msgpack/v5"

	"shootout/codec"
	cborformat "shootout/formats/cbor"
	"shootout/formats/gojson"
	"shootout/formats/jsonstd"
	"shootout/formats/jsonv2"
	msgpackformat "shootout/formats/msgpack"
	"shootout/formats/sonic"
	"shootout/internal/iexserdetest"
	specfiles "shootout/internal/spec"
	"shootout/workload"
)

var jsonLibraries = map[string]func() codec.Library{
	"json-std": jsonstd.New, "json-goccy": gojson.New, "json-sonic": sonic.New, "json-v2": jsonv2.New,
}

// framed is body behind the 4-byte length every codec here reads.
func framed(body []byte) []byte {
	stream, at := codec.Reserve(nil)
	stream, err := codec.Seal(append(stream, body...), at)
	if err != nil {
		panic(err)
	}
	return stream
}

// The fixture's record lines are serde_json's output of the Rust records
// (shootout export-dataset), the bytes Rust's JSON codecs write.
func TestEveryJSONLibraryReadsRustsRecordsToTheFixturesReference(t *testing.T) {
	text, err := os.ReadFile(specfiles.Fixture(t, "iex"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(bytes.NewReader(text))
	lines.Buffer(nil, 1<<20)
	lines.Scan()
	var header workload.Header
	if err := json.Unmarshal(lines.Bytes(), &header); err != nil {
		t.Fatal(err)
	}
	var records [][]byte
	for lines.Scan() {
		records = append(records, framed(lines.Bytes()))
	}
	if uint64(len(records)) != header.Records || len(records) == 0 {
		t.Fatalf("%d record lines, the header says %d", len(records), header.Records)
	}
	check, err := workload.IexSpec.Checker(header.Reference)
	if err != nil {
		t.Fatal(err)
	}
	for name, library := range jsonLibraries {
		t.Run(name, func(t *testing.T) {
			c, sink := Codec(library)(), workload.NewIexSink()
			for i, record := range records {
				if used, err := c.Decode(record, sink); err != nil || used != len(record) {
					t.Fatalf("record %d: used %d of %d bytes, error %v", i, used, len(record), err)
				}
			}
			if d := check(sink); d != "" {
				t.Fatal(d)
			}
		})
	}
}

// Every codec here refuses a body serde would refuse, rather than feed the
// sink a zero trade; the well-formed body beside each set shows the bytes
// are otherwise what the codec reads.
func TestABodyWithoutExactlyOneKnownVariantIsAnError(t *testing.T) {
	marshalMsgpack := func(v any) ([]byte, error) { return msgpack.Marshal(v) }
	wires := []struct {
		name      string
		libraries map[string]func() codec.Library
		marshal   func(any) ([]byte, error)
		form      func(any) any
		good      any
		bad       map[string]any
	}{
		{"json", jsonLibraries, json.Marshal, iexserdetest.MapForm, map[string]any{"LevelUpdate": iexserdetest.LevelMap}, iexserdetest.BadBodyMaps},
		{"msgpack-map", map[string]func() codec.Library{"msgpack-map": msgpackformat.Map}, marshalMsgpack, iexserdetest.MapForm,
			map[string]any{"LevelUpdate": iexserdetest.LevelMap}, iexserdetest.BadBodyMaps},
		{"msgpack-array", map[string]func() codec.Library{"msgpack-array": msgpackformat.Array}, marshalMsgpack, iexserdetest.ArrayForm,
			map[string]any{"LevelUpdate": iexserdetest.LevelArray}, iexserdetest.BadBodyArrays},
		{"cbor-map", map[string]func() codec.Library{"cbor-fxamacker": cborformat.New}, cbor.Marshal, iexserdetest.MapForm,
			map[string]any{"Trade": iexserdetest.TradeMap}, iexserdetest.BadBodyMaps},
	}
	for _, wire := range wires {
		for name, library := range wire.libraries {
			t.Run(name, func(t *testing.T) {
				good, err := wire.marshal(wire.form(wire.good))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := Codec(library)().Decode(framed(good), workload.NewIexSink()); err != nil {
					t.Fatalf("the well-formed body: %v", err)
				}
				for bad, body := range wire.bad {
					record, err := wire.marshal(wire.form(body))
					if err != nil {
						t.Fatal(err)
					}
					if _, err := Codec(library)().Decode(framed(record), workload.NewIexSink()); err == nil {
						t.Errorf("%s: decoded without an error", bad)
					}
				}
			})
		}
	}
}

// The encoder writes serde_json's bytes: the fixture's first record line,
// re-encoded, is the line itself (json-std's Encoder ends it with a newline,
// as Rust's JSON lines do).
func TestJSONStdWritesSerdeJSONsBytes(t *testing.T) {
	text, err := os.ReadFile(specfiles.Fixture(t, "iex"))
	if err != nil {
		t.Fatal(err)
	}
	line := strings.SplitN(string(text), "\n", 3)[1]
	var record workload.MultiMessage
	if err := workload.IexSpec.ReadLine([]byte(line), &record); err != nil {
		t.Fatal(err)
	}
	stream, err := Codec(jsonstd.New)().Encode(nil, &record)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(stream[4:]); got != line+"\n" {
		t.Fatalf("wrote\n%s\nserde_json wrote\n%s", got, line)
	}
}

// One record as Rust's codecs write it (`shootout interop --keep`, record
// 106 of the generated capture: a trade and both sides' updates), in
// serde_json and in each binary wire here.
const rustJSON = `{"seq_no":385,"messages":[{"ts":1710509400026586210,"symbol":"BAC","body":{"LevelUpdate":{"price":361800,"size":400,"flags":1,"side":"Sell"}}},{"ts":1710509400026588902,"symbol":"SPY","body":{"Trade":{"price":5124600,"size":683}}},{"ts":1710509400026590861,"symbol":"AMZN","body":{"LevelUpdate":{"price":1780400,"size":0,"flags":1,"side":"Buy"}}}]}`

var rustBytes = []struct {
	codec   string
	library func() codec.Library
	hex     string
}{
	{"msgpack-array (rmp-serde)", msgpackformat.Array,
		"92cd01819393cf17bcf33c958d1c62a342414381ab4c6576656c55706461746594ce00058548cd019001a453656c6c93cf17bcf33c958d26e6a353505981a5547261646592ce004e31f8cd02ab93cf17bcf33c958d2e8da4414d5a4e81ab4c6576656c55706461746594ce001b2ab00001a3427579"},
	{"msgpack-map (rmp-serde, with_struct_map)", msgpackformat.Map,
		"82a67365715f6e6fcd0181a86d657373616765739383a27473cf17bcf33c958d1c62a673796d626f6ca3424143a4626f647981ab4c6576656c55706461746584a57072696365ce00058548a473697a65cd0190a5666c61677301a473696465a453656c6c83a27473cf17bcf33c958d26e6a673796d626f6ca3535059a4626f647981a5547261646582a57072696365ce004e31f8a473697a65cd02ab83a27473cf17bcf33c958d2e8da673796d626f6ca4414d5a4ea4626f647981ab4c6576656c55706461746584a57072696365ce001b2ab0a473697a6500a5666c61677301a473696465a3427579"},
	{"cbor-map (ciborium)", cborformat.New,
		"a2667365715f6e6f190181686d6573736167657383a36274731b17bcf33c958d1c626673796d626f6c6342414364626f6479a16b4c6576656c557064617465a46570726963651a000585486473697a6519019065666c6167730164736964656453656c6ca36274731b17bcf33c958d26e66673796d626f6c6353505964626f6479a1655472616465a26570726963651a004e31f86473697a651902aba36274731b17bcf33c958d2e8d6673796d626f6c64414d5a4e64626f6479a16b4c6576656c557064617465a46570726963651a001b2ab06473697a650065666c61677301647369646563427579"},
}

// Go writes Rust's bytes exactly, and reads them into the record's aggregate.
func TestTheBinaryWiresWriteAndReadRustsBytes(t *testing.T) {
	var record workload.MultiMessage
	if err := workload.IexSpec.ReadLine([]byte(rustJSON), &record); err != nil {
		t.Fatal(err)
	}
	want := workload.NewIexSink()
	record.Feed(want)
	for _, rust := range rustBytes {
		t.Run(rust.codec, func(t *testing.T) {
			body, err := hex.DecodeString(rust.hex)
			if err != nil {
				t.Fatal(err)
			}
			c := Codec(rust.library)()
			written, err := c.Encode(nil, &record)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(written[4:], body) {
				t.Errorf("wrote %x", written[4:])
			}
			got := workload.NewIexSink()
			if _, err := c.Decode(framed(body), got); err != nil {
				t.Fatal(err)
			}
			if d := want.Finish().FirstDifference(got.Finish()); d != "" {
				t.Error(d)
			}
		})
	}
}
