package shootout.workload;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The iex aggregate (docs/dataset-format.md; workload/iex/aggregate.rs): per
 * symbol, trade and level-update counts and wrapping sums, and the per-side
 * price bounds as i64. Symbols are keyed by their Latin-1 reading (one char
 * per wire byte), as the dataset writes them.
 */
public final class IexSink {
    long records, messages, seqNoSum;
    final Map<String, Sym> symbols = new HashMap<>(256);

    static final class Sym {
        long trades, tradeVolume, tradePriceSum, levelUpdates, buyUpdates, levelSizeSum, levelPriceSum, flagsSum, tsSum;
        long bidLow, bidHigh, askLow, askHigh;
        boolean bids, asks;

        List<Object> figures() {
            return java.util.Arrays.asList(
                    Long.toUnsignedString(trades),
                    Long.toUnsignedString(tradeVolume),
                    Long.toUnsignedString(tradePriceSum),
                    Long.toUnsignedString(levelUpdates),
                    Long.toUnsignedString(buyUpdates),
                    Long.toUnsignedString(levelSizeSum),
                    Long.toUnsignedString(levelPriceSum),
                    Long.toUnsignedString(flagsSum),
                    tsSum,
                    bids ? bidLow : null,
                    bids ? bidHigh : null,
                    asks ? askLow : null,
                    asks ? askHigh : null);
        }
    }

    static final List<String> FIGURES = List.of(
            "trades",
            "trade_volume",
            "trade_price_sum",
            "level_updates",
            "buy_updates",
            "level_size_sum",
            "level_price_sum",
            "flags_sum",
            "ts_sum",
            "bid_low",
            "bid_high",
            "ask_low",
            "ask_high");

    /** Called once per record, with the number of messages it declares. */
    public void packet(long seqNo, int count) {
        records++;
        messages += count;
        seqNoSum += seqNo;
    }

    private Sym stats(String symbol) {
        Sym s = symbols.get(symbol);
        if (s == null) {
            s = new Sym();
            symbols.put(symbol, s);
        }
        return s;
    }

    public void trade(long ts, String symbol, long price, long size) {
        Sym s = stats(symbol);
        s.trades++;
        s.tradeVolume += size;
        s.tradePriceSum += price;
        s.tsSum += ts;
    }

    /** Counts every update, size-0 deletions included; price is the wire's i64, carried as u64. */
    public void levelUpdate(long ts, String symbol, int side, int flags, long price, long size) {
        Sym s = stats(symbol);
        s.levelUpdates++;
        if (side == MultiMessage.Message.BUY) {
            s.buyUpdates++;
        }
        s.levelSizeSum += size;
        s.levelPriceSum += price;
        s.flagsSum += flags;
        s.tsSum += ts;
        if (side == MultiMessage.Message.BUY) {
            if (!s.bids) {
                s.bidLow = s.bidHigh = price;
                s.bids = true;
            }
            s.bidLow = Math.min(s.bidLow, price);
            s.bidHigh = Math.max(s.bidHigh, price);
        } else {
            if (!s.asks) {
                s.askLow = s.askHigh = price;
                s.asks = true;
            }
            s.askLow = Math.min(s.askLow, price);
            s.askHigh = Math.max(s.askHigh, price);
        }
    }

    public void message(MultiMessage.Message m) {
        if (m.kind == MultiMessage.Message.TRADE) {
            trade(m.ts, m.symbol, m.price, m.size);
        } else {
            levelUpdate(m.ts, m.symbol, m.side, m.flags, m.price, m.size);
        }
    }

    public long records() {
        return records;
    }

    /** The iex reference aggregate, parsed from the dataset header. */
    public static final class Reference {
        final long records, messages, seqNoSum;
        final Map<String, List<Object>> symbols = new HashMap<>();

        /** The figures of an aggregate fed here, to compare another one with (interop's per-record search). */
        public Reference(IexSink s) {
            records = s.records;
            messages = s.messages;
            seqNoSum = s.seqNoSum;
            s.symbols.forEach((name, sym) -> symbols.put(name, sym.figures()));
        }

        public Reference(JsonNode ref) {
            records = Json.u64(ref.get("records"), "records");
            messages = Json.u64(ref.get("messages"), "messages");
            seqNoSum = Json.u64(ref.get("seq_no_sum"), "seq_no_sum");
            ref.get("symbols").properties().forEach(e -> {
                JsonNode s = e.getValue();
                List<Object> figs = new ArrayList<>();
                for (int i = 0; i < FIGURES.size(); i++) {
                    String f = FIGURES.get(i);
                    JsonNode v = s.get(f);
                    if (i < 8) {
                        figs.add(Long.toUnsignedString(Json.u64(v, f)));
                    } else if (i == 8) {
                        figs.add(Json.i64(v, f));
                    } else {
                        figs.add(v == null || v.isNull() ? null : Json.i64(v, f));
                    }
                }
                symbols.put(e.getKey(), figs);
            });
        }
    }

    private static String show(List<Object> figs) {
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < FIGURES.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(FIGURES.get(i)).append(' ').append(figs.get(i));
        }
        return b.append('}').toString();
    }

    /** The first differing figure, per symbol (sorted) first, then the totals, as aggregate.rs; null when equal. */
    public String firstDifference(Reference want) {
        List<String> names = new ArrayList<>(want.symbols.keySet());
        Collections.sort(names);
        for (String s : names) {
            Sym g = symbols.get(s);
            if (g == null) {
                return "symbol \"" + s + "\": missing from decoded aggregate";
            }
            List<Object> w = want.symbols.get(s), gf = g.figures();
            if (!w.equals(gf)) {
                return "symbol \"" + s + "\": expected " + show(w) + ", decoded " + show(gf);
            }
        }
        for (String s : symbols.keySet()) {
            if (!want.symbols.containsKey(s)) {
                return "symbol \"" + s + "\": decoded but absent from the reference";
            }
        }
        if (want.records != records) {
            return "records expected " + want.records + ", decoded " + records;
        }
        if (want.messages != messages) {
            return "messages expected " + want.messages + ", decoded " + messages;
        }
        if (want.seqNoSum != seqNoSum) {
            return "seq_no_sum expected " + Long.toUnsignedString(want.seqNoSum) + ", decoded "
                    + Long.toUnsignedString(seqNoSum);
        }
        return null;
    }
}
