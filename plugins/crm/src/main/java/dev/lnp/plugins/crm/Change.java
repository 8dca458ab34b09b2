package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** A record before and after one change, for the activity entry that tells which fields changed. */
record Change(ObjectNode before, ObjectNode after) {
}
