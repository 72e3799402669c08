package shootout.workload;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.annotation.JsonTypeName;

/**
 * The iex record in Rust serde's shape (record.rs; docs/interop.md): a
 * message is ts, symbol and a body that is a Trade or a LevelUpdate, the side
 * by name. Java's MultiMessage.Message is flat (one class for both kinds, as
 * every other codec reads it); the formats whose wire shape is serde's
 * (Jackson's, Avro's committed schema, the field-model walkers of BSON, UBJSON
 * and FlexBuffers) map these classes by reflection and convert. The Jackson
 * annotations make the body serde's externally tagged union: a one-entry
 * object from variant name to its fields; the Avro one makes it a union of
 * the two records, as schemas/iex/iex.avsc has it; the field model reads the
 * sealed interface's variants the same way ({@code ClassModel.Kind.UNION}).
 */
public final class SerdeIex {
    private SerdeIex() {}

    /** MultiMessage with serde-shaped messages. */
    public static final class Packet {
        public long seq_no;
        public Message[] messages;
    }

    /** The Rust Message: ts, symbol, body. */
    @JsonPropertyOrder({"ts", "symbol", "body"})
    public static final class Message {
        public long ts;
        public String symbol;
        public Body body;
    }

    /** Rust's Body enum, externally tagged: a one-entry object from variant name to its fields. */
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.WRAPPER_OBJECT)
    @JsonSubTypes({@JsonSubTypes.Type(Trade.class), @JsonSubTypes.Type(LevelUpdate.class)})
    @org.apache.avro.reflect.Union({Trade.class, LevelUpdate.class})
    public sealed interface Body permits Trade, LevelUpdate {}

    @JsonTypeName("Trade")
    @JsonPropertyOrder({"price", "size"})
    public static final class Trade implements Body {
        public long price;
        public long size;
    }

    @JsonTypeName("LevelUpdate")
    @JsonPropertyOrder({"price", "size", "flags", "side"})
    public static final class LevelUpdate implements Body {
        public long price;
        public long size;
        public int flags;
        public Side side;
    }

    public enum Side {
        Buy,
        Sell
    }

    public static Packet toSerde(MultiMessage m) {
        Packet p = new Packet();
        p.seq_no = m.seq_no;
        p.messages = new Message[m.messages.length];
        for (int i = 0; i < p.messages.length; i++) {
            p.messages[i] = toSerde(m.messages[i]);
        }
        return p;
    }

    public static MultiMessage fromSerde(Packet p) {
        if (p.messages == null) {
            throw new IllegalArgumentException("iex record without messages");
        }
        MultiMessage m = new MultiMessage();
        m.seq_no = p.seq_no;
        m.messages = new MultiMessage.Message[p.messages.length];
        for (int i = 0; i < p.messages.length; i++) {
            m.messages[i] = fromSerde(p.messages[i]);
        }
        return m;
    }

    public static Message toSerde(MultiMessage.Message m) {
        Message s = new Message();
        s.ts = m.ts;
        s.symbol = m.symbol;
        if (m.kind == MultiMessage.Message.TRADE) {
            Trade t = new Trade();
            t.price = m.price;
            t.size = m.size;
            s.body = t;
        } else {
            LevelUpdate l = new LevelUpdate();
            l.price = m.price;
            l.size = m.size;
            l.flags = m.flags;
            l.side = m.side == MultiMessage.Message.BUY ? Side.Buy : Side.Sell;
            s.body = l;
        }
        return s;
    }

    public static MultiMessage.Message fromSerde(Message s) {
        if (s == null || s.symbol == null || s.body == null) {
            throw new IllegalArgumentException(
                    "iex message without " + (s == null ? "fields" : s.symbol == null ? "symbol" : "body"));
        }
        MultiMessage.Message m = new MultiMessage.Message();
        m.ts = s.ts;
        m.symbol = s.symbol;
        if (s.body instanceof Trade t) {
            m.kind = MultiMessage.Message.TRADE;
            m.price = t.price;
            m.size = t.size;
        } else if (s.body instanceof LevelUpdate l) {
            if (l.side == null) {
                throw new IllegalArgumentException("LevelUpdate without side");
            }
            m.kind = MultiMessage.Message.LEVEL;
            m.price = l.price;
            m.size = l.size;
            m.flags = l.flags;
            m.side = l.side == Side.Buy ? MultiMessage.Message.BUY : MultiMessage.Message.SELL;
        }
        return m;
    }
}
