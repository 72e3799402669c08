// Apache Thrift schema for the IEX shootout record (see ../record.rs).
// Regenerate the Rust code with scripts/regenerate/thrift.sh.
//
// Thrift has no unsigned integers: the codec bit-casts each unsigned value to
// the signed type of the same width and back (u64 -> i64, u32 -> i32,
// u8 -> i8), which is lossless. All struct fields are `required`, so the
// generated types hold plain values (no Option) and the generated reader
// rejects a record that lacks one.

namespace rs shootout.iex

enum Side {
  BUY = 0,
  SELL = 1,
}

struct Trade {
  // Raw wire price, 4 implied decimals (u64 bit-cast).
  1: required i64 price,
  // u32 bit-cast.
  2: required i32 size,
}

struct LevelUpdate {
  1: required i64 price,
  2: required i32 size,
  // u8 bit-cast.
  3: required i8 flags,
  4: required Side side,
}

union Body {
  1: Trade trade,
  2: LevelUpdate level_update,
}

struct Message {
  // Nanoseconds since the Unix epoch.
  1: required i64 ts,
  2: required string symbol,
  3: required Body body,
}

struct MultiMessage {
  // u64 bit-cast.
  1: required i64 seq_no,
  2: required list<Message> messages,
}
