/**
 * The slice of a Baileys socket the driver uses. Typing the factory against this slice (rather
 * than the whole `WASocket`) lets tests inject a small fake socket; the real `makeWASocket`
 * satisfies it.
 * @module
 */
import type { UserFacingSocketConfig, WASocket } from '@whiskeysockets/baileys'

/** Event emitter part of the socket: `on` / `off` with Baileys' typed event map. */
export type BaileysEv = Pick<WASocket['ev'], 'on' | 'off'>

/** Only what the lid mapping store offers that the driver reads or feeds. */
export type LidMappingLike = Pick<
  WASocket['signalRepository']['lidMapping'],
  'getPNForLID' | 'getLIDForPN' | 'storeLIDPNMappings'
>

export type BaileysSocket = Pick<
  WASocket,
  | 'user'
  | 'requestPairingCode'
  | 'logout'
  | 'end'
  | 'sendMessage'
  | 'readMessages'
  | 'sendPresenceUpdate'
  | 'chatModify'
  | 'star'
  | 'updateMediaMessage'
  | 'groupCreate'
  | 'groupMetadata'
  | 'groupUpdateSubject'
  | 'groupUpdateDescription'
  | 'groupParticipantsUpdate'
  | 'groupInviteCode'
  | 'groupRevokeInvite'
  | 'groupLeave'
  | 'updateProfileName'
  | 'updateProfileStatus'
  | 'updateProfilePicture'
  | 'removeProfilePicture'
  | 'fetchStatus'
  | 'profilePictureUrl'
  | 'updateBlockStatus'
  | 'onWhatsApp'
> & {
  ev: BaileysEv
  authState: { creds: WASocket['authState']['creds'] }
  signalRepository?: { lidMapping: LidMappingLike }
}

/** Builds one socket; `makeWASocket` by default. */
export type MakeSocket = (config: UserFacingSocketConfig) => BaileysSocket
