-- onboarding-kit: a person's date of birth, screened as evidence beside the name (decisions §12).
-- A representative is a row of its own: its date is a column. The profile, directors and UBOs are
-- kept whole as jsonb: clients stored before this migration get `dateOfBirth: null` written into
-- them, so that every answer carries the field (null: the payload gave none).
ALTER TABLE company_representatives ADD COLUMN date_of_birth text;

UPDATE clients SET individual_profile = individual_profile || '{"dateOfBirth": null}'::jsonb
WHERE individual_profile IS NOT NULL AND NOT individual_profile ? 'dateOfBirth';

UPDATE clients SET company_directors_and_ubos = company_directors_and_ubos || jsonb_build_object(
  'directors', (
    SELECT coalesce(jsonb_agg(
      CASE WHEN director ? 'dateOfBirth' THEN director ELSE director || '{"dateOfBirth": null}'::jsonb END
      ORDER BY at), '[]'::jsonb)
    FROM jsonb_array_elements(company_directors_and_ubos -> 'directors') WITH ORDINALITY AS d (director, at)),
  'ubos', (
    SELECT coalesce(jsonb_agg(
      CASE WHEN ubo ->> 'typeOfPerson' = 'NATURAL' AND NOT ubo ? 'dateOfBirth'
        THEN ubo || '{"dateOfBirth": null}'::jsonb ELSE ubo END
      ORDER BY at), '[]'::jsonb)
    FROM jsonb_array_elements(company_directors_and_ubos -> 'ubos') WITH ORDINALITY AS u (ubo, at)))
WHERE company_directors_and_ubos IS NOT NULL;

-- The screened-name index keeps the date each name was screened with, so that monitoring weighs it
-- as the full screening did (the country already is a column of it, migration 0009).
ALTER TABLE screened_names ADD COLUMN birth_date text;
