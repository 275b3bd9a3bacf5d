export type {
  AuthStore,
  CloseReason,
  ConnectionUpdate,
  DriverEventName,
  DriverEvents,
  NetworkDriver,
  OpenOptions,
} from './driver.js'
export type {
  ChatOp,
  ChatOpResults,
  ContactOp,
  ContactOpResults,
  GroupOp,
  GroupOpResults,
  MessageOp,
  MessageOpResults,
  OpOf,
  ProfileOp,
  ProfileOpResults,
} from './operations.js'
export type * from './types.js'
