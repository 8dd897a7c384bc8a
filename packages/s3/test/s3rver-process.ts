/**
 * Runs s3rver as its own process, compiled and started by the test harness and the bench
 * (start-s3-servers.ts) with `--openssl-legacy-provider`: s3rver 3.7 encrypts ListObjectsV2 continuation tokens with DES, which
 * OpenSSL 3 only offers through the legacy provider, so paging would answer 500 otherwise.
 * Serves the directory named by its argument. Prints `{"port":N}` once listening; stops and
 * removes its directory on SIGTERM.
 */
import { mkdtemp, readdir, rm, rmdir, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import FilesystemStore from 's3rver/lib/stores/filesystem.js';

const ignoreMissing = (error: NodeJS.ErrnoException) => {
  if (error.code !== 'ENOENT' && error.code !== 'ENOTEMPTY') throw error;
};

/**
 * s3rver 3.7 removes the folder an object leaves empty with readdir-then-rmdir, so one DeleteObjects
 * call that empties a folder races with itself and answers 500 (S3 has no folders and never does).
 * The same cleanup, tolerant of a sibling having removed the folder first, keeps it a faithful S3.
 */
FilesystemStore.prototype.deleteObject = async function deleteObject(bucket, key) {
  await Promise.all(
    ['object', 'object.md5', 'metadata.json'].map((resource) =>
      unlink(this.getResourcePath(bucket, key, resource)).catch(ignoreMissing),
    ),
  );
  const bucketPath = this.getBucketPath(bucket);
  const folders = key.split('/').slice(0, -1);
  while (folders.length > 0) {
    const folder = join(bucketPath, ...folders);
    const entries = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
      ignoreMissing(error);
      return null;
    });
    if (entries === null || entries.length > 0) return;
    await rmdir(folder).catch(ignoreMissing);
    folders.pop();
  }
};

// The directory the harness made for us (it deletes it even if we are killed), or one of our own.
const directory = process.argv[2] ?? (await mkdtemp(join(tmpdir(), 's3rver-')));
const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);

process.once('SIGTERM', () => {
  void server
    .close()
    .then(() => rm(directory, { recursive: true, force: true }))
    .finally(() => process.exit(0));
});
