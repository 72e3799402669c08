//! The spec's examples (Draft 12, ubjson.org: value types, container types,
//! binary data), round trips of every type in both container styles, errors.

use std::collections::BTreeMap;
use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::*;

fn streaming<T: ?Sized + Serialize>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    value.serialize(&mut Serializer::streaming(&mut out)).unwrap();
    out
}

/// `value` survives both container styles, each of which is byte-for-byte `expected`
/// where given.
fn round_trip<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: &T) {
    for bytes in [to_vec(value).unwrap(), streaming(value)] {
        let back: T =
            from_slice(&bytes).unwrap_or_else(|e| panic!("{value:?} from {bytes:?}: {e}"));
        assert_eq!(&back, value, "{bytes:?}");
        let (back, used) = take_from_slice::<T>(&bytes).unwrap();
        assert_eq!((&back, used), (value, bytes.len()));
    }
}

/// A `\0`-free string `s` as a UBJSON key/string payload: int8 length, bytes.
fn key(s: &str) -> Vec<u8> {
    let mut out = vec![b'i', s.len() as u8];
    out.extend_from_slice(s.as_bytes());
    out
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

// --- the spec's examples ----------------------------------------------------

#[test]
fn spec_null_example() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Passcode {
        passcode: Option<u32>,
    }
    let bytes = cat(&[b"{", &key("passcode"), b"Z}"]);
    assert_eq!(from_slice::<Passcode>(&bytes).unwrap(), Passcode { passcode: None });
    assert_eq!(streaming(&Passcode { passcode: None }), bytes);
}

#[test]
fn spec_noop_example() {
    // ["foo", no-op, "bar", no-op, no-op, no-op, "baz", no-op, no-op]
    let s = |v: &str| cat(&[b"S", &key(v)]);
    let bytes = cat(&[b"[", &s("foo"), b"N", &s("bar"), b"NNN", &s("baz"), b"NN]"]);
    assert_eq!(from_slice::<Vec<String>>(&bytes).unwrap(), ["foo", "bar", "baz"]);
    // A stream of keep-alive no-ops before and after a value.
    assert_eq!(from_slice::<u8>(b"NNNi\x05NN").unwrap(), 5);
}

#[test]
fn spec_boolean_example() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Auth {
        authorized: bool,
        verified: bool,
    }
    let value = Auth { authorized: true, verified: false };
    let bytes = cat(&[b"{", &key("authorized"), b"T", &key("verified"), b"F}"]);
    assert_eq!(from_slice::<Auth>(&bytes).unwrap(), value);
    assert_eq!(streaming(&value), bytes);
}

#[test]
#[allow(clippy::approx_constant)] // the spec's example value 3.14
fn spec_numeric_example() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Numbers<'a> {
        int8: i8,
        uint8: u8,
        int16: i16,
        int32: i32,
        int64: i64,
        float32: f32,
        float64: f64,
        huge1: &'a str,
        huge2: f64,
    }
    let bytes = cat(&[
        b"{",
        &key("int8"),
        b"i\x10",
        &key("uint8"),
        b"U\xff",
        &key("int16"),
        b"I\x7f\xff",
        &key("int32"),
        b"l\x7f\xff\xff\xff",
        &key("int64"),
        b"L\x7f\xff\xff\xff\xff\xff\xff\xff",
        &key("float32"),
        b"d",
        &3.14f32.to_be_bytes(),
        &key("float64"),
        b"D",
        &113243.7863123f64.to_be_bytes(),
        &key("huge1"),
        b"H",
        &key("3.14159265358979323846"),
        &key("huge2"),
        b"H",
        &key("-1.93E+190"),
        b"}",
    ]);
    let numbers: Numbers<'_> = from_slice(&bytes).unwrap();
    let expected = Numbers {
        int8: 16,
        uint8: 255,
        int16: 32767,
        int32: 2147483647,
        int64: 9223372036854775807,
        float32: 3.14,
        float64: 113243.7863123,
        huge1: "3.14159265358979323846",
        huge2: -1.93e190,
    };
    assert_eq!(numbers, expected);
    // The integers encode exactly as in the example (smallest type each).
    #[derive(Serialize)]
    struct Ints {
        int8: i64,
        uint8: i64,
        int16: i64,
        int32: i64,
        int64: i64,
    }
    let ints = Ints { int8: 16, uint8: 255, int16: 32767, int32: 2147483647, int64: i64::MAX };
    let prefix = bytes.windows(8).position(|w| w == b"float32\x64").unwrap() - 2;
    assert_eq!(streaming(&ints), cat(&[&bytes[..prefix], b"}"]));
    // The example's spelling "-1.93+E190" is not a JSON number, so it is rejected.
    let bad = cat(&[b"H", &key("-1.93+E190")]);
    assert!(matches!(from_slice::<f64>(&bad), Err(Error::Invalid { .. })));
}

