// Package iexserdetest holds iex messages in serde's shape (the wire of
// formats/iexserde and of msgpack-msgp's generated types) that the tests of
// more than one Go codec decode: well-formed bodies, and the bodies serde
// would refuse, which a codec must refuse too rather than feed the sink a
// zero trade.
package iexserdetest

// MapForm is a message of one record in the map form of serde's shape, with
// body as given.
func MapForm(body any) any {
	return map[string]any{"seq_no": 1, "messages": []any{map[string]any{"ts": 2, "symbol": "A", "body": body}}}
}

// ArrayForm is MapForm as rmp-serde writes it by default: each struct an
// array in field order, the enum still a map of one entry.
func ArrayForm(body any) any { return []any{1, []any{[]any{2, "A", body}}} }

// The two variants' fields in each form.
var (
	TradeMap   = map[string]any{"price": 3, "size": 4}
	LevelMap   = map[string]any{"price": 3, "size": 4, "flags": 1, "side": "Buy"}
	TradeArray = []any{3, 4}
	LevelArray = []any{3, 4, 1, "Buy"}
)

// BadBodyMaps and BadBodyArrays are bodies without exactly one known
// variant, or with a side that is no name of one, by what is wrong.
var (
	BadBodyMaps = map[string]any{
		"no variant":      map[string]any{},
		"both variants":   map[string]any{"Trade": TradeMap, "LevelUpdate": LevelMap},
		"unknown variant": map[string]any{"Cancel": TradeMap},
		"null variant":    map[string]any{"Trade": nil},
		"no body":         nil,
		"side not a name": map[string]any{"LevelUpdate": map[string]any{"price": 3, "size": 4, "flags": 1, "side": 1}},
		"side unknown":    map[string]any{"LevelUpdate": map[string]any{"price": 3, "size": 4, "flags": 1, "side": "Up"}},
	}
	BadBodyArrays = map[string]any{
		"no variant":      map[string]any{},
		"both variants":   map[string]any{"Trade": TradeArray, "LevelUpdate": LevelArray},
		"unknown variant": map[string]any{"Cancel": TradeArray},
		"null variant":    map[string]any{"Trade": nil},
		"no body":         nil,
		"side unknown":    map[string]any{"LevelUpdate": []any{3, 4, 1, "Up"}},
	}
)
