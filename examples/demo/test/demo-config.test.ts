import { expect, test } from 'vitest';
import { readDemoConfig } from '../src/demo-config.js';

test('defaults: port 3000 on the loopback interface, in memory', () => {
  expect(readDemoConfig({})._unsafeUnwrap()).toEqual({
    port: 3000,
    host: '127.0.0.1',
    publicBaseUrl: null,
    databaseUrl: null,
    s3: null,
    webhook: null,
    webhookJobExpirySeconds: 60,
    webhookAllowPrivateNetworks: false,
    screeningList: null,
    managerRateLimit: null,
  });
});

test('every variable is read; blank ones count as unset; S3 credentials only when both are given', () => {
  const config = readDemoConfig({
    PORT: '8080',
    HOST: '0.0.0.0',
    PUBLIC_BASE_URL: 'https://demo.example.com/',
    DATABASE_URL: 'postgres://kit@db/kit',
    S3_BUCKET: 'kit-documents',
    S3_ENDPOINT: 'http://minio:9000',
    S3_REGION: ' ',
    AWS_REGION: 'eu-west-3',
    AWS_ACCESS_KEY_ID: 'AKIA',
    WEBHOOK_URL: 'http://localhost:4000/hooks',
    WEBHOOK_JOB_EXPIRY_SECONDS: '30',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    SCREENING_LIST: '/data/targets.simple.csv',
    MANAGER_RATE_LIMIT: '600',
  })._unsafeUnwrap();
  expect(config).toEqual({
    port: 8080,
    host: '0.0.0.0',
    publicBaseUrl: 'https://demo.example.com',
    databaseUrl: 'postgres://kit@db/kit',
    s3: { bucket: 'kit-documents', endpoint: 'http://minio:9000', region: 'eu-west-3', credentials: null },
    webhook: { url: 'http://localhost:4000/hooks', secret: null },
    webhookJobExpirySeconds: 30,
    webhookAllowPrivateNetworks: true,
    screeningList: '/data/targets.simple.csv',
    managerRateLimit: 600,
  });
});

test('MANAGER_RATE_LIMIT is a whole number of requests per minute, 1 to 1,000,000; blank is off', () => {
  expect(readDemoConfig({ MANAGER_RATE_LIMIT: '1' })._unsafeUnwrap().managerRateLimit).toBe(1);
  expect(readDemoConfig({ MANAGER_RATE_LIMIT: '1000000' })._unsafeUnwrap().managerRateLimit).toBe(1_000_000);
  expect(readDemoConfig({ MANAGER_RATE_LIMIT: ' ' })._unsafeUnwrap().managerRateLimit).toBeNull();
  for (const raw of ['0', '-5', '1.5', '1e3', 'ten', '1000001', '0x10']) {
    expect(readDemoConfig({ MANAGER_RATE_LIMIT: raw })._unsafeUnwrapErr(), raw).toMatch(
      /^MANAGER_RATE_LIMIT /,
    );
  }
});

test('WEBHOOK_SECRET must be a Standard Webhooks secret and needs WEBHOOK_URL; the job expiry a whole number', () => {
  const secret = `whsec_${Buffer.alloc(24, 1).toString('base64')}`;
  expect(
    readDemoConfig({ WEBHOOK_URL: 'http://localhost:4000', WEBHOOK_SECRET: secret })._unsafeUnwrap().webhook,
  ).toEqual({
    url: 'http://localhost:4000',
    secret,
  });
  expect(readDemoConfig({ WEBHOOK_SECRET: secret })._unsafeUnwrapErr()).toMatch(/^WEBHOOK_SECRET /);
  expect(
    readDemoConfig({ WEBHOOK_URL: 'http://localhost:4000', WEBHOOK_SECRET: 'hunter2' })._unsafeUnwrapErr(),
  ).toMatch(/^WEBHOOK_SECRET /);
  expect(readDemoConfig({ WEBHOOK_JOB_EXPIRY_SECONDS: '1' })._unsafeUnwrapErr()).toMatch(
    /^WEBHOOK_JOB_EXPIRY_SECONDS /,
  );
});

test('a malformed value is refused, naming its variable', () => {
  expect(readDemoConfig({ PORT: '3000x' })._unsafeUnwrapErr()).toMatch(/^PORT /);
  expect(readDemoConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes' })._unsafeUnwrapErr()).toMatch(
    /^WEBHOOK_ALLOW_PRIVATE_NETWORKS /,
  );
  expect(readDemoConfig({ PORT: '70000' })._unsafeUnwrapErr()).toMatch(/^PORT /);
  expect(readDemoConfig({ PUBLIC_BASE_URL: 'localhost:3000' })._unsafeUnwrapErr()).toMatch(
    /^PUBLIC_BASE_URL /,
  );
  expect(readDemoConfig({ S3_ENDPOINT: 'http://minio:9000' })._unsafeUnwrapErr()).toMatch(/S3_BUCKET/);
  expect(readDemoConfig({ S3_BUCKET: 'b', S3_ENDPOINT: 'minio' })._unsafeUnwrapErr()).toMatch(
    /^S3_ENDPOINT /,
  );
});
