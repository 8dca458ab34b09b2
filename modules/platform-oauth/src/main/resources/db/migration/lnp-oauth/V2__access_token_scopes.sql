-- A refresh may ask for fewer scopes than its grant has (RFC 6749 §6): the access token it gives is limited to
-- them. Null: the grant's scopes (every code exchange, and a refresh that asks for none). Refresh tokens keep the
-- grant's scopes, so a later refresh may ask for them all again.
ALTER TABLE lnp_oauth.tokens ADD COLUMN scopes text[];
