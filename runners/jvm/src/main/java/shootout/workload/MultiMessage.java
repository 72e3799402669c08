package shootout.workload;

import java.io.Serializable;

/**
 * The iex workload's record (crates/shootout/src/workload/iex/record.rs): one
 * IEX-TP packet's trades and price-level updates. seq_no and prices are u64,
 * held in a long's bits.
 */
public final class MultiMessage implements Serializable {
    private static final long serialVersionUID = 1L;

    public long seq_no;
    public Message[] messages;

    public void feed(IexSink a) {
        a.packet(seq_no, messages.length);
        for (Message m : messages) {
            a.message(m);
        }
    }

    /**
     * One trade (kind TRADE: price, size) or price-level update (kind LEVEL:
     * price, size, flags, side). Java has no sum type: both bodies' fields live
     * here, the unused ones zero. symbol holds the wire bytes, one char (U+0000
     * to U+00FF) per byte, as the dataset writes them; size is a u32 and flags a
     * u8, held in wider signed types.
     */
    public static final class Message implements Serializable {
        private static final long serialVersionUID = 1L;
        public static final int TRADE = 0, LEVEL = 1;
        public static final int BUY = 0, SELL = 1;

        public long ts;
        public String symbol;
        public int kind;
        public long price;
        public long size;
        public int flags;
        public int side;
    }
}
