import { presignOne } from '@onboarding-kit/contract-tests';
import { createControllableClock } from '@onboarding-kit/core';
import type { DocumentStorage } from '@onboarding-kit/core/adapter';
import { describe, expect, it } from 'vitest';
import { createMemoryAdapters } from '../src/index.js';

const publicBaseUrl = 'http://localhost:3000/storage';
const start = new Date('2031-01-01T09:00:00.000Z');
const fifteenMinutes = 15 * 60_000;
const rejected = (reason: string) => ({ type: 'SignedLinkRejected', reason });
const owner = 'manager:11111111-1111-4111-8111-111111111111';

const setup = (maxUploadBytes = 1_024) => {
  const clock = createControllableClock(start);
  const adapters = createMemoryAdapters({
    clock,
    publicBaseUrl,
    maxUploadBytes,
    signingSecret: 'test-secret',
  });
  const uploadToken = async (filename: string) => {
    const upload = await presignOne(
      adapters.documentStorage,
      owner,
      filename,
      new Date(clock.now().getTime() + fifteenMinutes),
    );
    const url = upload._unsafeUnwrap().url;
    expect(url.startsWith(`${publicBaseUrl}/uploads/`)).toBe(true);
    return url.slice(`${publicBaseUrl}/uploads/`.length);
  };
  const downloadToken = async (key: string, filename: string) => {
    const url = (
      await adapters.documentStorage.presignDownload(
        key,
        filename,
        new Date(clock.now().getTime() + fifteenMinutes),
      )
    )._unsafeUnwrap();
    expect(url.startsWith(`${publicBaseUrl}/downloads/`)).toBe(true);
    return url.slice(`${publicBaseUrl}/downloads/`.length);
  };
  return { clock, adapters, uploadToken, downloadToken };
};

/** Flips one character of a base64url string, keeping it base64url. */
const flipCharAt = (text: string, index: number) =>
  `${text.slice(0, index)}${text[index] === 'A' ? 'B' : 'A'}${text.slice(index + 1)}`;

/** The version of a temporary file as stored, read as core reads it before a copy. */
const versionOf = async (storage: DocumentStorage, filename: string): Promise<string> =>
  (await storage.statTemporary(owner, filename))._unsafeUnwrap()?.version ?? '';

