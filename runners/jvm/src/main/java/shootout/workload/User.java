package shootout.workload;

import java.io.Serializable;

/**
 * The user workload's record, the study's UserResponse
 * (crates/shootout/src/workload/user.rs). Fields are named as in the dataset
 * so every reflection-based library (Jackson, Kryo, Fory, Java serialization,
 * Ignite, BSON) maps them by name without annotations.
 */
public final class User implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final java.util.List<String> FIELDS = java.util.List.of(
            "uid",
            "muid",
            "status",
            "tutorial",
            "nickname",
            "total_login_num",
            "opened_at",
            "created_at",
            "updated_at");

    public long uid;
    public String muid;
    public String status;
    public long tutorial;
    public String nickname;
    public long total_login_num;
    public String opened_at;
    public String created_at;
    public String updated_at;

    /** Feeds every field to the sink in user.rs's visit order. */
    public void visit(FieldSink s) {
        visit(s, uid, muid, status, tutorial, nickname, total_login_num, opened_at, created_at, updated_at);
    }

    /** Feeds a user's fields, as any codec's message holds them, to the sink in user.rs's visit order. */
    public static void visit(
            FieldSink s,
            long uid,
            String muid,
            String status,
            long tutorial,
            String nickname,
            long totalLoginNum,
            String openedAt,
            String createdAt,
            String updatedAt) {
        s.record();
        s.i(0, uid);
        s.text(1, muid);
        s.text(2, status);
        s.i(3, tutorial);
        s.text(4, nickname);
        s.i(5, totalLoginNum);
        s.text(6, openedAt);
        s.text(7, createdAt);
        s.text(8, updatedAt);
    }
}
