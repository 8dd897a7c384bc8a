import express, { type RequestHandler, type Router } from 'express';
import { createOpenApiDocument, type OpenApiDocument } from './openapi-document.js';

export type ApiDocsRouterOptions = {
  /** The document to serve (default: `createOpenApiDocument()`). */
  readonly document?: OpenApiDocument;
  /** Title of the `/docs` page. */
  readonly title?: string;
  /**
   * Serve Swagger UI at `/docs` (default true). It needs the optional peer `swagger-ui-dist`,
   * loaded on the first `/docs` request: without it `/docs` answers 501 saying what to install.
   */
  readonly ui?: boolean;
};

/** Swagger UI's files, from the optional peer dependency, loaded once on first use (null: absent). */
const swaggerUiAssets = (): (() => Promise<RequestHandler | null>) => {
  let loaded: Promise<RequestHandler | null> | undefined;
  return () => {
    loaded ??= import('swagger-ui-dist/absolute-path.js').then(
      (module) => express.static((module.default as unknown as () => string)(), { index: false }),
      () => null,
    );
    return loaded;
  };
};

const NO_SWAGGER_UI = 'Swagger UI is not installed: add swagger-ui-dist to the app to serve /docs';

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** Kept out of the page so a strict Content-Security-Policy (no inline script) still allows it. */
const SWAGGER_UI_INITIALIZER = `window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-spec-url'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
});
`;

const docsPage = (title: string, base: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(base)}/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui" data-spec-url="${escapeHtml(base)}/openapi.json"></div>
<script src="${escapeHtml(base)}/docs/swagger-ui-bundle.js"></script>
<script src="${escapeHtml(base)}/docs/swagger-ui-standalone-preset.js"></script>
<script src="${escapeHtml(base)}/docs/swagger-initializer.js"></script>
</body>
</html>
`;

/**
 * `GET /openapi.json` and `GET /docs`, an interactive Swagger UI served from the installed
 * swagger-ui-dist package (no CDN). Needs no API key, and answers nothing else: it can be mounted
 * at the root of a host app without shadowing the host's routes.
 */
export const createApiDocsRouter = (options: ApiDocsRouterOptions = {}): Router => {
  const document = options.document ?? createOpenApiDocument();
  const title = options.title ?? 'onboarding-kit API';
  const router = express.Router();
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  if (options.ui === false) return router;
  const loadAssets = swaggerUiAssets();
  const withAssets =
    (handle: (assets: RequestHandler) => RequestHandler): RequestHandler =>
    (req, res, next) => {
      loadAssets()
        .then((assets) => {
          if (assets === null) res.status(501).type('text/plain').send(NO_SWAGGER_UI);
          else handle(assets)(req, res, next);
        })
        .catch(next);
    };
  router.get(
    '/docs',
    withAssets(() => (req, res) => {
      res.type('html').send(docsPage(title, req.baseUrl));
    }),
  );
  router.get('/docs/swagger-initializer.js', (_req, res) => {
    res.type('application/javascript').send(SWAGGER_UI_INITIALIZER);
  });
  router.use(
    '/docs',
    withAssets((assets) => assets),
  );
  return router;
};
