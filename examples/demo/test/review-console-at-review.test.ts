import { demoIdentities } from '@onboarding-kit/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { demoStaff } from '../src/demo-staff-login.js';
import { startTestDemo, type TestDemo } from './support/test-demo.js';

let demo: TestDemo;
beforeAll(async () => {
  demo = await startTestDemo();
});
afterAll(() => demo.close());

const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
const staffLogin = basic(demoStaff.username, demoStaff.password);

/** The hidden fields of the form posting to `action` on a rendered page. */
const guardsOf = (page: string, action: string): Record<string, string> => {
  const form = page.slice(page.indexOf(`action="${action}"`));
  const value = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(form)?.[1] ?? '';
  // `_seen`: the client's version as the page showed it (a deciding form carries it).
  return { _csrf: value('_csrf'), _idempotencyKey: value('_idempotencyKey'), _seen: value('_seen') };
};

describe('the demo serves the review console at /review behind its staff login', () => {
  test('without the staff credentials: 401 asking for them, whatever header claims a reviewer', async () => {
    for (const headers of [
      {},
      { authorization: basic(demoStaff.username, 'wrong') },
      { authorization: basic('admin', demoStaff.password) },
      { 'x-reviewer': 'reviewer', 'x-forwarded-user': 'reviewer', 'x-remote-user': 'reviewer' },
    ]) {
      const answer = await fetch(`${demo.origin}/review/`, { headers });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
      expect(await answer.text()).not.toContain('<table');
    }
    const post = await fetch(`${demo.origin}/review/assign-next`, { method: 'POST' });
    expect(post.status).toBe(401);
  });

  test('logged in: the queue shows the seeded client, and an action is the demo reviewer’s', async () => {
    const queue = await fetch(`${demo.origin}/review/`, { headers: { authorization: staffLogin } });
    expect(queue.status).toBe(200);
    expect(queue.headers.get('cache-control')).toBe('no-store');
    expect(queue.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const page = await queue.text();
    expect(page).toContain('Demo reviewer');
    // The manager column names the seeded client's manager from the demo's directory.
    expect(page).toMatch(/<td>Individual<\/td>\s*<td>Manager A<\/td>/);
    const clientId = /href="\/review\/clients\/([0-9a-f-]{36})"/.exec(page)?.[1];
    expect(clientId).toBeDefined();

    const action = `/review/clients/${clientId}/assign`;
    const assigned = await fetch(`${demo.origin}${action}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { authorization: staffLogin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(guardsOf(page, action)).toString(),
    });
    expect(assigned.status).toBe(303);
    const officer = demoIdentities.compliance.principal;
    const client = (await demo.kit.review.get(officer, clientId as string))._unsafeUnwrap();
    expect(client.assignee?.complianceId).toBe(officer.complianceId);
    const trail = (await demo.kit.audit.list(officer, clientId as string, {}))._unsafeUnwrap();
    expect(trail.data.find((entry) => entry.action === 'assign')?.actor).toEqual({
      kind: 'compliance',
      id: officer.complianceId,
    });
  });
});
