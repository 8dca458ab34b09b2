-- A sign-in started from a plugin's page for people (PeoplePages) returns there after signing in: a local path
-- of this deployment, checked when the link is issued. NULL for the console's own sign-in and for invitations.
ALTER TABLE sign_in_links ADD COLUMN return_to text CHECK (return_to IS NULL OR (length(return_to) <= 2000 AND return_to LIKE '/%'));
