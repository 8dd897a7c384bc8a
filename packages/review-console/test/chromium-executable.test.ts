import { describe, expect, it } from 'vitest';
import { chromiumExecutable } from './browser/chromium-executable.js';

describe('the Chromium the browser tests drive', () => {
  it('fails naming what to install when no candidate is there (never a skip)', () => {
    expect(() => chromiumExecutable({}, ['/nonexistent/chromium'])).toThrow(
      /No Chromium found \(looked for \/nonexistent\/chromium\).*apt-get install -y chromium-headless-shell/,
    );
  });

  it('fails on a CHROMIUM_PATH that is not an executable', () => {
    expect(() => chromiumExecutable({ CHROMIUM_PATH: '/nonexistent/chrome' })).toThrow(
      /CHROMIUM_PATH is \/nonexistent\/chrome.*apt-get install -y chromium-headless-shell/,
    );
  });

  it('takes CHROMIUM_PATH, else the first candidate installed', () => {
    expect(chromiumExecutable({ CHROMIUM_PATH: process.execPath })).toBe(process.execPath);
    expect(chromiumExecutable({}, ['/nonexistent/chromium', process.execPath])).toBe(process.execPath);
  });
});
