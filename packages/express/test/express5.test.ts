import express from 'express';
import { expect, test } from 'vitest';
import { describeAllHttpSuites } from './suites/all-http-suites.js';

test('these suites run on Express 5', () => {
  // Express 5 dropped `express.query`; Express 4 still has it.
  expect('query' in express).toBe(false);
});

describeAllHttpSuites();
