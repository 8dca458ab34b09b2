package dev.lnp.core.health;

import dev.lnp.database.Database;
import io.helidon.health.HealthCheck;
import io.helidon.health.HealthCheckResponse;
import io.helidon.health.HealthCheckType;

/** Readiness: the platform is ready only while its database answers. */
public final class DatabaseHealthCheck implements HealthCheck {

    private final Database database;

    public DatabaseHealthCheck(Database database) {
        this.database = database;
    }

    @Override
    public HealthCheckType type() {
        return HealthCheckType.READINESS;
    }

    @Override
    public String name() {
        return "database";
    }

    @Override
    public HealthCheckResponse call() {
        boolean up = database.isReachable();
        return HealthCheckResponse.builder()
                .status(up)
                .detail("database", up ? "reachable" : "unreachable")
                .build();
    }
}
