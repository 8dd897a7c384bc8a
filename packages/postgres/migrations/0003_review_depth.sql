-- onboarding-kit: compliance review depth (decisions §12).
-- What compliance asks the manager to fix (set only while the client is RESUBMISSION_REQUIRED) and
-- the evidence of the client's signature of the terms. Both are read and written whole, never
-- queried inside: jsonb, NULL when absent. Existing clients get NULL in both, which is what they are.

ALTER TABLE clients
  ADD COLUMN resubmission_requirements jsonb
    CHECK (jsonb_typeof(resubmission_requirements) = 'array'),
  ADD COLUMN terms_acceptance jsonb
    CHECK (jsonb_typeof(terms_acceptance) = 'object');
