-- A widget's office hours (null: always attended), checked by the plugin before they are stored, and the e-mail
-- address a visitor left when they asked for a person outside them, so the team can answer by mail.
ALTER TABLE widgets ADD COLUMN office_hours jsonb;
ALTER TABLE sessions ADD COLUMN visitor_email text;
