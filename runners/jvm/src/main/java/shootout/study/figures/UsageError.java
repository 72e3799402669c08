package shootout.study.figures;

import java.io.PrintStream;

/** A study command line that asks for something the study's command cannot do. */
public final class UsageError extends Exception {
    private static final long serialVersionUID = 1L;

    public UsageError(String message) {
        super(message);
    }

    /** Says this error (if it has words), then the command's usage, on err; returns exit status 2. */
    public int refuse(String usage, PrintStream err) {
        if (!getMessage().isEmpty()) {
            err.println("shootout-jvm: " + getMessage());
        }
        err.println(usage);
        return 2;
    }
}
