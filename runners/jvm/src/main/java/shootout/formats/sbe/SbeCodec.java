package shootout.formats.sbe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import shootout.codec.Codec;
import shootout.codec.Framing;
import shootout.codec.Info;
import shootout.codec.Labels;
import shootout.codec.Mapping;
import shootout.codec.Stream;
import shootout.generated.rows.SbeRows;
import shootout.generated.sbe.BodyType;
import shootout.generated.sbe.BooleanType;
import shootout.generated.sbe.LongsRowDecoder;
import shootout.generated.sbe.MessageHeaderDecoder;
import shootout.generated.sbe.MessageHeaderEncoder;
import shootout.generated.sbe.MixedRowDecoder;
import shootout.generated.sbe.MultiMessageDecoder;
import shootout.generated.sbe.MultiMessageEncoder;
import shootout.generated.sbe.PrimitivesDecoder;
import shootout.generated.sbe.PrimitivesEncoder;
import shootout.generated.sbe.Side;
import shootout.generated.sbe.SmallObjectDecoder;
import shootout.generated.sbe.SmallObjectEncoder;
import shootout.generated.sbe.SqlRequestDecoder;
import shootout.generated.sbe.SqlRequestEncoder;
import shootout.generated.sbe.StringsRowDecoder;
import shootout.generated.sbe.UserResponseDecoder;
import shootout.generated.sbe.UserResponseEncoder;
import shootout.workload.FieldSink;
import shootout.workload.IexSink;
import shootout.workload.MultiMessage;
import shootout.workload.Workload;

/**
 * SBE (sbe-tool's Java target, its reference implementation; Agrona buffers):
 * a message header and the message, encoded by the generated flyweight into a
 * reused expandable buffer and copied into the stream; decoded by the
 * generated flyweight over a bounds-checked view of the stream, texts as views
 * (no copy). Messages delimit themselves (header, block length, group counts,
 * var-data lengths): no length prefix. Every read goes through Agrona's bounds
 * checks on a view that ends where the stream ends, and texts are views, so
 * garbage cannot make the decoder allocate what a length in it claims.
 */
public final class SbeCodec<R, S> implements Codec<R, S> {
    public static final Info INFO = new Info(
            "sbe",
            "SBE (Simple Binary Encoding)",
            "uk.co.real-logic:sbe-all",
            Labels.of(true, "zero-copy", "validated", "generated"),
            Framing.NONE,
            "sbe",
            "sbe-tool 1.38.1 Java flyweights over Agrona buffers (iex-sbe.xml); header + message, self-delimiting; texts read as "
                    + "views; iex symbols as char[8] space-padded (Latin-1 bytes); tabular presence as a bitset");

    interface Enc<R> {
        int encode(SbeCodec<?, ?> c, R r);
    }

    interface Dec<S> {
        int decode(SbeCodec<?, ?> c, S sink) throws IOException;
    }

