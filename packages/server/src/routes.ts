/**
 * ROUTES: the REST path of every core operation, one line each. The handler is generic (mount.ts);
 * access, input schema and success status live on the operation in core.
 * @module
 */
import type { OperationName } from '@switchboard/core'
import type { RouteSpec } from './route-spec.js'

export type { OperationName }

export const ROUTES = {
  'sessions.create': { method: 'POST', path: '/sessions/create' },
  'sessions.list': { method: 'GET', path: '/sessions' },
  'sessions.status': { method: 'GET', path: '/sessions/:id/status' },
  'sessions.qr': { method: 'GET', path: '/sessions/:id/qr' },
  'sessions.stop': { method: 'POST', path: '/sessions/:id/stop' },
  'sessions.start': { method: 'POST', path: '/sessions/:id/start' },
  'sessions.logout': { method: 'POST', path: '/sessions/:id/logout' },
  'sessions.delete': { method: 'DELETE', path: '/sessions/:id' },
  'sessions.requestCode': { method: 'POST', path: '/sessions/:id/auth/request-code' },
  'sessions.setWebhook': { method: 'PUT', path: '/sessions/:id/webhook' },
  'sessions.checkNumber': { method: 'GET', path: '/sessions/:id/check-number/:phone' },
  'sessions.contacts': { method: 'GET', path: '/sessions/:id/contacts' },
  'sessions.chats': { method: 'GET', path: '/sessions/:id/chats' },
  'messages.sendText': { method: 'POST', path: '/sessions/:id/send' },
  'admin.keys.create': { method: 'POST', path: '/admin/api-keys' },
  'admin.keys.createTrial': { method: 'POST', path: '/admin/api-keys/trial' },
  'admin.keys.list': { method: 'GET', path: '/admin/api-keys' },
  'admin.keys.get': { method: 'GET', path: '/admin/api-keys/:keyId' },
  'admin.keys.update': { method: 'PUT', path: '/admin/api-keys/:keyId' },
  'admin.keys.setRateLimits': { method: 'PUT', path: '/admin/api-keys/:keyId/rate-limits' },
  'admin.keys.deactivate': { method: 'POST', path: '/admin/api-keys/:keyId/deactivate' },
  'admin.keys.activate': { method: 'POST', path: '/admin/api-keys/:keyId/activate' },
  'admin.keys.delete': { method: 'DELETE', path: '/admin/api-keys/:keyId' },
  'admin.keys.extendTrial': { method: 'POST', path: '/admin/api-keys/:keyId/extend-trial' },
  'admin.keys.convertToPaid': { method: 'POST', path: '/admin/api-keys/:keyId/convert-to-paid' },
  'admin.usage': { method: 'GET', path: '/admin/usage' },
  'admin.keys.usage': { method: 'GET', path: '/admin/api-keys/:keyId/usage' },
} as const satisfies Record<OperationName, RouteSpec>
