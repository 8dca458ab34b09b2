package dev.lnp.api.http;

/** How a successful result is written. */
public enum ResponseShape {
    /** {@code {"data": ..., "pagination"?: ...}}, the standard v1 envelope. */
    ENVELOPE,
    /** The object itself, for the older create handlers the contract names (e.g. contact create). */
    DIRECT
}
