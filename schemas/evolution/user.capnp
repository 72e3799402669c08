# Schema evolution of the `user` record (crates/shootout/src/evolution/capnp.rs):
# v1 and, per kind of change, the v2 a user would write by Cap'n Proto's rules.
# Struct names are not on the wire, so the versions live side by side; none refers
# to another type. v1 is schemas/records/records.capnp's UserResponse with tutorial
# narrowed to an Int32.
# Regenerate the Rust code with scripts/regenerate/evolution-capnp.sh.
@0xc44a91b1960aefbd;

struct UserV1 {
  uid @0 :Int64;
  muid @1 :Text;
  status @2 :Text;
  tutorial @3 :Int32;
  nickname @4 :Text;
  totalLoginNum @5 :Int64;
  openedAt @6 :Text;
  createdAt @7 :Text;
  updatedAt @8 :Text;
}

# A new field takes the next ordinal.
struct UserAddField {
  uid @0 :Int64;
  muid @1 :Text;
  status @2 :Text;
  tutorial @3 :Int32;
  nickname @4 :Text;
  totalLoginNum @5 :Int64;
  openedAt @6 :Text;
  createdAt @7 :Text;
  updatedAt @8 :Text;
  email @9 :Text;
}

# Ordinals cannot be removed: the field stays, renamed obsolete, and v2 stops
# setting it.
struct UserRemoveField {
  uid @0 :Int64;
  muid @1 :Text;
  status @2 :Text;
  tutorial @3 :Int32;
  obsoleteNickname @4 :Text;
  totalLoginNum @5 :Int64;
  openedAt @6 :Text;
  createdAt @7 :Text;
  updatedAt @8 :Text;
}

# Names are not on the wire: a rename keeps the ordinal.
struct UserRenameField {
  uid @0 :Int64;
  muid @1 :Text;
  status @2 :Text;
  tutorial @3 :Int32;
  nickname @4 :Text;
  loginCount @5 :Int64;
  openedAt @6 :Text;
  createdAt @7 :Text;
  updatedAt @8 :Text;
}

# Against the rules (a field's type may not change; the rules would add a new
# Int64 field instead): the plain change, same ordinal, Int32 -> Int64. The
# layout moves: tutorial takes the data word after uid.
struct UserWidenInt {
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

# The same fields declared in reverse, each keeping its ordinal (the layout
# follows ordinals, not declaration order).
struct UserReorderFields {
  updatedAt @8 :Text;
  createdAt @7 :Text;
  openedAt @6 :Text;
  totalLoginNum @5 :Int64;
  nickname @4 :Text;
  tutorial @3 :Int32;
  status @2 :Text;
  muid @1 :Text;
  uid @0 :Int64;
}
