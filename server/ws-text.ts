import type { RawData } from "ws";

/**
 * A WebSocket message as text. ws types a message as one Buffer, an ArrayBuffer or a list of
 * fragments (by its `binaryType`), and `String()` of the list would join the fragments with commas.
 */
export function messageText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString("utf8");
  return data.toString("utf8");
}
