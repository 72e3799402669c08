package shootout.workload;

import java.io.Serializable;
import org.apache.fory.annotation.UInt32Type;
import org.apache.fory.annotation.UInt64Type;
import org.apache.fory.annotation.UInt8Type;

/**
 * The iex workload's record (crates/shootout/src/workload/iex/record.rs): one
 * IEX-TP packet's trades and price-level updates. seq_no and prices are u64,
 * held in a long's bits. The unsigned-type annotations give Fory's xlang mode
 * the types the other languages' records have (other libraries ignore them).
 */
public final class MultiMessage implements Serializable {
    private static final long serialVersionUID = 1L;

    @UInt64Type
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

        @UInt8Type
        public int kind;

        @UInt64Type
        public long price;

        @UInt32Type
        public long size;

        @UInt8Type
        public int flags;

        @UInt8Type
        public int side;
    }
}
