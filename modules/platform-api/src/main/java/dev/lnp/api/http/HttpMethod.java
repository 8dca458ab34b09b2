package dev.lnp.api.http;

public enum HttpMethod { GET, POST, PUT, PATCH, DELETE, OPTIONS }
