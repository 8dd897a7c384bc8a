-- onboarding-kit: screening of a client's people and companies (decisions §12).
-- The screening's status, when it last ran and its hits with compliance's resolutions: read and
-- written whole, never queried inside (the screening jobs are pg-boss jobs naming the client), so
-- jsonb. NULL when the kit screens nobody, which is what every existing client is.

ALTER TABLE clients
  ADD COLUMN screening jsonb CHECK (jsonb_typeof(screening) = 'object');
