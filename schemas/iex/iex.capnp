# The IEX shootout record (crates/shootout/src/workload/iex/record.rs) in Cap'n Proto.
# Regenerate the Rust code with scripts/regenerate/capnp.sh.
@0x8df66317feae13ec;

# One IEX-TP packet's trades and price-level updates.
struct MultiMessage {
  seqNo @0 :UInt64;          # first sequence number of the packet
  messages @1 :List(Message);
}

struct Message {
  ts @0 :Int64;              # nanoseconds since the Unix epoch
  symbol @1 :Text;           # space padding stripped
  body :union {
    trade @2 :Trade;
    levelUpdate @3 :LevelUpdate;
  }
}

# Prices are raw wire values with 4 implied decimals.
struct Trade {
  price @0 :UInt64;
  size @1 :UInt32;
}

struct LevelUpdate {
  price @0 :UInt64;
  size @1 :UInt32;
  flags @2 :UInt8;
  side @3 :Side;
}

enum Side {
  buy @0;
  sell @1;
}
