-- onboarding-kit: every name a client brings is screened (decisions §12). A third-party bank
-- account's owner may be a person or a company (the payload does not say): its screened name is
-- indexed with the kind PERSON_OR_COMPANY, which a provider matches against both.
ALTER TABLE screened_names DROP CONSTRAINT screened_names_kind_check;
ALTER TABLE screened_names ADD CONSTRAINT screened_names_kind_check
  CHECK (kind IN ('PERSON', 'COMPANY', 'PERSON_OR_COMPANY'));