    final ExpandableArrayBuffer out = new ExpandableArrayBuffer(1 << 12);
    final UnsafeBuffer in = new UnsafeBuffer(new byte[0]);
    final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);
    final MessageHeaderEncoder hdrE = new MessageHeaderEncoder();
    final MessageHeaderDecoder hdrD = new MessageHeaderDecoder();
    private final Enc<R> enc;
    private final Dec<S> dec;

    SbeCodec(Enc<R> enc, Dec<S> dec) {
        this.enc = enc;
        this.dec = dec;
    }

    @Override
    public void encode(Stream s, R r) {
        int n = enc.encode(this, r);
        s.write(out.byteArray(), 0, n);
    }

    @Override
    public int decode(byte[] buf, int off, int end, S sink) throws Exception {
        in.wrap(buf, off, end - off);
        if (end - off < MessageHeaderDecoder.ENCODED_LENGTH) {
            throw new IOException("sbe: " + (end - off) + " bytes, no room for a message header");
        }
        hdrD.wrap(in, 0);
        return dec.decode(this, sink);
    }

    /** Checks the header names template id and a block length that fits. */
    void expect(int templateId) throws IOException {
        if (hdrD.templateId() != templateId
                || hdrD.schemaId() != MessageHeaderDecoder.SCHEMA_ID
                || hdrD.blockLength() + MessageHeaderDecoder.ENCODED_LENGTH > in.capacity()) {
            throw new IOException("sbe: not a message of template " + templateId);
        }
    }

    static void text(FieldSink s, int field, UnsafeBuffer v) {
        s.utf8(field, v.byteArray(), v.wrapAdjustment(), v.capacity());
    }

    static BooleanType bool(boolean b) {
        return b ? BooleanType.True : BooleanType.False;
    }

    static boolean bool(BooleanType b) throws IOException {
        if (b == BooleanType.True) {
            return true;
        }
        if (b == BooleanType.False) {
            return false;
        }
        throw new IOException("sbe: boolean " + b);
    }

    /** A tabular row's encoder, generated from the schema (SbeRows): the message, header first, at out[0]; returns its length. */
    interface RowEncode<R> {
        int encode(MutableDirectBuffer out, MessageHeaderEncoder header, R r);
    }

    /** A tabular row's decoder, generated from the schema (SbeRows): feeds the message whose header was read; returns its length. */
    interface RowFeed {
        int feed(DirectBuffer in, MessageHeaderDecoder header, UnsafeBuffer view, FieldSink s);
    }

    /** The codec of a tabular row's message, template templateId. */
    static <R> SbeCodec<R, FieldSink> row(int templateId, RowEncode<R> encode, RowFeed feed) {
        return new SbeCodec<>((c, r) -> encode.encode(c.out, c.hdrE, r), (c, s) -> {
            c.expect(templateId);
            return feed.feed(c.in, c.hdrD, c.view, s);
        });
    }

    /** The workloads it maps. */
    public static final List<Mapping<?, ?>> MAPPINGS = List.of(
            new Mapping<>(Workload.IEX, () -> new SbeCodec<>(SbeCodec::iex, SbeCodec::iex)),
            new Mapping<>(Workload.USER, () -> new SbeCodec<>(SbeCodec::user, SbeCodec::user)),
            new Mapping<>(Workload.SQL, () -> new SbeCodec<>(SbeCodec::sql, SbeCodec::sql)),
            new Mapping<>(Workload.PRIMITIVES, () -> new SbeCodec<>(SbeCodec::primitives, SbeCodec::primitives)),
            new Mapping<>(Workload.OBJECT, () -> new SbeCodec<>(SbeCodec::object, SbeCodec::object)),
            new Mapping<>(
                    Workload.MIXED,
                    () -> row(MixedRowDecoder.TEMPLATE_ID, SbeRows::encodeMixedRow, SbeRows::feedMixedRow)),
            new Mapping<>(
                    Workload.STRINGS,
                    () -> row(StringsRowDecoder.TEMPLATE_ID, SbeRows::encodeStringsRow, SbeRows::feedStringsRow)),
            new Mapping<>(
                    Workload.LONGS,
                    () -> row(LongsRowDecoder.TEMPLATE_ID, SbeRows::encodeLongsRow, SbeRows::feedLongsRow)));

    static int user(SbeCodec<?, ?> c, shootout.workload.User u) {
        UserResponseEncoder e = new UserResponseEncoder().wrapAndApplyHeader(c.out, 0, c.hdrE);
        e.uid(u.uid).tutorial(u.tutorial).totalLoginNum(u.total_login_num);
        e.muid(u.muid)
                .status(u.status)
                .nickname(u.nickname)
                .openedAt(u.opened_at)
                .createdAt(u.created_at)
                .updatedAt(u.updated_at);
        return MessageHeaderEncoder.ENCODED_LENGTH + e.encodedLength();
    }

    static int user(SbeCodec<?, ?> c, FieldSink s) throws IOException {
        c.expect(UserResponseDecoder.TEMPLATE_ID);
        UserResponseDecoder d = new UserResponseDecoder().wrapAndApplyHeader(c.in, 0, c.hdrD);
        s.record();
        s.i(0, d.uid());
        s.i(3, d.tutorial());
        s.i(5, d.totalLoginNum());
        d.wrapMuid(c.view);
        text(s, 1, c.view);
        d.wrapStatus(c.view);
        text(s, 2, c.view);
        d.wrapNickname(c.view);
        text(s, 4, c.view);
        d.wrapOpenedAt(c.view);
        text(s, 6, c.view);
        d.wrapCreatedAt(c.view);
        text(s, 7, c.view);
        d.wrapUpdatedAt(c.view);
        text(s, 8, c.view);
        return d.limit();
    }

    static int sql(SbeCodec<?, ?> c, shootout.workload.SqlRequest r) {
        SqlRequestEncoder e = new SqlRequestEncoder().wrapAndApplyHeader(c.out, 0, c.hdrE);
        SqlRequestEncoder.ArgsEncoder a = e.argsCount(r.args.length);
        for (long v : r.args) {
            a.next().value(v);
        }
        e.query(r.query);
        return MessageHeaderEncoder.ENCODED_LENGTH + e.encodedLength();
    }

    static int sql(SbeCodec<?, ?> c, FieldSink s) throws IOException {
        c.expect(SqlRequestDecoder.TEMPLATE_ID);
        SqlRequestDecoder d = new SqlRequestDecoder().wrapAndApplyHeader(c.in, 0, c.hdrD);
        s.record();
        for (SqlRequestDecoder.ArgsDecoder a : d.args()) {
            s.i(1, a.value());
        }
        d.wrapQuery(c.view);
        text(s, 0, c.view);
        return d.limit();
    }

    static int primitives(SbeCodec<?, ?> c, shootout.workload.Primitives r) {
        PrimitivesEncoder e = new PrimitivesEncoder().wrapAndApplyHeader(c.out, 0, c.hdrE);
        PrimitivesEncoder.IntsEncoder ints = e.intsCount(r.ints.length);
        for (int v : r.ints) {
            ints.next().value(v);
        }
        PrimitivesEncoder.LongsEncoder longs = e.longsCount(r.longs.length);
        for (long v : r.longs) {
            longs.next().value(v);
        }
        PrimitivesEncoder.DoublesEncoder doubles = e.doublesCount(r.doubles.length);
        for (double v : r.doubles) {
            doubles.next().value(v);
        }
        PrimitivesEncoder.BooleansEncoder bools = e.booleansCount(r.booleans.length);
        for (boolean v : r.booleans) {
            bools.next().value(bool(v));
        }
        PrimitivesEncoder.StringsEncoder strs = e.stringsCount(r.strings.length);
        for (String v : r.strings) {
            strs.next().value(v);
        }
        return MessageHeaderEncoder.ENCODED_LENGTH + e.encodedLength();
    }

    static int primitives(SbeCodec<?, ?> c, FieldSink s) throws IOException {
        c.expect(PrimitivesDecoder.TEMPLATE_ID);
        PrimitivesDecoder d = new PrimitivesDecoder().wrapAndApplyHeader(c.in, 0, c.hdrD);
        s.record();
        for (PrimitivesDecoder.IntsDecoder x : d.ints()) {
            s.i(0, x.value());
        }
        for (PrimitivesDecoder.LongsDecoder x : d.longs()) {
            s.i(1, x.value());
        }
        for (PrimitivesDecoder.DoublesDecoder x : d.doubles()) {
            s.f(2, x.value());
        }
        for (PrimitivesDecoder.BooleansDecoder x : d.booleans()) {
            s.bool(3, bool(x.value()));
        }
        for (PrimitivesDecoder.StringsDecoder x : d.strings()) {
            x.wrapValue(c.view);
            text(s, 4, c.view);
        }
        return d.limit();
    }

    static int object(SbeCodec<?, ?> c, shootout.workload.SmallObject o) {
        SmallObjectEncoder e = new SmallObjectEncoder().wrapAndApplyHeader(c.out, 0, c.hdrE);
        e.id(o.id)
                .age(o.age)
                .score(o.score)
                .ratio(o.ratio)
                .active(bool(o.active))
                .level((short) o.level)
                .createdAt(o.created_at);
        SmallObjectEncoder.TagsEncoder t = e.tagsCount(o.tags.length);
        for (String tag : o.tags) {
            t.next().value(tag);
        }
        e.name(o.name).email(o.email);
        return MessageHeaderEncoder.ENCODED_LENGTH + e.encodedLength();
    }

    static int object(SbeCodec<?, ?> c, FieldSink s) throws IOException {
        c.expect(SmallObjectDecoder.TEMPLATE_ID);
        SmallObjectDecoder d = new SmallObjectDecoder().wrapAndApplyHeader(c.in, 0, c.hdrD);
        s.record();
        s.i(0, d.id());
        s.i(3, d.age());
        s.f(4, d.score());
        s.f(5, (double) d.ratio());
        s.bool(6, bool(d.active()));
        s.i(7, d.level());
        s.i(8, d.createdAt());
        for (SmallObjectDecoder.TagsDecoder t : d.tags()) {
            t.wrapValue(c.view);
            text(s, 9, c.view);
        }
        d.wrapName(c.view);
        text(s, 1, c.view);
        d.wrapEmail(c.view);
        text(s, 2, c.view);
        return d.limit();
    }

    private final byte[] symbol = new byte[8];

    static int iex(SbeCodec<?, ?> c, MultiMessage r) {
        MultiMessageEncoder e = new MultiMessageEncoder().wrapAndApplyHeader(c.out, 0, c.hdrE);
        e.seqNo(r.seq_no);
        MultiMessageEncoder.MessagesEncoder g = e.messagesCount(r.messages.length);
        for (MultiMessage.Message m : r.messages) {
            g.next().ts(m.ts).price(m.price).size(m.size);
            int n = m.symbol.length();
            if (n > 8) {
                throw new IllegalArgumentException("sbe: symbol " + m.symbol + " is over 8 bytes");
            }
            for (int i = 0; i < 8; i++) {
                c.symbol[i] = i < n ? (byte) m.symbol.charAt(i) : (byte) ' ';
            }
            g.putSymbol(c.symbol, 0);
            if (m.kind == MultiMessage.Message.TRADE) {
                g.flags((short) 0).side(Side.NULL_VAL).bodyType(BodyType.Trade);
            } else {
                g.flags((short) m.flags)
                        .side(m.side == MultiMessage.Message.BUY ? Side.Buy : Side.Sell)
                        .bodyType(BodyType.LevelUpdate);
            }
        }
        return MessageHeaderEncoder.ENCODED_LENGTH + e.encodedLength();
    }

    static int iex(SbeCodec<?, ?> c, IexSink a) throws IOException {
        c.expect(MultiMessageDecoder.TEMPLATE_ID);
        MultiMessageDecoder d = new MultiMessageDecoder().wrapAndApplyHeader(c.in, 0, c.hdrD);
        long seq = d.seqNo();
        MultiMessageDecoder.MessagesDecoder g = d.messages();
        a.packet(seq, g.count());
        while (g.hasNext()) {
            g.next();
            g.getSymbol(c.symbol, 0);
            int n = 8;
            while (n > 0 && c.symbol[n - 1] == ' ') {
                n--;
            }
            String sym = new String(c.symbol, 0, n, StandardCharsets.ISO_8859_1);
            BodyType t = g.bodyType();
            if (t == BodyType.Trade) {
                a.trade(g.ts(), sym, g.price(), g.size());
            } else if (t == BodyType.LevelUpdate) {
                Side side = g.side();
                if (side != Side.Buy && side != Side.Sell) {
                    throw new IOException("sbe: level update side " + side);
                }
                a.levelUpdate(
                        g.ts(),
                        sym,
                        side == Side.Buy ? MultiMessage.Message.BUY : MultiMessage.Message.SELL,
                        g.flags(),
                        g.price(),
                        g.size());
            } else {
                throw new IOException("sbe: body type " + t);
            }
        }
        return d.limit();
    }
}
