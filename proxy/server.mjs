// The REST proxy every politics-bot process sends through, so that processes sharing one bot token
// share one budget (issue #28; docs/scaling.md, "One budget across processes").
//
// It is discord.js's maintained proxy: @discordjs/proxy's request handler on a @discordjs/rest client,
// which keeps Discord's per-route buckets (learned from the X-RateLimit-* headers, one queue per bucket
// and resource, so a channel's messages also leave in order), waits out a 429 and retries it, and
// forwards each request's own Authorization header. Two things are ours: a body a retry can send again
// (`bytesOf`), and the global limit.
// @discordjs/rest counts it in fixed windows (50 requests, then a pause until one second after the
// first), which lets up to twice the limit through within some second (the end of one window and
// the start of the next), and it counts interaction follow-ups, which Discord exempts. So its own
// count is set out of reach and the global limit is kept here instead, where the request really
// leaves (after its bucket's wait, and again for each retry): no more than GLOBAL_LIMIT requests in
// any GLOBAL_WINDOW_MS, counted from their answers (see `places`), interaction callbacks and
// follow-ups (/interactions/, /webhooks/) exempt, as Discord counts them.
//
// Settings (environment): PORT (8080; 0 picks a free one), HOST (0.0.0.0), DISCORD_API (Discord's
// https://discord.com/api; a fake Discord's in tests), GLOBAL_LIMIT (50), GLOBAL_WINDOW_MS (1000: Discord's
// second; counted from the answers, it needs no margin), REQUEST_TIMEOUT_MS
// (60000: a request's time in the queues included). GET /healthz answers {"ok": true, ...} (compose's
// health check), with the requests waiting for the global limit and those counted in its window.
import { createServer } from 'node:http';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { proxyRequests } from '@discordjs/proxy';
import { DefaultRestOptions, REST } from '@discordjs/rest';

function setting(name, fallback) {
	const value = Number(process.env[name] ?? fallback);
	if (!Number.isFinite(value) || value < 0) {
		console.error(`rest-proxy: ${name} must be a number from 0, not ${JSON.stringify(process.env[name])}.`);
		process.exit(2);
	}
	return value;
}

const port = setting('PORT', 8080);
const host = process.env.HOST ?? '0.0.0.0';
const api = (process.env.DISCORD_API ?? 'https://discord.com/api').replace(/\/+$/, '');
const globalLimit = setting('GLOBAL_LIMIT', 50);
const windowMs = setting('GLOBAL_WINDOW_MS', 1000);
const EXEMPT = /^\/api\/v\d+\/(interactions|webhooks)\//; // no global limit (Discord's rate-limit docs)

// The global-limited requests of the last window: each holds its place from when it leaves until
// `windowMs` after its answer came back. Discord counts a request when it arrives, which is somewhere
// between the two: a request that left on a cold connection can arrive late, together with the
// next window's (seen on loopback: 0.12 s), so the time it left is not a safe mark; its answer is.
const places = []; // per request: Infinity while it is on its way, then when its answer came
let queue = Promise.resolve(); // requests take their turn in the order they came
let held = 0; // requests waiting for their turn right now (a figure for /healthz)

function globalTurn() {
	held += 1;
	const turn = queue.then(async () => {
		for (;;) {
			const now = performance.now();
			for (let i = places.length - 1; i >= 0; i -= 1) {
				if (places[i].at <= now - windowMs) places.splice(i, 1);
			}
			if (places.length < globalLimit) {
				const place = { at: Infinity };
				places.push(place);
				held -= 1;
				return place;
			}
			const freed = Math.min(...places.map((p) => p.at)) + windowMs - now;
			await sleep(Number.isFinite(freed) ? Math.max(1, freed) : 5); // all on their way: check again soon
		}
	});
	queue = turn.then(() => undefined);
	return turn;
}

// @discordjs/proxy hands the client the incoming request itself as the body, a stream that can be read
// once: a retry after a 429 then sent Discord an empty body (a message posted with no content, seen
// against the fake). So the body is read into memory on the first try and every try sends those bytes.
const bodies = new WeakMap(); // the incoming stream -> its bytes

async function bytesOf(body) {
	const once = body && typeof body !== 'string' && !(body instanceof Uint8Array)
		&& typeof body[Symbol.asyncIterator] === 'function';
	if (!once) return body;
	if (!bodies.has(body)) {
		const chunks = [];
		for await (const chunk of body) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
		bodies.set(body, Buffer.concat(chunks));
	}
	return bodies.get(body);
}

const sendOnce = DefaultRestOptions.makeRequest;
const send = async (url, init) => sendOnce(url, { ...init, body: await bytesOf(init.body) });
const rest = new REST({
	api,
	version: '10',
	globalRequestsPerSecond: Number.MAX_SAFE_INTEGER, // kept by globalTurn instead (see above)
	timeout: setting('REQUEST_TIMEOUT_MS', 60_000),
	async makeRequest(url, init) {
		if (EXEMPT.test(new URL(url).pathname)) return send(url, init);
		const place = await globalTurn();
		try {
			return await send(url, init);
		} finally {
			place.at = performance.now();
		}
	},
});

const proxy = proxyRequests(rest);
const server = createServer((req, res) => {
	if (req.method === 'GET' && req.url === '/healthz') {
		res.setHeader('Content-Type', 'application/json');
		res.end(JSON.stringify({ ok: true, held, in_window: places.length }));
		return;
	}
	proxy(req, res).catch((error) => {
		console.error('rest-proxy: request failed:', error);
		if (!res.headersSent) res.statusCode = 502;
		res.end();
	});
});
server.keepAliveTimeout = 65_000; // longer than the bots' idle connections, so none is cut mid-request
server.listen(port, host, () => {
	console.log(`rest-proxy listening on ${host}:${server.address().port}, sending to ${api}`);
});

function stop() {
	server.close(() => process.exit(0));
	setTimeout(() => process.exit(0), 5_000).unref();
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
