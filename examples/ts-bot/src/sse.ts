/**
 * A Server-Sent Events parser, as the WHATWG HTML standard defines the format
 * ("Parsing an event stream", section 9.2.6), for a `text/event-stream` body read with fetch:
 * Node.js 20 has fetch and web streams but no EventSource.
 *
 * It does what EventSource does with the bytes and nothing else (no reconnection: the bot
 * decides when and how to resume, with `Last-Event-ID`):
 * - UTF-8, a leading byte order mark dropped; lines end with CRLF, LF or CR (a CR at the end of
 *   one chunk and an LF at the start of the next are one line end);
 * - a line starting with `:` is a comment (the server's keep-alive) and dispatches nothing;
 * - `field: value` (one space after the colon dropped), a field alone has an empty value;
 *   `event`, `data` (lines joined by LF), `id` (ignored if it holds NUL; it persists until the
 *   next `id`), `retry` (digits only); other fields are ignored;
 * - a blank line dispatches the message, unless no `data` came (then it only resets `event`);
 *   a message cut off by the end of the stream is dropped.
 */

export interface SseMessage {
  /** the `event` field, `message` when there was none */
  event: string;
  data: string;
  /** the last `id` seen so far in the stream (what `Last-Event-ID` resumes after) */
  lastEventId: string;
}

export class SseParser {
  private buffer = "";
  private skipLineFeed = false;
  private started = false;
  private data = "";
  private eventType = "";
  private idBuffer = "";
  /** the reconnection time the server asked for (`retry:`), in milliseconds */
  retry: number | undefined;

  /** The messages completed by this piece of the decoded stream. */
  feed(text: string): SseMessage[] {
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    this.buffer += text;
    const out: SseMessage[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer.charCodeAt(i);
      if (this.skipLineFeed) {
        this.skipLineFeed = false;
        if (c === 0x0a) {
          start = i + 1;
          continue;
        }
      }
      if (c !== 0x0a && c !== 0x0d) continue;
      this.line(this.buffer.slice(start, i), out);
      if (c === 0x0d) this.skipLineFeed = true; // CRLF: the LF may come in the next chunk
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  private line(line: string, out: SseMessage[]): void {
    if (line === "") {
      this.dispatch(out);
      return;
    }
    if (line.startsWith(":")) return; // a comment: the keep-alive
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "event":
        this.eventType = value;
        break;
      case "data":
        this.data += value + "\n";
        break;
      case "id":
        if (!value.includes("\u0000")) this.idBuffer = value;
        break;
      case "retry":
        if (/^[0-9]+$/.test(value)) this.retry = Number(value);
        break;
      default:
        break; // unknown fields are ignored
    }
  }

  private dispatch(out: SseMessage[]): void {
    if (this.data === "") {
      this.eventType = "";
      return;
    }
    out.push({
      event: this.eventType || "message",
      data: this.data.endsWith("\n") ? this.data.slice(0, -1) : this.data,
      lastEventId: this.idBuffer,
    });
    this.data = "";
    this.eventType = "";
  }
}

/** Thrown when no byte arrived for `idleMs`: the connection is as good as dead. */
export class StreamIdle extends Error {}

/**
 * The messages of an event-stream body, a batch per chunk read (the events of one command
 * usually arrive together, so the reader can act once per batch). Ends when the server
 * closes the stream; throws StreamIdle after `idleMs` of silence (keep-alive comments count
 * as bytes), and whatever the body's reader throws when the connection breaks.
 */
export async function* readEventStream(
  body: ReadableStream<Uint8Array>,
  idleMs: number,
): AsyncGenerator<SseMessage[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder("utf-8");
  const parser = new SseParser();
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const idle = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new StreamIdle(`no data for ${idleMs} ms`)), idleMs);
      });
      const chunk = await Promise.race([reader.read(), idle]).finally(() => clearTimeout(timer));
      if (chunk.done) {
        parser.feed(decoder.decode()); // flush; an unfinished message is dropped
        return;
      }
      const messages = parser.feed(decoder.decode(chunk.value, { stream: true }));
      if (messages.length > 0) yield messages;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
