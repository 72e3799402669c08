package shootout.workload;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * An iex dataset line: serde's externally tagged body ({"Trade": {...}} or
 * {"LevelUpdate": {...}}), u64 numbers in full, a symbol of chars up to U+00FF.
 */
final class IexLine {
    private IexLine() {}

    static MultiMessage read(String line) throws Exception {
        JsonNode n = Json.MAPPER.readTree(line);
        MultiMessage m = new MultiMessage();
        m.seq_no = Json.u64(n.get("seq_no"), "seq_no");
        JsonNode ms = n.get("messages");
        if (ms == null || !ms.isArray()) {
            throw new IllegalArgumentException("messages: not an array");
        }
        m.messages = new MultiMessage.Message[ms.size()];
        for (int i = 0; i < ms.size(); i++) {
            JsonNode j = ms.get(i);
            MultiMessage.Message msg = new MultiMessage.Message();
            msg.ts = Json.i64(j.get("ts"), "ts");
            String sym = j.get("symbol").textValue();
            if (sym == null) {
                throw new IllegalArgumentException("message " + i + ": symbol is not a string");
            }
            for (int c = 0; c < sym.length(); c++) {
                if (sym.charAt(c) > 0xff) {
                    throw new IllegalArgumentException(
                            "message " + i + ": symbol " + sym + " has a character above U+00FF");
                }
            }
            msg.symbol = sym;
            JsonNode body = j.get("body");
            JsonNode t = body.get("Trade"), l = body.get("LevelUpdate");
            if (body.size() != 1 || (t == null) == (l == null)) {
                throw new IllegalArgumentException("message " + i + ": body must be exactly one of Trade, LevelUpdate");
            }
            if (t != null) {
                msg.kind = MultiMessage.Message.TRADE;
                msg.price = Json.u64(t.get("price"), "price");
                msg.size = u32(t.get("size"), "size");
            } else {
                msg.kind = MultiMessage.Message.LEVEL;
                msg.price = Json.u64(l.get("price"), "price");
                msg.size = u32(l.get("size"), "size");
                long flags = Json.u64(l.get("flags"), "flags");
                if (flags > 255) {
                    throw new IllegalArgumentException("flags " + flags + " is not a u8");
                }
                msg.flags = (int) flags;
                String side = l.get("side").textValue();
                if ("Buy".equals(side)) {
                    msg.side = MultiMessage.Message.BUY;
                } else if ("Sell".equals(side)) {
                    msg.side = MultiMessage.Message.SELL;
                } else {
                    throw new IllegalArgumentException("message " + i + ": side " + side);
                }
            }
            m.messages[i] = msg;
        }
        return m;
    }

    private static long u32(JsonNode n, String what) {
        long v = Json.u64(n, what);
        if (v < 0 || v > 0xffffffffL) {
            throw new IllegalArgumentException(what + " " + Long.toUnsignedString(v) + " is not a u32");
        }
        return v;
    }
}
