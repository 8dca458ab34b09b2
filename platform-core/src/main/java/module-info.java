module lnp.platform.core {
    requires java.sql;
    requires org.apache.commons.compress;
    requires org.tukaani.xz;
    requires org.postgresql.jdbc;
}
