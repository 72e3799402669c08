package shootout.study.logs;

/** The value types of the study's case classes' fields: Option[String], Option[Double], Option[Long], Option[Int], Option[Float]. */
enum Kind {
    STRING(""),
    DOUBLE(0.0),
    LONG(0L),
    INT(0),
    FLOAT(0f);

    /**
     * What the study's MessagePack and Protobuf code wrote for an absent field
     * (`getOrElse("")`, `getOrElse(0)`, ...), and so what they read back.
     */
    final Object absent;

    Kind(Object absent) {
        this.absent = absent;
    }

    /** A non-empty CSV cell as kantan decoded it: the JVM's own parsing of what toString wrote. */
    Object parse(String text) {
        return switch (this) {
            case STRING -> text;
            case DOUBLE -> Double.parseDouble(text);
            case LONG -> Long.parseLong(text);
            case INT -> Integer.parseInt(text);
            case FLOAT -> Float.parseFloat(text);
        };
    }
}
