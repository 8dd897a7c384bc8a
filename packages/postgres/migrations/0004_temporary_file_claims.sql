-- onboarding-kit: one upload is used by at most one command.
-- A command claims the uploads it names before it copies them (one row per upload, taken by
-- INSERT ... ON CONFLICT); a claim its holder neither committed nor released (a crash) expires, and
-- expired rows are deleted a few at a time by later claims (the index on expires_at finds them).
-- `upload` is the name core gives one upload of a temporary file: a SHA-256 of its owner,
-- filename, version and upload time.
CREATE TABLE temporary_file_claims (
  upload text PRIMARY KEY,
  holder text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX temporary_file_claims_by_expiry ON temporary_file_claims (expires_at);

-- The upload each document was made from: at most one document per upload, whatever the claims
-- did (a claim that expired under a slow holder). Null for documents promoted before this file.
ALTER TABLE documents ADD COLUMN upload text;
CREATE UNIQUE INDEX documents_by_upload ON documents (upload);
