-- The widget key itself, beside its hash: the key is public by design (every page that embeds the widget carries it
-- in its snippet), and an admin opening the widget's page needs the whole snippet again, not only at creation.
-- The hash stays what a handshake is looked up by. Widgets made before this version show their key prefix until
-- their key is rotated.
ALTER TABLE widgets ADD COLUMN public_key text;