#[test]
fn spec_char_example() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Roles {
        rolecode: char,
        delim: char,
    }
    let value = Roles { rolecode: 'a', delim: ';' };
    let bytes = cat(&[b"{", &key("rolecode"), b"Ca", &key("delim"), b"C;}"]);
    assert_eq!(from_slice::<Roles>(&bytes).unwrap(), value);
    assert_eq!(streaming(&value), bytes);
    assert!(from_slice::<char>(b"C\x80").is_err(), "a char is at most 127");
}

#[test]
fn spec_string_examples() {
    assert_eq!(to_vec("hello").unwrap(), b"Si\x05hello");
    assert_eq!(from_slice::<&str>(b"Si\x05hello").unwrap(), "hello");
    let russian = "привет";
    assert_eq!(to_vec(russian).unwrap(), cat(&[b"Si\x0c", russian.as_bytes()]));
    let arabic = "مرحبا";
    assert_eq!(to_vec(arabic).unwrap(), cat(&[b"Si\x0a", arabic.as_bytes()]));
    // A 1024-byte string takes an int16 length: 1 + 3 + 1024 bytes.
    let long = "x".repeat(1024);
    let bytes = to_vec(&long).unwrap();
    assert_eq!((&bytes[..4], bytes.len()), (&b"SI\x04\x00"[..], 1028));
    assert_eq!(from_slice::<String>(&bytes).unwrap(), long);
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct User<'a> {
        username: &'a str,
    }
    let bytes = cat(&[b"{", &key("username"), b"S", &key("rkalla"), b"}"]);
    assert_eq!(from_slice::<User<'_>>(&bytes).unwrap(), User { username: "rkalla" });
}

#[test]
fn spec_array_example() {
    // [null, true, false, 4782345193, 153.132, "ham"]; the spec writes the big
    // integer with `l`, which cannot hold it, so this uses `L`.
    let bytes = cat(&[
        b"[ZTFL",
        &4782345193i64.to_be_bytes(),
        b"d",
        &153.132f32.to_be_bytes(),
        b"S",
        &key("ham"),
        b"]",
    ]);
    type Row = ((), bool, bool, i64, f32, String);
    let row: Row = from_slice(&bytes).unwrap();
    assert_eq!(row, ((), true, false, 4782345193, 153.132, "ham".to_owned()));
    assert_eq!(streaming(&row), bytes);
}

#[test]
fn spec_object_example() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Post {
        id: u32,
        author: String,
        timestamp: i64,
        body: String,
    }
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Doc {
        post: Post,
    }
    let bytes = cat(&[
        b"{",
        &key("post"),
        b"{",
        &key("id"),
        b"I\x04\x71",
        &key("author"),
        b"S",
        &key("rkalla"),
        &key("timestamp"),
        b"L",
        &1364482090592i64.to_be_bytes(),
        &key("body"),
        b"S",
        &key("I totally agree!"),
        b"}}",
    ]);
    let doc = Doc {
        post: Post {
            id: 1137,
            author: "rkalla".into(),
            timestamp: 1364482090592,
            body: "I totally agree!".into(),
        },
    };
    assert_eq!(from_slice::<Doc>(&bytes).unwrap(), doc);
    assert_eq!(streaming(&doc), bytes);
    // The spec says 82 bytes, but its own markers add up to 79 (it also writes
    // the 6-byte "rkalla" with length 5).
    assert_eq!(bytes.len(), 79);
}

