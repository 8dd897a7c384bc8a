-- onboarding-kit: a screening hit's explanation carries `birthDate` (the birth-date evidence, null
-- when the client gave no date) since migration 0015's release. Hits stored before it have no such
-- key, and the client's answer would lack a field its schema requires: they get `birthDate: null`,
-- which is what they were (no date was weighed). Every other key of a hit is kept as it was.
UPDATE clients SET screening = screening || jsonb_build_object('hits', (
  SELECT jsonb_agg(
    CASE WHEN jsonb_typeof(hit -> 'explanation') = 'object' AND NOT hit -> 'explanation' ? 'birthDate'
      THEN jsonb_set(hit, '{explanation,birthDate}', 'null'::jsonb) ELSE hit END
    ORDER BY at)
  FROM jsonb_array_elements(screening -> 'hits') WITH ORDINALITY AS h (hit, at)))
WHERE jsonb_typeof(screening -> 'hits') = 'array'
  AND EXISTS (
    SELECT FROM jsonb_array_elements(screening -> 'hits') AS hit
    WHERE jsonb_typeof(hit -> 'explanation') = 'object' AND NOT hit -> 'explanation' ? 'birthDate');
