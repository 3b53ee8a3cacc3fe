// The SSE parser against the cases of the WHATWG standard a server's bytes may hit
// (`npm test`, after `npm run build`).

import assert from "node:assert/strict";
import { test } from "node:test";

import { readEventStream, SseParser, StreamIdle } from "./sse.js";

function parseAll(...chunks: string[]) {
  const parser = new SseParser();
  return chunks.flatMap((chunk) => parser.feed(chunk));
}

test("a message per blank line, with its event name, data and id", () => {
  const got = parseAll('id: 14\nevent: view\ndata: {"v":14}\n\nid: 15\nevent: event\ndata: x\n\n');
  assert.deepEqual(got, [
    { event: "view", data: '{"v":14}', lastEventId: "14" },
    { event: "event", data: "x", lastEventId: "15" },
  ]);
});

test("comments (keep-alives) and a message without data dispatch nothing", () => {
  assert.deepEqual(parseAll(": keep-alive\n: keep-alive\n", "event: view\n\n", "\n"), []);
  // the event name of a message without data does not leak into the next one
  assert.deepEqual(parseAll("event: view\n\ndata: y\n\n"), [
    { event: "message", data: "y", lastEventId: "" },
  ]);
});

test("CRLF, CR and LF line ends, even split across chunks", () => {
  assert.deepEqual(parseAll("data: a\r", "\ndata: b\r\r", "data: c\n", "\n"), [
    { event: "message", data: "a\nb", lastEventId: "" },
    { event: "message", data: "c", lastEventId: "" },
  ]);
});

test("a leading BOM, one optional space, fields without a colon, unknown fields", () => {
  assert.deepEqual(parseAll("\ufeffdata:no space\ndata:  two\ndata\nfoo: bar\n\n"), [
    { event: "message", data: "no space\n two\n", lastEventId: "" },
  ]);
});

test("the last id persists, an id with NUL is ignored, retry takes digits only", () => {
  const parser = new SseParser();
  const got = parser.feed("id: 7\ndata: a\n\ndata: b\n\nid: 8\u0000\nretry: x\nretry: 250\ndata: c\n\n");
  assert.deepEqual(
    got.map((m) => m.lastEventId),
    ["7", "7", "7"],
  );
  assert.equal(parser.retry, 250);
});

test("a message cut off by the end of the stream is dropped; silence is an error", async () => {
  const bytes = new TextEncoder().encode("data: é\n\ndata: cut");
  const whole = new ReadableStream<Uint8Array>({
    start(controller) {
      // split inside the two bytes of "é": the decoder must join them
      controller.enqueue(bytes.slice(0, 7));
      controller.enqueue(bytes.slice(7));
      controller.close();
    },
  });
  const batches = [];
  for await (const batch of readEventStream(whole, 1000)) batches.push(batch);
  assert.deepEqual(batches, [[{ event: "message", data: "é", lastEventId: "" }]]);

  const silent = new ReadableStream<Uint8Array>({ start() {} });
  await assert.rejects(async () => {
    for await (const _ of readEventStream(silent, 50)) void _;
  }, StreamIdle);
});
