//! The classic IEX shootout record: one IEX-TP packet's trades and price updates.
//!
//! Besides serde, the record derives the native traits of the derive-based
//! format libraries (bincode, bitcode, borsh, musli, rkyv, speedy, wincode,
//! zerompk), so each can encode it directly. Their decoding mirror with borrowed symbols is
//! `view::BorrowedMultiMessage`; `Body` and `Side` hold no strings, so they
//! derive the decode traits here and the mirror reuses them.

use crate::workload::derive_libraries;

derive_libraries! {
    [PartialEq, Eq, bincode::Encode]

    #[musli(packed)]
    pub struct MultiMessage {
        /// First sequence number of the IEX-TP packet.
        pub seq_no: u64,
        pub messages: Vec<Message>,
    }

    #[musli(packed)]
    pub struct Message {
        /// Nanoseconds since the Unix epoch.
        pub ts: i64,
        /// Symbol with the wire's space padding stripped.
        pub symbol: String,
        pub body: Body,
    }
}

// Clone by hand for `clone_from`: copying into a reused record (the baseline,
// the streaming reader's windows) then keeps the message list's and symbols'
// allocations, as derived `clone_from` (a plain `clone`) would not.
impl Clone for MultiMessage {
    fn clone(&self) -> Self {
        MultiMessage { seq_no: self.seq_no, messages: self.messages.clone() }
    }

    fn clone_from(&mut self, source: &Self) {
        self.seq_no = source.seq_no;
        self.messages.clone_from(&source.messages);
    }
}

impl Clone for Message {
    fn clone(&self) -> Self {
        Message { ts: self.ts, symbol: self.symbol.clone(), body: self.body }
    }

    fn clone_from(&mut self, source: &Self) {
        self.ts = source.ts;
        self.symbol.clone_from(&source.symbol);
        self.body = source.body;
    }
}

derive_libraries! {
    [
        Clone,
        Copy,
        PartialEq,
        Eq,
        bincode::Encode,
        bincode::BorrowDecode,
        bitcode::Decode,
        speedy::Readable,
        wincode::SchemaRead,
        musli::Decode,
        zerompk::FromMessagePack,
    ]

    /// zerompk: a map of one entry from the variant's name to its fields (as
    /// an array), serde's externally tagged enum as rmp-serde writes it.
    #[msgpack(map)]
    pub enum Body {
        /// Price has 4 implied decimals (raw wire value).
        Trade { price: u64, size: u32 },
        LevelUpdate { price: u64, size: u32, flags: u8, side: Side },
    }

    /// zerompk writes a unit variant as its name, as rmp-serde does.
    pub enum Side {
        Buy,
        Sell,
    }
}
