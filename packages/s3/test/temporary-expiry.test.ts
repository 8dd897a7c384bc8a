import {
  GetBucketLifecycleConfigurationCommand,
  PutBucketLifecycleConfigurationCommand,
} from '@aws-sdk/client-s3';
import { expectErr, expectOk } from '@onboarding-kit/contract-tests';
import { describe, expect, inject, it } from 'vitest';
import { ensureTemporaryExpiry, temporaryExpiryRuleId } from '../src/temporary-expiry.js';
import { freshBucket, s3ClientFor } from './s3-compatible-client.js';
import { freePort } from './start-s3-servers.js';

// On moto: s3rver does not implement lifecycle configuration.
describe('ensureTemporaryExpiry', () => {
  const client = s3ClientFor(inject('motoEndpoint'));
  const rulesOf = async (bucket: string) =>
    (await client.send(new GetBucketLifecycleConfigurationCommand({ Bucket: bucket }))).Rules ?? [];

  it('puts a rule expiring the temporary prefix and its noncurrent versions after 1 day and aborting stale multipart uploads', async () => {
    const bucket = await freshBucket(client);
    await expectOk(ensureTemporaryExpiry({ client, bucket, temporaryPrefix: 'uploads/tmp/' }));

    const rules = await rulesOf(bucket);
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatchObject({
      ID: temporaryExpiryRuleId('uploads/tmp/'),
      Filter: { Prefix: 'uploads/tmp/' },
      Status: 'Enabled',
      Expiration: { Days: 1 },
      NoncurrentVersionExpiration: { NoncurrentDays: 1 },
      AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
    });
  });

  it("keeps the bucket's other rules and stays one rule when applied again", async () => {
    const bucket = await freshBucket(client);
    await client.send(
      new PutBucketLifecycleConfigurationCommand({
        Bucket: bucket,
        LifecycleConfiguration: {
          Rules: [
            { ID: 'archive-logs', Filter: { Prefix: 'logs/' }, Status: 'Enabled', Expiration: { Days: 30 } },
          ],
        },
      }),
    );

    await expectOk(ensureTemporaryExpiry({ client, bucket }));
    await expectOk(ensureTemporaryExpiry({ client, bucket }));

    const rules = await rulesOf(bucket);
    expect(rules.map((rule) => rule.ID).sort()).toEqual(
      ['archive-logs', temporaryExpiryRuleId('tmp/')].sort(),
    );
    expect(rules.find((rule) => rule.ID === 'archive-logs')).toMatchObject({
      Filter: { Prefix: 'logs/' },
      Expiration: { Days: 30 },
    });
    expect(rules.find((rule) => rule.ID === temporaryExpiryRuleId('tmp/'))?.Filter).toEqual({
      Prefix: 'tmp/',
    });
  });

  it('answers StorageUnavailable when the bucket cannot be reached', async () => {
    const unreachable = s3ClientFor(`http://127.0.0.1:${await freePort()}`, { maxAttempts: 1 });
    expect(
      await expectErr(ensureTemporaryExpiry({ client: unreachable, bucket: 'kit-nowhere' })),
    ).toMatchObject({
      type: 'StorageUnavailable',
      store: 's3',
    });
  });
});