#[test]
fn spec_optimized_array_examples() {
    let values = [29.97f32, 31.13, 67.0, 2.113, 23.888];
    let payload: Vec<u8> = values.iter().flat_map(|v| v.to_be_bytes()).collect();
    let marked: Vec<u8> = values.iter().flat_map(|v| cat(&[b"d", &v.to_be_bytes()])).collect();
    let plain = cat(&[b"[", &marked, b"]"]);
    let counted = cat(&[b"[#i\x05", &marked]);
    let typed = cat(&[b"[$d#i\x05", &payload]);
    for bytes in [plain, counted, typed] {
        assert_eq!(from_slice::<Vec<f32>>(&bytes).unwrap(), values);
    }
    assert_eq!(to_vec(&values[..]).unwrap(), cat(&[b"[#i\x05", &marked]));
    // 512 no-ops: an empty array in 6 bytes.
    assert_eq!(from_slice::<Vec<i32>>(b"[$N#I\x02\x00").unwrap(), Vec::<i32>::new());
    // Payload-less types: the header alone defines the values.
    assert_eq!(from_slice::<Vec<bool>>(b"[$T#i\x03").unwrap(), [true; 3]);
    assert_eq!(from_slice::<Vec<bool>>(b"[$F#i\x02").unwrap(), [false; 2]);
    assert_eq!(from_slice::<Vec<Option<u8>>>(b"[$Z#i\x02").unwrap(), [None, None]);
    // Containers of containers: the inner start markers are omitted.
    let nested = b"[$[#i\x02$i#i\x02\x01\x02#i\x01i\x03";
    assert_eq!(from_slice::<Vec<Vec<i8>>>(nested).unwrap(), [vec![1, 2], vec![3]]);
    // Typed arrays of every payload type.
    assert_eq!(from_slice::<Vec<u8>>(b"[$U#i\x02\xff\x00").unwrap(), [255, 0]);
    assert_eq!(from_slice::<Vec<i16>>(b"[$I#i\x02\x80\x00\x00\x01").unwrap(), [i16::MIN, 1]);
    assert_eq!(from_slice::<Vec<i32>>(b"[$l#i\x01\xff\xff\xff\xfe").unwrap(), [-2]);
    assert_eq!(
        from_slice::<Vec<i64>>(b"[$L#i\x01\x00\x00\x00\x00\x00\x00\x01\x00").unwrap(),
        [256]
    );
    assert_eq!(
        from_slice::<Vec<f64>>(&cat(&[b"[$D#i\x01", &0.5f64.to_be_bytes()])).unwrap(),
        [0.5]
    );
    assert_eq!(from_slice::<Vec<char>>(b"[$C#i\x02ab").unwrap(), ['a', 'b']);
    assert_eq!(from_slice::<Vec<&str>>(b"[$S#i\x02i\x01xi\x00").unwrap(), ["x", ""]);
    assert_eq!(from_slice::<Vec<u64>>(b"[$H#i\x01i\x0218").unwrap(), [18]);
    let objects =
        from_slice::<Vec<BTreeMap<&str, u8>>>(b"[${#i\x02#i\x01i\x01aU\x01#i\x00").unwrap();
    assert_eq!(objects, [BTreeMap::from([("a", 1)]), BTreeMap::new()]);
}

