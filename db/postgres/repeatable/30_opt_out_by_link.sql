-- An unsubscribe link of a mail with a category (docs/preferences.md, "By the link"; repeatable: re-applied by `migrate`
-- whenever this file changes). Every subscriber having the address as a contact point on the channel opts out of the
-- category there: their preference row is written, or turned, off. Nothing for a critical or unknown category. Returns
-- how many subscribers it covered: 0 when nobody holds the address (the unsubscribe process then adds the bulk
-- suppression entry, as for a mail without a category).
--   SELECT notifications.opt_out_by_link('email', 'ana@example.com', 'marketing');
-- SECURITY DEFINER: the unsubscribe process faces the internet and may read no registry table (a leaked login would
-- list every subscriber's address); it may run this, which reads only the rows of the address it is given. Its
-- search_path is fixed to the schema and pg_catalog. CREATE OR REPLACE keeps the grants of repeatable/90_roles.sql.
CREATE OR REPLACE FUNCTION :"schema".opt_out_by_link(p_channel varchar, p_address varchar, p_category varchar)
RETURNS integer
LANGUAGE sql VOLATILE
SECURITY DEFINER
SET search_path = :"schema", pg_catalog
AS $fn$
    WITH opted AS (
        INSERT INTO preference (subscriber_id, category, channel, enabled)
        SELECT DISTINCT cp.subscriber_id, c.name, cp.channel, false
        FROM contact_point AS cp
        JOIN category AS c ON c.name = p_category AND NOT c.critical
        WHERE cp.channel = p_channel AND cp.address = p_address
        ON CONFLICT (subscriber_id, category, channel) DO UPDATE SET enabled = false, updated_at = now()
        RETURNING 1)
    SELECT count(*)::integer FROM opted
$fn$;
