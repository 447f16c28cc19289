-- Template variables (idempotent; docs/templates.md, "Variables checked at enqueue"): the top-level variable names a
-- template version uses (its subject and bodies), as a JSON array of strings, e.g. ["customer","order"]. Written by
-- `admin templates put` (Shared/Templates/TemplateVariables, from Fluid's syntax tree), read by the client, which refuses
-- an enqueue whose template data lacks one of them. NULL for versions put before this migration: those are not checked.
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 024_template_variables.sql
ALTER TABLE :"schema".template ADD COLUMN IF NOT EXISTS variables text NULL;
