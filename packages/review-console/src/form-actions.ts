import { type Client, clientVersion } from '@onboarding-kit/core';

/** One action a console form posts: its route, and whether it decides on the client as shown. */
export type FormAction = {
  /** Express path under the console (plain `:name` parameters). */
  readonly path: string;
  /**
   * Its form carries the version of the client its page showed (`SEEN_FIELD`); the route refuses a
   * form without it (400), and the kit's command refuses, in its own transaction, a client that no
   * longer has that version (409, nothing done).
   */
  readonly decidesOnWhatWasSeen: boolean;
};

/**
 * Every action of the console's forms, declared once: the pages build their forms from it and the
 * router mounts its routes from it, so a form that decides on what it showed and the check of its
 * route cannot come apart. Assigning and releasing decide on the assignment shown: a page that
 * showed "Unassigned" does not take the client from a reviewer who took it meanwhile.
 */
export const formActions = {
  assignNext: { path: '/assign-next', decidesOnWhatWasSeen: false },
  assign: { path: '/clients/:clientId/assign', decidesOnWhatWasSeen: true },
  release: { path: '/clients/:clientId/release', decidesOnWhatWasSeen: true },
  approve: { path: '/clients/:clientId/approve', decidesOnWhatWasSeen: true },
  requestResubmission: { path: '/clients/:clientId/request-resubmission', decidesOnWhatWasSeen: true },
  markTermsSigned: { path: '/clients/:clientId/terms-signed', decidesOnWhatWasSeen: true },
  delete: { path: '/clients/:clientId/delete', decidesOnWhatWasSeen: true },
  redact: { path: '/clients/:clientId/redact', decidesOnWhatWasSeen: true },
  resolveHit: {
    path: '/clients/:clientId/screening-hits/:hitId/resolve',
    decidesOnWhatWasSeen: true,
  },
} as const satisfies Readonly<Record<string, FormAction>>;

/** `'/clients/:clientId/assign'` → `'clientId'`. */
type PathParameterNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParameterNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The action's path with its parameters filled in. */
export const actionPath = (path: string, params: Readonly<Record<string, unknown>>): string =>
  path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));

/** Where one form posts, and the version of the client it decides on (when its action does). */
export type FormTarget = { readonly path: string; readonly seenVersion: string | undefined };

/**
 * The target of a form of `action`; an action that decides on what was seen takes the client its
 * page shows (a compile error without it), whose version the form then carries.
 */
export const formTarget = <A extends FormAction>(
  action: A,
  params: Readonly<Record<PathParameterNames<A['path']>, string>>,
  ...shown: A['decidesOnWhatWasSeen'] extends true ? [client: Client] : []
): FormTarget => ({
  path: actionPath(action.path, params),
  seenVersion: shown[0] === undefined ? undefined : clientVersion(shown[0]),
});