#[test]
fn spec_optimized_object_examples() {
    #[derive(Deserialize, PartialEq, Debug)]
    struct Position {
        lat: f32,
        long: f32,
        alt: f32,
    }
    let expected = Position { lat: 29.976, long: 31.131, alt: 67.0 };
    let entry = |k: &str, v: f32, marker: &[u8]| cat(&[&key(k), marker, &v.to_be_bytes()]);
    let marked = cat(&[
        &entry("lat", 29.976, b"d"),
        &entry("long", 31.131, b"d"),
        &entry("alt", 67.0, b"d"),
    ]);
    let bare =
        cat(&[&entry("lat", 29.976, b""), &entry("long", 31.131, b""), &entry("alt", 67.0, b"")]);
    let plain = cat(&[b"{", &marked, b"}"]);
    let counted = cat(&[b"{#i\x03", &marked]);
    let typed = cat(&[b"{$d#i\x03", &bare]);
    for bytes in [plain, counted, typed] {
        assert_eq!(from_slice::<Position>(&bytes).unwrap(), expected);
    }
    // Typed null: names only, every value null.
    #[derive(Deserialize, PartialEq, Debug)]
    struct Account {
        name: Option<String>,
        password: Option<String>,
        email: Option<String>,
    }
    let bytes = cat(&[b"{$Z#i\x03", &key("name"), &key("password"), &key("email")]);
    assert_eq!(
        from_slice::<Account>(&bytes).unwrap(),
        Account { name: None, password: None, email: None }
    );
    // Typed booleans and no-ops.
    let bytes = cat(&[b"{$T#i\x02", &key("a"), &key("b")]);
    assert_eq!(
        from_slice::<BTreeMap<String, bool>>(&bytes).unwrap(),
        BTreeMap::from([("a".into(), true), ("b".into(), true)])
    );
    let bytes = cat(&[b"{$N#i\x02", &key("a"), &key("b")]);
    assert_eq!(from_slice::<BTreeMap<String, bool>>(&bytes).unwrap(), BTreeMap::new());
}

#[test]
fn spec_binary_data() {
    struct Bytes<'a>(&'a [u8]);
    impl Serialize for Bytes<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            s.serialize_bytes(self.0)
        }
    }
    let data = [0u8, 1, 0x5b, 0x5d, 255];
    let bytes = to_vec(&Bytes(&data)).unwrap();
    assert_eq!(bytes, cat(&[b"[$U#i\x05", &data]));
    assert_eq!(from_slice::<&[u8]>(&bytes).unwrap(), data, "borrowed");
    assert_eq!(from_slice::<Vec<u8>>(&bytes).unwrap(), data, "as an array of uint8");
}

// --- encoding choices -----------------------------------------------------------

#[test]
fn integers_take_the_smallest_type() {
    let cases: &[(i64, &[u8])] = &[
        (0, b"i\x00"),
        (127, b"i\x7f"),
        (-128, b"i\x80"),
        (128, b"U\x80"),
        (255, b"U\xff"),
        (256, b"I\x01\x00"),
        (-129, b"I\xff\x7f"),
        (32767, b"I\x7f\xff"),
        (32768, b"l\x00\x00\x80\x00"),
        (-32769, b"l\xff\xff\x7f\xff"),
        (i32::MAX as i64 + 1, b"L\x00\x00\x00\x00\x80\x00\x00\x00"),
        (i64::MIN, b"L\x80\x00\x00\x00\x00\x00\x00\x00"),
    ];
    for &(v, bytes) in cases {
        assert_eq!(to_vec(&v).unwrap(), bytes, "{v}");
        assert_eq!(from_slice::<i64>(bytes).unwrap(), v);
    }
}

#[test]
fn integers_beyond_int64_are_high_precision() {
    assert_eq!(to_vec(&u64::MAX).unwrap(), cat(&[b"H", &key("18446744073709551615")]));
    assert_eq!(to_vec(&(i64::MAX as u64)).unwrap()[0], b'L');
    assert_eq!(to_vec(&(i64::MAX as u64 + 1)).unwrap()[0], b'H');
    round_trip(&u64::MAX);
    round_trip(&(i64::MAX as u64 + 1));
    round_trip(&u128::MAX);
    round_trip(&i128::MIN);
    round_trip(&i128::from(i64::MIN));
    assert_eq!(to_vec(&i128::from(i64::MIN)).unwrap()[0], b'L');
    // Out of range for the target: an error, not a wrap.
    assert!(from_slice::<u64>(&to_vec(&u128::MAX).unwrap()).is_err());
    assert!(from_slice::<u8>(b"I\x01\x00").is_err());
    assert!(from_slice::<u32>(b"i\xff").is_err());
}

