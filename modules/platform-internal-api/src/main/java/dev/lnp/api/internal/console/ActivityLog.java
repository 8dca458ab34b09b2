package dev.lnp.api.internal.console;

/** The workspace's activity log on the console's Activity page: who changed what, when. */
public interface ActivityLog {

    /** Records a change {@code actor} made, after it committed. */
    void record(ConsoleSession actor, String action, String target, String detail);
}
