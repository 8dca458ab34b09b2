package dev.lnp.core.auth;

import dev.lnp.core.db.AdmissionCheck;
import dev.lnp.api.workspace.Principal;
import dev.lnp.core.auth.AuthorizationHeader.Unauthorized;
import dev.lnp.core.limits.QuotaCharge;
import dev.lnp.core.limits.QuotaReserve;
import dev.lnp.core.limits.RateLeases;
import dev.lnp.core.limits.RateLimiter;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Turns an Authorization header into a {@link Principal}, or a 401. Keys are looked up in the database (one
 * indexed query, which also records the key's use and, when this node's lease on the rate window has no position
 * left, reserves more: see {@link KeyRepository#admit} and {@link RateLeases}), so revocation takes effect at once on
 * every node. A call whose transaction re-checks the admission may skip the lookup for a few seconds
 * ({@link AdmissionCache}, {@link AdmissionCheck}): the check sits in the transaction's first statement, so the
 * revocation still takes effect at once.
 */
public final class Authenticator {

    private final KeyRepository keys;
    private final ScopeCatalog scopes;
    private final Clock clock;
    private final Instant legacyKeysUntil;
    private final RateLeases leases = new RateLeases();
    private final AdmissionCache admissions;
    private final QuotaReserve reserve;
    /** The tokens that stand for keys (an authorization server's), when a subsystem offers them; else null. */
    private volatile dev.lnp.api.internal.keys.DelegatedTokens delegatedTokens;

    /**
     * @param legacyKeysUntil the end of the compatibility period for {@code wks_} keys, or null while the operator
     *                        has not set one (the contract: legacy keys "are still accepted during a compatibility
     *                        period", so the period is open until an end is chosen)
     */
    public Authenticator(KeyRepository keys, ScopeCatalog scopes, Clock clock, Instant legacyKeysUntil,
            QuotaReserve reserve) {
        this.reserve = reserve;
        this.admissions = new AdmissionCache();
        this.keys = keys;
        this.scopes = scopes;
        this.clock = clock;
        this.legacyKeysUntil = legacyKeysUntil;
    }

    /**
     * @param window where to count the request (the rate limit of its surface), or null to only look the key up
     */
    public Authenticated authenticate(List<String> authorizationHeaders, RateLimiter.Window window) {
        return authenticate(authorizationHeaders, window, null, false, null);
    }

    /** Accepts, from now on, the tokens {@code tokens} recognises in place of the keys they stand for. */
    public void acceptDelegatedTokens(dev.lnp.api.internal.keys.DelegatedTokens tokens) {
        this.delegatedTokens = tokens;
    }

    /**
     * As {@link #admit}, for a request to {@code path} (null: a call that has no path, which a token cannot make); its
     * 401 names the path's resource metadata when tokens are issued for it, so that a client finds where to get one.
     */
    public Authenticated authenticate(List<String> authorizationHeaders, RateLimiter.Window window,
            QuotaCharge charge, boolean checkedLater, String path) {
        try {
            return admit(authorizationHeaders, window, charge, checkedLater, path);
        } catch (dev.lnp.api.http.ApiProblem refused) {
            throw refused.status() == 401 ? challenged(refused, path) : refused;
        }
    }

    /** {@code problem} with {@code resource_metadata} in its challenge when {@code path} has a token resource. */
    public dev.lnp.api.http.ApiProblem challenged(dev.lnp.api.http.ApiProblem problem, String path) {
        var tokens = delegatedTokens;
        String challenge = problem.headers().get("WWW-Authenticate");
        var metadata = tokens == null || path == null || challenge == null ? Optional.<String>empty()
                : tokens.resourceMetadata(path);
        if (metadata.isEmpty()) {
            return problem;
        }
        var headers = new java.util.LinkedHashMap<>(problem.headers());
        headers.put("WWW-Authenticate", challenge + ", resource_metadata=\"" + metadata.get() + "\"");
        return new dev.lnp.api.http.ApiProblem(problem.status(), problem.code(), problem.title(), problem.detail(),
                problem.errors(), headers);
    }

    /**
     * The key's hash: a platform key's own, or that of the key a token stands for on {@code path}, with the scopes
     * the token is limited to, if any.
     */
    private dev.lnp.api.internal.keys.DelegatedTokens.Delegation keyHash(List<String> authorizationHeaders,
            String path) {
        String bearer = AuthorizationHeader.bearerValue(authorizationHeaders);
        if (ApiKeys.hasKeyShape(bearer)) {
            return new dev.lnp.api.internal.keys.DelegatedTokens.Delegation(ApiKeys.hash(bearer), Optional.empty());
        }
        var tokens = delegatedTokens;
        if (tokens == null || path == null) {
            throw Unauthorized.invalid();
        }
        return tokens.delegation(bearer, path).orElseThrow(Unauthorized::invalid);
    }

    /** {@link #admitKey} for the bearer's key, its principal keeping only the scopes a token is limited to. */
    private Authenticated admit(List<String> authorizationHeaders, RateLimiter.Window window,
            QuotaCharge charge, boolean checkedLater, String path) {
        var delegation = keyHash(authorizationHeaders, path);
        Authenticated admitted = admitKey(delegation.keyHash(), window, charge, checkedLater);
        return delegation.scopeLimit().map(admitted::limitedTo).orElse(admitted);
    }

    /**
     * {@link #authenticate(List, RateLimiter.Window)} that also takes a unit of {@code charge}'s quota in the same
     * statement when the key is live and a window is given ({@link Authenticated#quotaTaken}); a refused key takes
     * none. Null takes nothing.
     *
     * <p>With {@code checkedLater}, the caller promises to verify {@link Authenticated#check} (when not null) in
     * its workspace transaction's first statement; then a key admitted from the database in the last seconds
     * ({@link AdmissionCache}) is admitted without a statement when this node's lease covers the request's rate
     * position and, when a quota unit is to be taken, this node holds one for the workspace ({@link QuotaReserve}).
     * The expiry and legacy-key checks still run on every request.
     */
    private Authenticated admitKey(byte[] hash, RateLimiter.Window window, QuotaCharge charge,
            boolean checkedLater) {
        Instant now = clock.instant();
        boolean legacyAccepted = legacyKeysUntil == null || now.isBefore(legacyKeysUntil);
        if (window == null) {
            return admitted(hash, keys.admit(hash, now, legacyAccepted, null, 0, charge, 1).orElse(null), now,
                    legacyAccepted, 0, null);
        }
        // A position this node already owns is taken before the lookup, so that the lookup writes nothing to the
        // window; it goes back to the lease when the request is refused (or the lookup fails): refused keys use no
        // budget.
        RateLeases.Claim claim = leases.claim(hash, window);
        try {
            AdmissionCache.Admitted cached = checkedLater && claim.covered() ? admissions.get(hash) : null;
            // A key with a tool-call budget takes a call before the tool's transaction: always from the database.
            if (cached != null && cached.key().toolCallBudget() == null) {
                checkTimes(cached.key(), now, legacyAccepted);
                if (charge == null || reserve.take(cached.key().workspaceId(), charge)) {
                    return new Authenticated(cached.principal(), cached.key(), claim.owned(), claim.lease(),
                            charge != null, new AdmissionCheck(cached.key().workspaceId(), cached.version()));
                }
            }
            // A write of a workspace this node knows may take a block of units for the writes that meet it here.
            UUID blockOf = charge != null && cached != null ? cached.key().workspaceId() : null;
            int units = blockOf == null ? 1 : reserve.blockFor(blockOf, charge.quota());
            Authenticated found;
            int granted = 0;
            try {
                KeyRepository.Admission admission = keys.admit(hash, now, legacyAccepted, window, claim.chunk(),
                        charge, units).orElse(null);
                granted = admission == null ? 0 : admission.quotaGranted();
                found = admitted(hash, admission, now, legacyAccepted, claim.owned(), claim.lease());
            } finally {
                if (blockOf != null) {
                    reserve.admitted(blockOf, charge, granted);
                }
            }
            if (claim.covered()) {
                return found;
            }
            RateLeases.Reserved reserved = leases.reserved(hash, window, found.hits(), claim);
            return new Authenticated(found.principal(), found.key(), reserved.position(), reserved.lease(),
                    found.quotaTaken(), null);
        } catch (RuntimeException refused) {
            claim.refused();
            throw refused;
        }
    }

    /**
     * For a caller admitted from the cache whose admission no transaction has checked yet: compares it with the
     * database now, with a statement of its own ({@link AdmissionCheck.Stale} when it changed). Called before a
     * client error (4xx) is answered or recorded, so that a revoked key is told so rather than given another
     * error; a 5xx is answered as it is (during an outage the statement could not run either).
     */
    public void confirm(AdmissionCheck check) {
        if (check != null && check.pending()) {
            check.verify(keys.admissionVersion(check.workspaceId()));
        }
    }

    /**
     * The admission statement's answer, or its 401; a live key's with its position (the window's total when the
     * statement reserved, else {@code position}). A live key's admission is kept for the next requests, with its
     * principal.
     */
    private Authenticated admitted(byte[] hash, KeyRepository.Admission admission, Instant now,
            boolean legacyAccepted, int position, RateLeases.Lease lease) {
        KeyRecord record = admission == null ? null : admission.key();
        if (record == null || record.keyRevokedAt() != null || record.connectionRevokedAt() != null) {
            admissions.evict(hash);
            throw record == null ? Unauthorized.invalid() : Unauthorized.revoked();
        }
        checkTimes(record, now, legacyAccepted);
        // The version changes with everything the principal is made of: unchanged, the cached one is still right
        // (writes are admitted here on every request, and building the principal was 3 % of a POST's CPU).
        AdmissionCache.Admitted before = admissions.get(hash);
        Principal principal = before != null && before.version() == admission.version()
                ? before.principal() : principal(record);
        admissions.put(hash, new AdmissionCache.Admitted(record, principal, admission.version()));
        return new Authenticated(principal, record, admission.hits() != null ? admission.hits() : position, lease,
                admission.quotaTaken(), null);
    }

    /** The 401s of a key that was live when it was looked up: expiry and the legacy period, against the clock. */
    private static void checkTimes(KeyRecord record, Instant now, boolean legacyAccepted) {
        if (record.keyValidUntil() != null && !now.isBefore(record.keyValidUntil())
                || record.connectionExpiresAt() != null && !now.isBefore(record.connectionExpiresAt())) {
            throw Unauthorized.expired();
        }
        if (record.legacy() && !legacyAccepted) {
            throw Unauthorized.legacyRetired();
        }
    }

    private Principal principal(KeyRecord record) {
        Set<String> granted = new LinkedHashSet<>(record.scopes());
        granted.addAll(scopes.preset(record.preset()));
        String role = "service";
        Optional<java.util.UUID> delegated = Optional.empty();
        if (record.delegationEnabled() && record.delegatedUserId() != null) {
            role = record.delegatedUserRole();
            delegated = Optional.of(record.delegatedUserId());
            granted.retainAll(scopes.allowedForRole(role));
        }
        granted.retainAll(scopes.all());
        return new Principal(record.workspaceId(), record.connectionId(), record.identityId(), delegated, role,
                scopes.effective(granted), Optional.ofNullable(record.connectionExpiresAt()));
    }

    /**
     * The principal, the connection settings the limits and the MCP filter need, the request's position in its
     * rate-limit window (0 when it was not counted), and the lease it came from (null when not counted), which
     * learns the limit of the verdict to size its next reservation; and whether the admission statement took the
     * unit of quota it was asked for (the caller then owns it: it is given back if the request does not use it);
     * and, when it was admitted from the cache, the check its transaction must make (else null).
     */
    public record Authenticated(Principal principal, KeyRecord key, int hits, RateLeases.Lease lease,
            boolean quotaTaken, AdmissionCheck check) {

        /** The same admission with only the scopes in both the principal's and {@code limit}. */
        Authenticated limitedTo(Set<String> limit) {
            Set<String> kept = new LinkedHashSet<>(principal.scopes());
            kept.retainAll(limit);
            Principal limited = new Principal(principal.workspaceId(), principal.connectionId(),
                    principal.identityId(), principal.delegatedUserId(), principal.role(), Set.copyOf(kept),
                    principal.expiresAt());
            return new Authenticated(limited, key, hits, lease, quotaTaken, check);
        }
    }
}