#[test]
fn floats_and_non_finite_values() {
    assert_eq!(to_vec(&1.5f32).unwrap(), cat(&[b"d", &1.5f32.to_be_bytes()]));
    assert_eq!(to_vec(&1.5f64).unwrap(), cat(&[b"D", &1.5f64.to_be_bytes()]));
    round_trip(&f64::MIN_POSITIVE);
    round_trip(&-0.0f32);
    // The spec encodes infinity (and so NaN) as null; reading null as a float fails.
    assert_eq!(to_vec(&f64::INFINITY).unwrap(), b"Z");
    assert_eq!(to_vec(&f32::NAN).unwrap(), b"Z");
    assert!(from_slice::<f64>(b"Z").is_err());
    assert_eq!(from_slice::<Option<f64>>(b"Z").unwrap(), None);
}

// --- round trips of every type ----------------------------------------------------

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
enum Shape {
    Empty,
    Circle(f64),
    Point(i32, i32),
    Rect { w: u16, h: u16 },
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Unit;

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Newtype(u32);

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Pair(i8, String);

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Everything {
    t: bool,
    f: bool,
    i8: i8,
    u8: u8,
    i16: i16,
    u16: u16,
    i32: i32,
    u32: u32,
    i64: i64,
    u64: u64,
    i128: i128,
    u128: u128,
    f32: f32,
    f64: f64,
    ascii: char,
    wide: char,
    string: String,
    empty: String,
    none: Option<u8>,
    some: Option<Option<u8>>,
    unit: (),
    unit_struct: Unit,
    newtype: Newtype,
    tuple: (u8, String, bool),
    tuple_struct: Pair,
    shapes: Vec<Shape>,
    nested: Vec<Vec<u64>>,
    map: BTreeMap<String, Vec<i16>>,
    int_keys: BTreeMap<i64, bool>,
    enum_keys: BTreeMap<Side, u8>,
}

#[derive(Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Side {
    Buy,
    Sell,
}

fn everything() -> Everything {
    Everything {
        t: true,
        f: false,
        i8: i8::MIN,
        u8: u8::MAX,
        i16: i16::MIN,
        u16: u16::MAX,
        i32: i32::MIN,
        u32: u32::MAX,
        i64: i64::MIN,
        u64: u64::MAX,
        i128: i128::MAX,
        u128: u128::MAX,
        f32: -1.25,
        f64: std::f64::consts::PI,
        ascii: 'z',
        wide: 'é',
        string: "hello, ünïcödé".into(),
        empty: String::new(),
        none: None,
        some: Some(Some(3)),
        unit: (),
        unit_struct: Unit,
        newtype: Newtype(7),
        tuple: (1, "two".into(), false),
        tuple_struct: Pair(-3, "pair".into()),
        shapes: vec![
            Shape::Empty,
            Shape::Circle(2.5),
            Shape::Point(-1, 1),
            Shape::Rect { w: 3, h: 400 },
        ],
        nested: vec![vec![], vec![1, u64::MAX], vec![0]],
        map: BTreeMap::from([("a".into(), vec![1, -2]), ("".into(), vec![])]),
        int_keys: BTreeMap::from([(-5, true), (i64::MAX, false)]),
        enum_keys: BTreeMap::from([(Side::Buy, 1), (Side::Sell, 2)]),
    }
}

#[test]
fn every_type_round_trips_in_both_container_styles() {
    round_trip(&everything());
    for shape in everything().shapes {
        round_trip(&shape);
    }
    round_trip(&Vec::<Everything>::new());
    round_trip(&vec![Some(1u8), None]);
    round_trip(&(Unit, Newtype(0), ()));
    // Counted containers have no end markers; streaming ones do.
    assert_eq!(to_vec(&[1u8, 2]).unwrap(), b"[#i\x02i\x01i\x02");
    assert_eq!(streaming(&[1u8, 2]), b"[i\x01i\x02]");
    assert_eq!(
        to_vec(&Shape::Circle(0.0)).unwrap(),
        cat(&[b"{#i\x01", &key("Circle"), b"D", &0.0f64.to_be_bytes()])
    );
    assert_eq!(streaming(&Shape::Empty), cat(&[b"S", &key("Empty")]));
}

