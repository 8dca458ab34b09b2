package dev.lnp.plugins.crm;

import dev.lnp.api.http.ApiProblem;
import java.sql.SQLException;

/** Recognizes the constraint violations the CRM answers as client errors rather than 500. */
final class SqlErrors {

    private SqlErrors() {
    }

    static boolean isUniqueViolation(Throwable error, String constraint) {
        return violates(error, "23505", constraint);
    }

    static boolean isForeignKeyViolation(Throwable error, String constraint) {
        return violates(error, "23503", constraint);
    }

    /** What a contact or deal gets for a company_id its foreign key refused: the same words for both. */
    static ApiProblem unknownCompany() {
        return ApiProblem.invalidField("/company_id", "exists", "company_id does not name a company of this workspace");
    }

    private static boolean violates(Throwable error, String sqlState, String constraint) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sqlState.equals(sql.getSQLState())
                    && String.valueOf(sql.getMessage()).contains(constraint)) {
                return true;
            }
        }
        return false;
    }
}
