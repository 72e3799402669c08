package shootout.study.logs;

import java.io.Serial;
import java.io.Serializable;

/**
 * scala.Option as Java serialization saw the study's fields: a present value
 * is an object of its own holding the boxed value (Some, field `value`), an
 * absent one a reference to the one None. So a present 36-character string
 * costs what the study counted, 45 bytes: the Some object (TC_OBJECT and a
 * 5-byte reference to its class) and the string (TC_STRING, a 2-byte length,
 * 36 bytes); an absent field, a 5-byte back reference.
 */
final class Option<T> implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private static final Option<?> NONE = new Option<>(null);

    /** The value, null for None. */
    final T value;

    private Option(T value) {
        this.value = value;
    }

    @SuppressWarnings("unchecked")
    static <T> Option<T> of(T value) {
        return value == null ? (Option<T>) NONE : new Option<>(value);
    }

    /** None stays one object after a read, as Scala's None does. */
    @Serial
    private Object readResolve() {
        return value == null ? NONE : this;
    }
}
