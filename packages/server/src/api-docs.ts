/**
 * GET /api-docs: Swagger UI over /openapi.json, served from the installed `swagger-ui-dist`
 * (no CDN, works offline).
 * @module
 */
import { createReadStream } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { Router } from '@koa/router'

/** The only files served from swagger-ui-dist (a fixed list: no request path reaches the file system). */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-16x16.png': 'image/png',
  'favicon-32x32.png': 'image/png',
}

const PAGE = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>Switchboard API</title>
    <link rel="stylesheet" type="text/css" href="/api-docs/swagger-ui.css" />
    <link rel="stylesheet" type="text/css" href="/api-docs/index.css" />
    <link rel="icon" type="image/png" href="/api-docs/favicon-32x32.png" sizes="32x32" />
    <link rel="icon" type="image/png" href="/api-docs/favicon-16x16.png" sizes="16x16" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/api-docs/swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="/api-docs/swagger-ui-standalone-preset.js" charset="UTF-8"></script>
    <script src="/api-docs/swagger-initializer.js" charset="UTF-8"></script>
  </body>
</html>
`

const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout'
  })
}
`

/** The folder of the installed swagger-ui-dist (its `absolutePath()`, without loading the bundle). */
export function swaggerUiDir(): string {
  const absolutePath = createRequire(import.meta.url)('swagger-ui-dist/absolute-path.js') as () => string
  return absolutePath()
}

/** Mounts GET /api-docs (the page) and GET /api-docs/<asset>. */
export function mountApiDocs(router: Router): void {
  const dir = swaggerUiDir()
  router.get('/api-docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8'
    ctx.body = PAGE
  })
  router.get('/api-docs/swagger-initializer.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8'
    ctx.body = INITIALIZER
  })
  router.get('/api-docs/:asset', (ctx) => {
    const asset = ctx.params.asset ?? ''
    const type = Object.hasOwn(ASSETS, asset) ? ASSETS[asset] : undefined
    if (type === undefined) return
    ctx.type = type
    ctx.set('Cache-Control', 'public, max-age=86400')
    ctx.body = createReadStream(join(dir, asset))
  })
}
