//! The classic IEX shootout record: one IEX-TP packet's trades and price updates.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MultiMessage {
    /// First sequence number of the IEX-TP packet.
    pub seq_no: u64,
    pub messages: Vec<Message>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// Nanoseconds since the Unix epoch.
    pub ts: i64,
    /// Symbol with the wire's space padding stripped.
    pub symbol: String,
    pub body: Body,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Body {
    /// Price has 4 implied decimals (raw wire value).
    Trade { price: u64, size: u32 },
    LevelUpdate { price: u64, size: u32, flags: u8, side: Side },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    Buy,
    Sell,
}
