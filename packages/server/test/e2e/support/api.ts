/** A small HTTP client for the server under test: one method per verb, the key per call or per client. */
export type Json = Record<string, any>

export interface Reply<T = Json> {
  status: number
  headers: Headers
  body: T
  /** The body as received. */
  text: string
}

export interface RequestOptions {
  /** Overrides the client's key; `null` sends none. */
  key?: string | null
  /** How the key travels. @default 'header' */
  via?: 'header' | 'bearer' | 'query'
  headers?: Record<string, string>
  /** Sent as is (for malformed bodies). */
  rawBody?: string
}

export class Api {
  constructor(
    readonly url: string,
    readonly key?: string,
  ) {}

  /** The same server with another key (`undefined`: none). */
  as(key: string | undefined): Api {
    return new Api(this.url, key)
  }

  get<T = Json>(path: string, options?: RequestOptions): Promise<Reply<T>> {
    return this.request<T>('GET', path, undefined, options)
  }

  post<T = Json>(path: string, body?: unknown, options?: RequestOptions): Promise<Reply<T>> {
    return this.request<T>('POST', path, body, options)
  }

  put<T = Json>(path: string, body?: unknown, options?: RequestOptions): Promise<Reply<T>> {
    return this.request<T>('PUT', path, body, options)
  }

  delete<T = Json>(path: string, options?: RequestOptions): Promise<Reply<T>> {
    return this.request<T>('DELETE', path, undefined, options)
  }

  async request<T = Json>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<Reply<T>> {
    const key = options.key === null ? undefined : (options.key ?? this.key)
    const headers: Record<string, string> = { ...options.headers }
    let target = `${this.url}${path}`
    if (key !== undefined) {
      const via = options.via ?? 'header'
      if (via === 'header') headers['X-API-Key'] = key
      else if (via === 'bearer') headers.Authorization = `Bearer ${key}`
      else target += `${path.includes('?') ? '&' : '?'}api_key=${encodeURIComponent(key)}`
    }
    const payload = options.rawBody ?? (body === undefined ? undefined : JSON.stringify(body))
    if (payload !== undefined) headers['Content-Type'] ??= 'application/json'
    const response = await fetch(target, { method, headers, ...(payload === undefined ? {} : { body: payload }) })
    const text = await response.text()
    const type = response.headers.get('content-type') ?? ''
    const parsed = type.includes('json') && text !== '' ? (JSON.parse(text) as T) : (text as unknown as T)
    return { status: response.status, headers: response.headers, body: parsed, text }
  }
}
