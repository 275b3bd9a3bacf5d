/**
 * Message ids across the two sides of the bridge. A Baileys client chooses the id of what it
 * sends; the sandbox world chooses its own. The door keeps both, so everything the outside sees
 * (the gateway over the wire, the control API) uses the id the sender chose.
 * @module
 */
import type { WireState } from './state.js'

export class IdMap {
  constructor(private readonly state: WireState) {}

  /** Records that the wire's `wireId` is the world's `worldId`. */
  async pair(wireId: string, worldId: string): Promise<void> {
    if (wireId === worldId) return
    await this.state.set(`id:wire:${wireId}`, worldId)
    await this.state.set(`id:world:${worldId}`, wireId)
  }

  /** The world's id of a message named on the wire (itself when the world chose it). */
  async toWorld(id: string): Promise<string> {
    return (await this.state.get<string>(`id:wire:${id}`)) ?? id
  }

  /** The wire's id of a message named by the world (itself when the world chose it). */
  async toWire(id: string): Promise<string> {
    return (await this.state.get<string>(`id:world:${id}`)) ?? id
  }
}
