/**
 * Every error the gateway can answer, with its HTTP status and the interface spec's exact text.
 * Texts are stored once, here; variable facts travel in `details`. Statuses follow
 * `decisions.md` (only 400, 401, 403, 404, 429, 500 and 503 are used).
 * @module
 */

export interface ErrorSpec<D = never> {
  readonly status: 400 | 401 | 403 | 404 | 429 | 500 | 503
  readonly message: string | ((details: D) => string)
  /** The answer carries `retryAfter` (seconds) and a `Retry-After` header. */
  readonly retryable?: true
}

const spec = <const S extends ErrorSpec<any>>(s: S): S => s

export const ERRORS = {
  // Authentication and authorization
  API_KEY_REQUIRED: spec({ status: 401, message: 'API key required. Please provide an API key via X-API-Key header.' }),
  API_KEY_INVALID: spec({ status: 401, message: 'Invalid API key' }),
  API_KEY_DEACTIVATED: spec({ status: 403, message: 'API key is deactivated' }),
  ADMIN_KEY_REQUIRED: spec({ status: 403, message: 'Admin API key required' }),
  SESSION_ACCESS_DENIED: spec({ status: 403, message: 'This API key can only access its own session' }),
  TRIAL_EXPIRED: spec({ status: 403, message: 'Trial period has expired' }),
  TRIAL_RECIPIENT_NOT_ALLOWED: spec({
    status: 403,
    message: (d: { allowedNumbers: readonly string[] }) => `Trial key can only send to allowed numbers: ${d.allowedNumbers.join(', ')}`,
  }),
  MAX_SESSIONS_REACHED: spec({ status: 403, message: 'Maximum number of sessions reached' }),

  // Limits
  RATE_LIMITED: spec({
    status: 429,
    message: (d: { retryAfter: number }) => `Rate limit exceeded. Please wait ${d.retryAfter} seconds before trying again.`,
    retryable: true,
  }),
  QR_POLLED_TOO_SOON: spec({ status: 429, message: 'Please wait 5 seconds before requesting QR again', retryable: true }),

  // Sessions and linking
  SESSION_NOT_FOUND: spec({ status: 404, message: 'Session not found' }),
  SESSION_NAME_TAKEN: spec({ status: 400, message: 'Session name already exists' }),
  /** Pairing code for a session that does not exist. */
  SESSION_NOT_FOUND_OR_NOT_STARTED: spec({ status: 404, message: 'Session not found or not started' }),
  /** Pairing code for a session that exists but is stopped, logged out or failed. */
  SESSION_NOT_STARTED: spec({ status: 400, message: 'Session not found or not started' }),
  ALREADY_AUTHENTICATED: spec({ status: 400, message: 'Already authenticated' }),
  SESSION_NOT_AUTHENTICATED: spec({
    status: 400,
    message: (d: { sessionId: string }) => `Session not authenticated. Please scan the QR code first using GET /sessions/${d.sessionId}/qr`,
  }),
  SESSION_CONNECTING: spec({ status: 503, message: 'Session is still connecting. Please wait.', retryable: true }),
  QR_NOT_AVAILABLE: spec({
    status: 503,
    message: (d: { state: string }) => `QR code not available yet. Session state: ${d.state}`,
    retryable: true,
  }),
  NOT_AUTHENTICATED: spec({ status: 400, message: 'Not authenticated' }),

  // Input
  VALIDATION_FAILED: spec({ status: 400, message: (d: { reason: string }) => d.reason }),
  INVALID_PHONE_NUMBER: spec({ status: 400, message: 'Invalid phone number format' }),
  INVALID_JID: spec({ status: 400, message: 'Invalid JID format' }),
  TEXT_TOO_LONG: spec({ status: 400, message: 'Message text exceeds maximum length' }),
  NAME_TOO_LONG: spec({ status: 400, message: 'Name must be 25 characters or less' }),
  INVALID_IMAGE: spec({ status: 400, message: 'Invalid image format' }),
  MEDIA_DOWNLOAD_FAILED: spec({ status: 400, message: 'Failed to download media from URL' }),
  MEDIA_TOO_LARGE: spec({ status: 400, message: 'Media file size exceeds maximum allowed (16MB)' }),
  MEDIA_PATH_INVALID: spec({ status: 400, message: 'Invalid media path' }),
  /** A request body that is not valid JSON (REST layer). */
  INVALID_JSON_BODY: spec({ status: 400, message: 'Invalid JSON body' }),
  /** A request body over the server's limit; 400 because the spec lists no 413. */
  BODY_TOO_LARGE: spec({ status: 400, message: 'Request body too large' }),

  // Network answers
  NUMBER_NOT_REGISTERED: spec({ status: 404, message: 'Number is not registered on WhatsApp' }),
  MESSAGE_NOT_FOUND: spec({ status: 404, message: 'Message not found' }),
  MESSAGE_NOT_EDITABLE: spec({ status: 400, message: 'Message cannot be edited (too old or not sent by you)' }),
  MESSAGE_NOT_DELETABLE: spec({ status: 400, message: 'Message cannot be deleted (too old or not sent by you)' }),
  CONTACT_NOT_FOUND: spec({ status: 404, message: 'Contact not found' }),
  NETWORK_UNAVAILABLE: spec({ status: 503, message: 'WhatsApp is temporarily unavailable. Please try again.', retryable: true }),

  // Resources
  ROUTE_NOT_FOUND: spec({ status: 404, message: 'Not found' }),
  GROUP_NOT_FOUND: spec({ status: 404, message: 'Group not found' }),
  /** A group action reserved to admins (invite link, participant changes) by a member who is not one. */
  GROUP_ADMIN_REQUIRED: spec({ status: 403, message: 'Only group admins can do this' }),
  BROADCAST_NOT_FOUND: spec({ status: 404, message: 'Broadcast not found' }),
  SCHEDULED_NOT_FOUND: spec({ status: 404, message: 'Scheduled message not found' }),
  SCHEDULED_NOT_PENDING: spec({ status: 400, message: 'Only pending scheduled messages can be cancelled' }),
  API_KEY_NOT_FOUND: spec({ status: 404, message: 'API key not found' }),

  // Sandbox control API
  SANDBOX_ACCOUNT_EXISTS: spec({ status: 400, message: 'Account already exists' }),
  SANDBOX_ACCOUNT_NOT_FOUND: spec({ status: 404, message: 'Account not found' }),
  SANDBOX_QR_INVALID: spec({ status: 400, message: 'Invalid or expired QR code' }),
  SANDBOX_CODE_INVALID: spec({ status: 400, message: 'Invalid or expired pairing code' }),

  // Everything unexpected (details go to the log, never to the client)
  INTERNAL: spec({ status: 500, message: 'Internal server error' }),
} as const satisfies Record<string, ErrorSpec<any>>

export type ErrorCode = keyof typeof ERRORS

/** The `details` an error code needs to render its message. */
export type ErrorDetails<C extends ErrorCode> = (typeof ERRORS)[C]['message'] extends (details: infer D) => string ? D : never