describe('memory signed links', () => {
  it('accepts an upload through its link and stamps it with the clock', async () => {
    const { adapters, uploadToken, clock } = setup();
    const token = await uploadToken('passport.pdf');
    clock.advance(60_000);
    expect((await adapters.signedLinks.acceptUpload(token, new Uint8Array([1, 2, 3]))).isOk()).toBe(true);
    expect((await adapters.documentStorage.statTemporary(owner, 'passport.pdf'))._unsafeUnwrap()).toEqual({
      filename: 'passport.pdf',
      size: 3,
      uploadedAt: new Date(start.getTime() + 60_000),
      version: expect.any(String),
    });
  });

  it('refuses a token whose payload or signature was tampered with, or signed with another secret', async () => {
    const { adapters, uploadToken } = setup();
    const token = await uploadToken('passport.pdf');
    const dot = token.lastIndexOf('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ op: 'upload', owner: 'manager:someone-else', filename: 'passport.pdf', exp: 9e15 }),
    ).toString('base64url');
    const otherSecret = createMemoryAdapters({ signingSecret: 'another-secret', publicBaseUrl });
    const foreignUrl = (
      await presignOne(
        otherSecret.documentStorage,
        owner,
        'passport.pdf',
        new Date(start.getTime() + fifteenMinutes),
      )
    )._unsafeUnwrap().url;

    for (const tampered of [
      flipCharAt(token, 3),
      flipCharAt(token, token.length - 2),
      `${forgedPayload}${token.slice(dot)}`,
      token.slice(0, dot),
      `${token}x`,
      foreignUrl.slice(`${publicBaseUrl}/uploads/`.length),
      '',
      'not-a-token',
    ]) {
      const outcome = await adapters.signedLinks.acceptUpload(tampered, new Uint8Array([1]));
      expect(outcome._unsafeUnwrapErr()).toEqual({ type: 'SignedLinkRejected', reason: 'invalid' });
    }
    expect(adapters.testing.listTemporaryOwners()).toEqual([]);
  });

  it('refuses an upload token used to download and a download token used to upload', async () => {
    const { adapters, uploadToken, downloadToken } = setup();
    adapters.testing.putTemporaryFile(owner, 'a.pdf', new Uint8Array([7]));
    await adapters.documentStorage.copyToPermanent([
      {
        owner,
        filename: 'a.pdf',
        key: 'k_a.pdf',
        version: await versionOf(adapters.documentStorage, 'a.pdf'),
      },
    ]);
    const upload = await uploadToken('a.pdf');
    const download = await downloadToken('k_a.pdf', 'a.pdf');
    expect((await adapters.signedLinks.openDownload(upload))._unsafeUnwrapErr()).toEqual(rejected('invalid'));
    expect(
      (await adapters.signedLinks.acceptUpload(download, new Uint8Array([1])))._unsafeUnwrapErr(),
    ).toEqual(rejected('invalid'));
  });

  it('expires upload and download links after 15 minutes of the clock', async () => {
    const { adapters, clock, uploadToken, downloadToken } = setup();
    adapters.testing.putTemporaryFile(owner, 'a.pdf', new Uint8Array([7, 8]));
    await adapters.documentStorage.copyToPermanent([
      {
        owner,
        filename: 'a.pdf',
        key: 'k_a.pdf',
        version: await versionOf(adapters.documentStorage, 'a.pdf'),
      },
    ]);
    const upload = await uploadToken('b.pdf');
    const download = await downloadToken('k_a.pdf', 'a.pdf');

    clock.advance(fifteenMinutes);
    expect((await adapters.signedLinks.openDownload(download))._unsafeUnwrap()).toEqual({
      body: new Uint8Array([7, 8]),
      filename: 'a.pdf',
    });
    clock.advance(1);
    expect((await adapters.signedLinks.openDownload(download))._unsafeUnwrapErr()).toEqual({
      type: 'SignedLinkRejected',
      reason: 'expired',
    });
    expect((await adapters.signedLinks.acceptUpload(upload, new Uint8Array([1])))._unsafeUnwrapErr()).toEqual(
      rejected('expired'),
    );
    expect(adapters.testing.readTemporaryFile(owner, 'b.pdf')).toBeNull();
  });

  it('refuses a body over maxUploadBytes and stores nothing, accepting exactly the limit', async () => {
    const { adapters, uploadToken } = setup(1_024);
    expect(adapters.signedLinks.maxUploadBytes).toBe(1_024);
    const token = await uploadToken('big.bin');
    expect(
      (await adapters.signedLinks.acceptUpload(token, new Uint8Array(1_025)))._unsafeUnwrapErr(),
    ).toEqual({
      type: 'SignedLinkRejected',
      reason: 'too-large',
    });
    expect(adapters.testing.readTemporaryFile(owner, 'big.bin')).toBeNull();
    expect((await adapters.signedLinks.acceptUpload(token, new Uint8Array(1_024))).isOk()).toBe(true);
    expect(adapters.testing.readTemporaryFile(owner, 'big.bin')?.length).toBe(1_024);
  });

  it('defaults to 25 MiB + 1 KiB, so a file just over 25 MiB can reach the rule at use', () => {
    expect(createMemoryAdapters().signedLinks.maxUploadBytes).toBe(25 * 1024 * 1024 + 1024);
  });

  it('answers a download link whose document was deleted as invalid', async () => {
    const { adapters, downloadToken } = setup();
    adapters.testing.putTemporaryFile(owner, 'a.pdf', new Uint8Array([7]));
    await adapters.documentStorage.copyToPermanent([
      {
        owner,
        filename: 'a.pdf',
        key: 'k_a.pdf',
        version: await versionOf(adapters.documentStorage, 'a.pdf'),
      },
    ]);
    const token = await downloadToken('k_a.pdf', 'a.pdf');
    await adapters.documentStorage.deletePermanent(['k_a.pdf']);
    expect((await adapters.signedLinks.openDownload(token))._unsafeUnwrapErr()).toEqual(rejected('invalid'));
  });

  it('bounds each owner’s temporary storage (files and bytes): past it an upload is refused before its body, replacing a file still works', async () => {
    const clock = createControllableClock(start);
    const adapters = createMemoryAdapters({
      clock,
      publicBaseUrl,
      signingSecret: 'test-secret',
      maxTemporaryFilesPerOwner: 2,
      maxTemporaryBytesPerOwner: 10,
    });
    const link = async (filename: string, who = owner) => {
      const url = (
        await presignOne(adapters.documentStorage, who, filename, new Date(start.getTime() + fifteenMinutes))
      )._unsafeUnwrap().url;
      return url.slice(`${publicBaseUrl}/uploads/`.length);
    };
    const [a, b, c] = [await link('a.pdf'), await link('b.pdf'), await link('c.pdf')];
    expect((await adapters.signedLinks.acceptUpload(a, new Uint8Array(4))).isOk()).toBe(true);
    expect((await adapters.signedLinks.acceptUpload(b, new Uint8Array(4))).isOk()).toBe(true);
    // A third file: refused by the link check alone, before any body.
    expect(adapters.signedLinks.verifyUpload(c)._unsafeUnwrapErr()).toEqual(rejected('quota-exceeded'));
    // Replacing b with 7 bytes would make 11 > 10 bytes; with 6 it fits.
    expect((await adapters.signedLinks.acceptUpload(b, new Uint8Array(7)))._unsafeUnwrapErr()).toEqual(
      rejected('quota-exceeded'),
    );
    expect((await adapters.signedLinks.acceptUpload(b, new Uint8Array(6))).isOk()).toBe(true);
    // Another owner has its own quota.
    const other = await link('a.pdf', 'manager:someone-else');
    expect((await adapters.signedLinks.acceptUpload(other, new Uint8Array(4))).isOk()).toBe(true);
  });

  it('purges expired temporary files: their bytes are freed, not only hidden, and they leave the quota', async () => {
    const { adapters, clock, uploadToken } = setup();
    const token = await uploadToken('old.pdf');
    expect((await adapters.signedLinks.acceptUpload(token, new Uint8Array(100))).isOk()).toBe(true);
    clock.advance(24 * 60 * 60_000 - 1);
    expect(adapters.testing.purgeExpiredTemporaryFiles()).toBe(0);
    expect(adapters.testing.readTemporaryFile(owner, 'old.pdf')).not.toBeNull();
    clock.advance(1);
    expect(adapters.testing.purgeExpiredTemporaryFiles()).toBe(1);
    expect(adapters.testing.readTemporaryFile(owner, 'old.pdf')).toBeNull();
    expect(adapters.testing.listTemporaryOwners()).toEqual([]);
  });

  it('accepts only the canonical form of a token: junk around it or a changed last character is invalid', async () => {
    const { adapters, uploadToken } = setup();
    const token = await uploadToken('passport.pdf');
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    for (const altered of [
      `${token}!`,
      `${token}@@@`,
      `${token} `,
      `${token}=`,
      ` ${token}`,
      `${token.slice(0, -1)}${last}`,
    ]) {
      expect(adapters.signedLinks.verifyUpload(altered)._unsafeUnwrapErr(), altered).toEqual(
        rejected('invalid'),
      );
    }
    expect(adapters.signedLinks.verifyUpload(token).isOk()).toBe(true);
  });
});
