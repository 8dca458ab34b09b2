-- Known visitors (docs/chatbot.md, "Known visitors"): a site that signs its visitors in proves who they are with a
-- short-lived HS256 token signed with the widget's own identity secret. The secret must be readable to verify a
-- signature, so it is kept as is (like the public key beside it), and shown only to those who manage the widget.
-- Widgets made before this version get their secret when it is first asked for or rotated.
ALTER TABLE widgets ADD COLUMN identity_secret text;
ALTER TABLE widgets ADD COLUMN require_verified_identity boolean NOT NULL DEFAULT false;

-- The visitor a conversation belongs to, as the site's token named them; null for an anonymous conversation
-- (visitor_email stays the address a visitor leaves outside office hours). contact_id is the CRM contact it was
-- linked to (no foreign key: the CRM is another plugin, and may be off for the workspace).
ALTER TABLE sessions ADD COLUMN visitor_user_id text;
ALTER TABLE sessions ADD COLUMN verified_email text;
ALTER TABLE sessions ADD COLUMN verified_name text;
ALTER TABLE sessions ADD COLUMN contact_id uuid;
