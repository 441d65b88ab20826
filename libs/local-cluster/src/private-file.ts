import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';

/** The mode of every file this library writes that holds a credential: owner read/write only. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Writes a file only its owner may read (mode 0600), atomically: the content goes to a new file in the
 * same folder, created with that mode (so there is no moment at which it is readable by others), which
 * then replaces `path` in one rename. A reader sees the old content or the new, never a part; an
 * existing file with a wider mode is replaced, not reused.
 */
export async function writePrivateFile(path: string, data: string): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const file = await open(tmp, 'wx', PRIVATE_FILE_MODE);
  try {
    await file.writeFile(data);
  } finally {
    await file.close();
  }
  try {
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
