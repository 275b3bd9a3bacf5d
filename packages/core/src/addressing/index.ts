export { parsePhone, normalizePhone } from './phone.js'
export {
  GROUP_SERVER,
  INVITE_HOST,
  LID_SERVER,
  USER_SERVER,
  inviteLink,
  isGroupJid,
  isLidJid,
  isUserJid,
  normalizeChatId,
  normalizeGroupId,
  normalizeRecipient,
  normalizeUserJid,
  phoneOfJid,
  userJid,
} from './jid.js'
