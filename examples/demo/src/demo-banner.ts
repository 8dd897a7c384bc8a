import { demoIdentities } from '@onboarding-kit/core';
import type { DocumentStorageKind, PersistenceKind } from './demo-adapters.js';
import { demoPaths } from './demo-app.js';
import { demoStaff } from './demo-staff-login.js';

export type DemoBannerFacts = {
  readonly origin: string;
  readonly persistence: PersistenceKind;
  readonly documentStorage: DocumentStorageKind;
  /** The S3 bucket, when documents are in S3. */
  readonly bucket: string | null;
};

const persistenceLine = (kind: PersistenceKind): string => {
  switch (kind) {
    case 'memory':
      return 'in memory (gone when the demo stops)';
    case 'postgres':
      return 'PostgreSQL (DATABASE_URL)';
  }
};

const documentsLine = (kind: DocumentStorageKind, origin: string, bucket: string | null): string => {
  switch (kind) {
    case 'memory':
      return `in memory, through signed links under ${origin}${demoPaths.storage}`;
    case 's3':
      return `S3 bucket ${JSON.stringify(bucket)} (S3_BUCKET), through presigned links`;
  }
};

/** How to upload one file with curl: a PUT in memory, a form POST bounded by its policy on S3. */
const uploadLines = (kind: DocumentStorageKind, request: string): string => {
  const ask = `curl -s -X POST ${request} \\\n        -d '{"filenames":["passport.pdf"]}' | jq`;
  switch (kind) {
    case 'memory':
      return [
        `  URL=$(${ask} -r '.uploads[0].uploadUrl')`,
        `  printf 'passport scan' > passport.pdf && curl -s -X PUT --data-binary @passport.pdf "$URL"`,
      ].join('\n');
    case 's3':
      return [
        `  LINK=$(${ask} '.uploads[0]')`,
        `  printf 'passport scan' > passport.pdf && curl -s $(echo "$LINK" | jq -r '.fields | to_entries[] | "-F \\(.key)=\\(.value)"') \\`,
        `        -F file=@passport.pdf "$(echo "$LINK" | jq -r .uploadUrl)"`,
      ].join('\n');
  }
};

/** What the demo prints at start: where it is, the four fixed keys and a first few curl calls. */
export const demoBanner = ({ origin, persistence, documentStorage, bucket }: DemoBannerFacts): string => {
  const keyA = demoIdentities.managerA.apiKey;
  const json = `-H 'Content-Type: application/json'`;
  return `
onboarding-kit demo listening on ${origin}
  clients, keys, fees  ${persistenceLine(persistence)}
  documents            ${documentsLine(documentStorage, origin, bucket)}
  API docs             ${origin}${demoPaths.docs}   (OpenAPI 3.1: ${origin}${demoPaths.openApi})
  review console       ${origin}${demoPaths.review}/   (log in as ${demoStaff.username} / ${demoStaff.password})

API keys, sent in the header SERVICE_API_KEY:
  ${demoIdentities.managerA.apiKey}    manager A                ${demoPaths.manager}
  ${demoIdentities.managerB.apiKey}    manager B                ${demoPaths.manager}
  ${demoIdentities.clientA1.apiKey}    client a1 of manager A   ${demoPaths.client}
  ${demoIdentities.compliance.apiKey}   the compliance team      ${demoPaths.compliance}

Try it (jq is only for convenience):
  B=${origin}
  curl -s $B${demoPaths.manager}/preset-fees -H 'SERVICE_API_KEY: ${keyA}' | jq
${uploadLines(documentStorage, `$B${demoPaths.manager}/uploads/request-batch-upload -H 'SERVICE_API_KEY: ${keyA}' ${json}`)}
  curl -s $B${demoPaths.manager}/uploads -H 'SERVICE_API_KEY: ${keyA}' | jq
The whole flow (create an individual, review, resubmit, approve, download): README.md, "Walkthrough (curl)".
`;
};