#[test]
fn strings_and_bytes_are_borrowed() {
    let bytes = to_vec(&("borrowed", "too")).unwrap();
    let (a, b): (&str, &str) = from_slice(&bytes).unwrap();
    assert_eq!((a, b), ("borrowed", "too"));
    let range = bytes.as_ptr_range();
    assert!(range.contains(&a.as_ptr()) && range.contains(&b.as_ptr()));
}

#[test]
fn enums_from_every_container_form() {
    let rect = Shape::Rect { w: 1, h: 2 };
    let body = cat(&[&key("w"), b"i\x01", &key("h"), b"i\x02"]);
    for bytes in [
        cat(&[b"{", &key("Rect"), b"{", &body, b"}}"]),
        cat(&[b"{#i\x01", &key("Rect"), b"{#i\x02", &body]),
        cat(&[b"{${#i\x01", &key("Rect"), b"#i\x02", &body]),
        cat(&[b"{N", &key("Rect"), b"N{", &body, b"N}N}"]),
    ] {
        assert_eq!(from_slice::<Shape>(&bytes).unwrap(), rect, "{bytes:?}");
    }
    assert!(
        from_slice::<Shape>(&cat(&[b"{#i\x02", &key("Rect"), b"{}", &key("Empty"), b"Z"])).is_err()
    );
    assert!(
        from_slice::<Shape>(&cat(&[b"{", &key("Circle"), b"D", &[0; 8], &key("Empty"), b"Z}"]))
            .is_err()
    );
    assert!(from_slice::<Shape>(&cat(&[b"S", &key("Hexagon")])).is_err());
}

// --- errors -----------------------------------------------------------------------

#[test]
fn bad_input_is_an_error() {
    let cases: &[&[u8]] = &[
        b"",
        b"N",
        b"X",
        b"]",
        b"i",
        b"I\x01",
        b"L\x00\x00",
        b"Si\x05hell",
        b"Si\xffhello",
        b"S\x05hello",
        b"S",
        b"Si\x02\xc3\x28",
        b"C\xff",
        b"[i\x01",
        b"[#i\x02i\x01",
        b"[#i\x7f",
        b"[$i",
        b"[$i\x01\x02",
        b"[$#i\x01",
        b"[$Q#i\x01Z",
        b"[$Z#L\x7f\xff\xff\xff\xff\xff\xff\xff",
        b"{i\x01a",
        b"{i\x01ai\x01",
        b"{#i\x01",
        b"{Si\x01ai\x01}",
        b"Hi\x02+1",
        b"Hi\x0201",
        b"Hi\x011.",
        b"Hi\x00",
    ];
    for &bytes in cases {
        let result = from_slice::<serde::de::IgnoredAny>(bytes);
        assert!(result.is_err(), "{bytes:?}");
    }
    assert!(matches!(from_slice::<u8>(b"i\x01i\x02"), Err(Error::TrailingBytes { offset: 2 })));
    assert!(
        matches!(from_slice::<Vec<u8>>(b"[#i\xff"), Err(Error::Invalid { .. })),
        "negative count"
    );
    // A tuple reading fewer values than the array holds.
    assert!(from_slice::<(u8,)>(b"[i\x01i\x02]").is_err());
    assert!(from_slice::<(u8,)>(b"[#i\x02i\x01i\x02").is_err());
    // Nesting limit.
    let deep = [b'['; 200];
    assert!(matches!(from_slice::<serde::de::IgnoredAny>(&deep), Err(Error::Invalid { .. })));
    let ok = cat(&[&[b'['; 100], &[b']'; 100]]);
    from_slice::<serde::de::IgnoredAny>(&ok).unwrap();
}

#[test]
fn non_string_keys_cannot_be_written() {
    let map = BTreeMap::from([((1u8, 2u8), 3u8)]);
    assert!(to_vec(&map).is_err());
}
