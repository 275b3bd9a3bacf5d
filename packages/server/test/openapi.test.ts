import { expect } from 'chai'
import { buildOpenApi } from '../src/openapi.js'
import { fakeApi, fakeSandboxApi } from './helpers/fake-api.js'
import { fakeGateway } from './helpers/fake-gateway.js'
import { call, startApp, type TestApp } from './helpers/start-app.js'

type Doc = { paths: Record<string, Record<string, any>>; components: Record<string, any> } & Record<string, any>

describe('buildOpenApi()', () => {
  const api = fakeApi(fakeGateway())
  const doc = buildOpenApi([{ surface: api }, { surface: fakeSandboxApi(), access: 'admin', tag: 'sandbox' }], '1.2.3') as Doc

  it('is OpenAPI 3.1 with the version given', () => {
    expect(doc.openapi).to.equal('3.1.0')
    expect(doc.info.version).to.equal('1.2.3')
  })

  it('has every route, with {param} paths and the operation name as operationId', () => {
    for (const [name, route] of Object.entries(api.routes)) {
      const path = route.path.replace(/:(\w+)/g, '{$1}')
      expect(doc.paths[path]?.[route.method.toLowerCase()]?.operationId, name).to.equal(name)
    }
  })

  it('puts path fields in path parameters, GET fields in the query, POST fields in the body', () => {
    const get = doc.paths['/sessions/{id}']!.get
    expect(get.parameters).to.deep.equal([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'format', in: 'query', required: false, schema: { type: 'string', enum: ['png', 'raw'] } },
    ])
    expect(get).not.to.have.property('requestBody')
    const create = doc.paths['/sessions/create']!.post
    expect(create.parameters).to.deep.equal([])
    expect(create.requestBody.required).to.equal(true)
    expect(create.requestBody.content['application/json'].schema).to.deep.equal({
      type: 'object',
      properties: { name: { type: 'string', description: 'Name of the thing' }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['name'],
    })
  })

  it('puts the fields a route names as query fields in the query on a PUT', () => {
    const put = doc.paths['/sessions/{id}']!.put
    expect(put.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).to.deep.equal(['path:id', 'query:dryRun'])
    expect(Object.keys(put.requestBody.content['application/json'].schema.properties)).to.deep.equal(['name'])
  })

  it('answers the success status of the operation and the error shape', () => {
    const create = doc.paths['/sessions/create']!.post
    expect(create.responses).to.have.property('201')
    expect(create.responses['201'].headers).to.have.keys(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'])
    expect(create.responses['401']).to.deep.equal({ $ref: '#/components/responses/Error401' })
    expect(doc.components.schemas.Error.required).to.deep.equal(['success', 'error'])
    expect(doc.components.responses.Error429.content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/Error' })
  })

  it('declares the three ways to send the key; public operations need none', () => {
    expect(doc.components.securitySchemes).to.deep.equal({
      ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      BearerAuth: { type: 'http', scheme: 'bearer' },
      ApiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
    })
    expect(doc.paths['/sessions/create']!.post.security).to.have.length(3)
    expect(doc.paths['/ping']!.get.security).to.deep.equal([])
    expect(doc.paths['/health']!.get.security).to.deep.equal([])
  })

  it('tags by the first part of the name, or the surface tag; sandbox access is admin', () => {
    expect(doc.paths['/admin/only']!.get.tags).to.deep.equal(['admin'])
    const sandbox = doc.paths['/sandbox/accounts']!.post
    expect(sandbox.tags).to.deep.equal(['sandbox'])
    expect(sandbox.security).to.have.length(3)
  })

  it('marks deprecated routes', () => {
    expect(doc.paths['/sessions/{id}/legacy']!.post.deprecated).to.equal(true)
    expect(doc.paths['/sessions/{id}']!.get).not.to.have.property('deprecated')
  })
})

describe('GET /openapi.json and GET /api-docs', () => {
  let app: TestApp
  beforeEach(async () => {
    app = await startApp()
  })
  afterEach(() => app.close())

  it('/openapi.json needs no key', async () => {
    const res = await call(`${app.url}/openapi.json`)
    expect(res.status).to.equal(200)
    expect(res.headers.get('Content-Type')).to.match(/^application\/json/)
    expect(res.body.paths).to.have.property('/sessions/create')
  })

  it('/api-docs serves the Swagger UI page, pointed at /openapi.json through local assets', async () => {
    const page = await call(`${app.url}/api-docs`)
    expect(page.status).to.equal(200)
    expect(page.headers.get('Content-Type')).to.match(/^text\/html/)
    expect(page.body).to.include('/api-docs/swagger-ui-bundle.js')
    expect(page.body).not.to.match(/https?:\/\//)
    const init = await call(`${app.url}/api-docs/swagger-initializer.js`)
    expect(init.body).to.include("url: '/openapi.json'")
  })

  it('serves the swagger-ui-dist assets', async () => {
    const bundle = await fetch(`${app.url}/api-docs/swagger-ui-bundle.js`)
    expect(bundle.status).to.equal(200)
    expect(bundle.headers.get('Content-Type')).to.match(/^text\/javascript/)
    expect((await bundle.text()).length).to.be.above(100_000)
    const css = await fetch(`${app.url}/api-docs/swagger-ui.css`)
    expect(css.headers.get('Content-Type')).to.match(/^text\/css/)
    await css.arrayBuffer()
  })

  it('serves nothing else from the folder: 404 Not found', async () => {
    for (const path of ['package.json', 'index.js', '..%2Fpackage.json', '%2E%2E%2F%2E%2E%2Fpackage.json', 'swagger-ui.js.map']) {
      const res = await call(`${app.url}/api-docs/${path}`)
      expect(res.status, path).to.equal(404)
      expect(res.body, path).to.deep.equal({ success: false, error: 'Not found' })
    }
  })
})
