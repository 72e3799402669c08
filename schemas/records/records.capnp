# The record-shaped workloads (crates/shootout/src/workload/{user,sql,primitives,
# object}.rs and tabular/mod.rs) in Cap'n Proto, one struct per record type.
# Regenerate the Rust code with scripts/regenerate/capnp.sh.
@0xb3e67c7b9f6860db;

struct UserResponse {
  uid @0 :Int64;
  muid @1 :Text;
  status @2 :Text;
  tutorial @3 :Int64;
  nickname @4 :Text;
  totalLoginNum @5 :Int64;
  openedAt @6 :Text;
  createdAt @7 :Text;
  updatedAt @8 :Text;
}

struct SqlRequest {
  query @0 :Text;
  args @1 :List(Int64);
}

struct Primitives {
  ints @0 :List(Int32);
  longs @1 :List(Int64);
  doubles @2 :List(Float64);
  booleans @3 :List(Bool);
  strings @4 :List(Text);
}

struct SmallObject {
  id @0 :Int64;
  name @1 :Text;
  email @2 :Text;
  age @3 :Int32;
  score @4 :Float64;
  ratio @5 :Float32;
  active @6 :Bool;
  level @7 :UInt8;
  createdAt @8 :Int64;
  tags @9 :List(Text);
}

# The tabular rows: 20 optional cells f1..f20. Cap'n Proto scalars have no
# presence of their own, so `present` is a bitmask: bit i (1 << i) set means
# cell f(i+1) holds a value; an absent scalar cell is left 0 (and is not read).
# A text cell is absent when its pointer is null (`has_fN` is false); an empty
# string is a non-null, empty Text.
struct MixedRow {
  present @0 :UInt32;
  f1 @1 :Text;
  f2 @2 :Float64;
  f3 @3 :Int64;
  f4 @4 :Int32;
  f5 @5 :Text;
  f6 @6 :Float64;
  f7 @7 :Int64;
  f8 @8 :Int32;
  f9 @9 :Int32;
  f10 @10 :Int64;
  f11 @11 :Float32;
  f12 @12 :Float64;
  f13 @13 :Text;
  f14 @14 :Text;
  f15 @15 :Int64;
  f16 @16 :Int32;
  f17 @17 :Int32;
  f18 @18 :Text;
  f19 @19 :Text;
  f20 @20 :Text;
}

# StringsRow has only text cells, so no bitmask.
struct StringsRow {
  f1 @0 :Text;
  f2 @1 :Text;
  f3 @2 :Text;
  f4 @3 :Text;
  f5 @4 :Text;
  f6 @5 :Text;
  f7 @6 :Text;
  f8 @7 :Text;
  f9 @8 :Text;
  f10 @9 :Text;
  f11 @10 :Text;
  f12 @11 :Text;
  f13 @12 :Text;
  f14 @13 :Text;
  f15 @14 :Text;
  f16 @15 :Text;
  f17 @16 :Text;
  f18 @17 :Text;
  f19 @18 :Text;
  f20 @19 :Text;
}

struct LongsRow {
  present @0 :UInt32;
  f1 @1 :Int64;
  f2 @2 :Int64;
  f3 @3 :Int64;
  f4 @4 :Int64;
  f5 @5 :Int64;
  f6 @6 :Int64;
  f7 @7 :Int64;
  f8 @8 :Int64;
  f9 @9 :Int64;
  f10 @10 :Int64;
  f11 @11 :Int64;
  f12 @12 :Int64;
  f13 @13 :Int64;
  f14 @14 :Int64;
  f15 @15 :Int64;
  f16 @16 :Int64;
  f17 @17 :Int64;
  f18 @18 :Int64;
  f19 @19 :Int64;
  f20 @20 :Int64;
}
