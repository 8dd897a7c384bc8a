-- onboarding-kit: one upload is used by at most one command.
-- A command claims the uploads it names before it copies them (one row per upload, taken by
-- INSERT ... ON CONFLICT); a claim its holder neither committed nor released (a crash) expires.
-- `upload` is the name core gives one upload of a temporary file (a SHA-256 of its owner, filename,
-- version and upload time); the primary key leads with `owner`, so an owner's expired claims and a holder's release
-- read that owner's rows only.
CREATE TABLE temporary_file_claims (
  owner text NOT NULL,
  upload text NOT NULL,
  holder text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (owner, upload)
);

-- The upload each document was made from: at most one document per upload, whatever the claims
-- did (a claim that expired under a slow holder). Null for documents promoted before this file.
ALTER TABLE documents ADD COLUMN upload text;
CREATE UNIQUE INDEX documents_by_upload ON documents (upload);
