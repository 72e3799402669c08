package shootout.codec;

import java.util.ArrayList;
import java.util.List;

/**
 * How a codec uses its library (the results schema's labels). api is
 * "reflection" (the library inspects the Java class at run time), "generated"
 * (code from a schema), "manual" (the codec writes the format's values one by
 * one, as msgpack-core's packer) or "dynamic" (the library's runtime schema
 * API: a protobuf descriptor or an Avro schema read at run time, its dynamic
 * messages or generic records); the Rust runner's "native"/"serde".
 */
public record Labels(boolean bufferReuse, String decode, String access, String api, String lossy) {
    public static Labels of(boolean reuse, String decode, String access, String api) {
        return new Labels(reuse, decode, access, api, null);
    }

    public List<String> tags() {
        List<String> t = new ArrayList<>();
        if (bufferReuse) {
            t.add("reuse");
        }
        t.add(decode);
        t.add(access);
        t.add(api);
        if (lossy != null) {
            t.add("lossy");
        }
        return t;
    }
}
