import express from 'express';
import { expect, test, vi } from 'vitest';
import { describeAllHttpSuites } from './suites/all-http-suites.js';

// Every `express` import of this file's module graph — the routers' and the test apps' — is the
// real Express 4 package (installed as `express4`), as in a host that only has Express 4.
vi.mock('express', async () => await vi.importActual('express4'));

test('these suites run on Express 4', () => {
  expect('query' in express).toBe(true);
});

describeAllHttpSuites();
