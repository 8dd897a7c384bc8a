import { createServer } from 'node:http';
import express, { type RequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createOperationDispatch } from '../../src/operation-dispatch.js';

const answer =
  (label: string): RequestHandler =>
  (req, res) => {
    res.json({ label, params: req.params, route: (req.route as { path: string }).path });
  };
const passOn: RequestHandler = (_req, _res, next) => next();
const skipRoute: RequestHandler = (_req, _res, next) => next('route');

/** The dispatch table alone in an app, what falls through it answered 404 with the path it saw. */
const appWith = (dispatch: RequestHandler) => {
  const app = express();
  app.use('/api', dispatch);
  app.use((req, res) => {
    res.status(404).json({ unmatched: req.originalUrl });
  });
  app.use(((thrown, _req, res, _next) => {
    res.status(thrown.status ?? 500).json({ error: thrown.message });
  }) as express.ErrorRequestHandler);
  return request(createServer(app));
};

/** Express's own matching rules for literal and `:param` patterns, on the dispatch table. */
export const describeOperationDispatch = () =>
  describe('createOperationDispatch', () => {
    test('a route whose handlers call next() or next("route") falls through to the next match, in order', async () => {
      const api = appWith(
        createOperationDispatch([
          { method: 'get', path: '/items/:itemId', handlers: [passOn] },
          { method: 'get', path: '/items/special', handlers: [skipRoute, answer('never')] },
          { method: 'get', path: '/items/:name', handlers: [passOn, answer('second')] },
          { method: 'post', path: '/items/:itemId', handlers: [answer('post')] },
        ]),
      );
      const special = await api.get('/api/items/special');
      expect(special.body).toEqual({ label: 'second', params: { name: 'special' }, route: '/items/:name' });
      expect((await api.post('/api/items/a%20b')).body).toEqual({
        label: 'post',
        params: { itemId: 'a b' },
        route: '/items/:itemId',
      });
      expect((await api.delete('/api/items/x')).body).toEqual({ unmatched: '/api/items/x' });
    });

    test('HEAD is answered by the first HEAD or GET route registered', async () => {
      const seen: string[] = [];
      const mark =
        (label: string): RequestHandler =>
        (_req, res) => {
          seen.push(label);
          res.status(204).end();
        };
      const api = appWith(
        createOperationDispatch([
          { method: 'get', path: '/first', handlers: [mark('get first')] },
          { method: 'head', path: '/first', handlers: [mark('head first')] },
          { method: 'head', path: '/second', handlers: [mark('head second')] },
          { method: 'get', path: '/second', handlers: [mark('get second')] },
        ]),
      );
      await api.head('/api/first');
      await api.head('/api/second');
      await api.get('/api/second');
      expect(seen).toEqual(['get first', 'head second', 'get second']);
    });

    test('case, trailing slashes, empty and malformed segments as Express treats them', async () => {
      const api = appWith(
        createOperationDispatch([{ method: 'get', path: '/a/:id/b', handlers: [answer('ab')] }]),
      );
      expect((await api.get('/api/A/x/B/')).body).toMatchObject({ params: { id: 'x' } });
      expect((await api.get('/api/a/%2F/b')).body).toMatchObject({ params: { id: '/' } });
      expect((await api.get('/api/a/x/b//')).status).toBe(404);
      expect((await api.get('/api/a//b')).status).toBe(404);
      const malformed = await api.get('/api/a/%E0%A4%A/b');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: "Failed to decode param '%E0%A4%A'" });
    });

    test('patterns beyond literal segments and :params are refused when the table is built', () => {
      for (const path of ['/a/*', '/a/:id?', 'a/b', '/a//b', '/a/(b)', '/a/{b}']) {
        expect(() => createOperationDispatch([{ method: 'get', path, handlers: [] }]), path).toThrow(
          TypeError,
        );
      }
    });
  });
