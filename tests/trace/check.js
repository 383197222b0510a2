// Readers of micdb's traces for tests/trace.sh (doc/debugger.md section
// 5), in Node.js, which the suite already needs for the DAP tests:
//
//   node check.js perfetto FILE
//       checks the Trace Event Format: every event has a known phase,
//       the timestamps ascend on each track, B and E nest; prints "ok"
//       or the first problem (exit 1);
//   node check.js counters FILE STEP
//       the machine's counters at STEP (the last value written at or
//       before it): "efficiency E running R waiting W halted H faulted F"
//   node check.js vcd FILE SCOPE
//       reads a VCD (as fst2vcd writes it back) and prints, for every
//       time, the values of SCOPE's signals after it, one line a time:
//       "T NAME=hex NAME=hex ..." in the order the file declares them,
//       a line for every time unit from the first to the last;
//   node check.js dap MICDB PROGRAM CORES FILE
//       runs micdb --dap, launches PROGRAM on CORES cores (reference
//       engine, stopped on entry), and through evaluate (the REPL) says
//       trace start FILE, continue and, once the run has ended, trace
//       stop; prints what trace stop answered.
'use strict';
const fs = require('fs');

function fail(msg) {
	console.log(msg);
	process.exit(1);
}

function perfetto(file) {
	let j;
	try {
		j = JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch (e) {
		fail('not JSON: ' + e.message);
	}
	if (!Array.isArray(j.traceEvents))
		fail('no traceEvents array');
	const phases = new Set(['B', 'E', 'X', 'i', 'C', 'M']);
	const last = new Map(), stacks = new Map();
	let n = 0;
	for (const e of j.traceEvents) {
		n++;
		if (!phases.has(e.ph))
			fail(`event ${n}: unknown phase ${e.ph}`);
		if (e.ph === 'M')
			continue;
		if (typeof e.ts !== 'number' || e.ts < 0)
			fail(`event ${n}: no timestamp`);
		// a counter is a track of its own; slices and instants share
		// their thread's
		const track = e.ph === 'C' ? `C ${e.pid} ${e.name}` :
		    `T ${e.pid} ${e.tid}`;
		if (last.has(track) && e.ts < last.get(track))
			fail(`event ${n}: time ${e.ts} before ${last.get(track)} ` +
			    `on track ${track}`);
		last.set(track, e.ts);
		if (e.ph === 'B' || e.ph === 'E') {
			const st = stacks.get(track) || [];
			if (e.ph === 'B') {
				if (typeof e.name !== 'string')
					fail(`event ${n}: a slice without a name`);
				st.push(e.name);
			} else if (st.length === 0)
				fail(`event ${n}: E without its B on ${track}`);
			else
				st.pop();
			stacks.set(track, st);
		}
		if (e.ph === 'X' && !(e.dur >= 0))
			fail(`event ${n}: X without a duration`);
		if (e.ph === 'C' && (typeof e.args !== 'object' ||
		    Object.values(e.args).some((v) => typeof v !== 'number')))
			fail(`event ${n}: a counter without numbers`);
	}
	for (const [track, st] of stacks)
		if (st.length > 0)
			fail(`track ${track}: ${st.length} slices never end`);
	console.log('ok');
}

function counters(file, step) {
	const j = JSON.parse(fs.readFileSync(file, 'utf8'));
	let eff = null, cores = null;
	for (const e of j.traceEvents) {
		if (e.ph !== 'C' || e.ts > step)
			continue;
		if (e.name === 'SIMD efficiency')
			eff = e.args.percent;
		if (e.name === 'cores')
			cores = e.args;
	}
	if (eff === null || cores === null)
		fail(`no counters at step ${step}`);
	console.log(`efficiency ${eff.toFixed(1)} running ${cores.running} ` +
	    `waiting ${cores.waiting} halted ${cores.halted} faulted ` +
	    `${cores.faulted}`);
}

function vcd(file, scope) {
	const words = fs.readFileSync(file, 'utf8').split(/\s+/);
	const names = new Map(), order = [], value = new Map();
	let i = 0, path = [];
	for (; i < words.length && words[i] !== '$enddefinitions'; i++) {
		if (words[i] === '$scope') {
			path.push(words[i + 2]);
			i += 3;
		} else if (words[i] === '$upscope') {
			path.pop();
			i++;
		} else if (words[i] === '$var') {
			const id = words[i + 3], name = words[i + 4];
			if (path[path.length - 1] === scope) {
				names.set(id, name);
				order.push(id);
			}
			while (words[i] !== '$end')
				i++;
		}
	}
	if (order.length === 0)
		fail(`no scope ${scope}`);
	let time = null;
	const out = [];
	const line = (t) => t + ' ' + order.map((id) => names.get(id) + '=' +
	    (value.has(id) ? value.get(id) : 'x')).join(' ');
	// the values of time hold until the next time stamp
	const flush = (next) => {
		if (time === null)
			return;
		for (let t = time; t < next; t++)
			out.push(line(t));
	};
	for (i++; i < words.length; i++) {
		const w = words[i];
		if (w === '' || w.startsWith('$'))
			continue;
		if (w[0] === '#') {
			const t = Number(w.slice(1));
			flush(t);
			time = t;
		} else if (w[0] === 'b' || w[0] === 'B') {
			const id = words[++i];
			if (names.has(id))
				value.set(id, /[xz]/i.test(w) ? 'x' :
				    BigInt('0b' + w.slice(1)).toString(16));
		} else if (/^[01xz]/i.test(w)) {
			const id = w.slice(1);
			if (names.has(id))
				value.set(id, /[xz]/i.test(w[0]) ? 'x' : w[0]);
		}
	}
	// the last stamp is the end of the last step (trace-vcd.c)
	console.log(out.join('\n'));
}

function dap(micdb, program, cores, file) {
	const { spawn } = require('child_process');
	const p = spawn(micdb, ['--dap'], { stdio: ['pipe', 'pipe', 'inherit'] });
	let seq = 1, buf = Buffer.alloc(0), step = 0;
	const send = (command, args) => {
		const body = JSON.stringify({ seq: seq++, type: 'request', command,
		    arguments: args });
		p.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
		    body);
	};
	const evaluate = (expression) => send('evaluate', { expression,
	    context: 'repl' });
	const timer = setTimeout(() => fail('dap: no answer in 60 s'), 60000);
	// the conversation, one state after another
	const on = (m) => {
		if (m.type === 'event' && m.event === 'initialized')
			send('configurationDone', {});
		else if (m.type === 'event' && m.event === 'stopped' && step === 0) {
			step = 1;
			evaluate(`trace start ${file}`);
		} else if (m.type === 'response' && m.command === 'evaluate' &&
		    step === 1) {
			if (!m.success)
				fail('dap: ' + m.message);
			step = 2;
			evaluate('continue');
		} else if (m.type === 'event' && step === 2 &&
		    (m.event === 'terminated' || m.event === 'exited' ||
		    m.event === 'stopped')) {
			step = 3;
			evaluate('trace stop');
		} else if (m.type === 'response' && m.command === 'evaluate' &&
		    step === 3) {
			step = 4;
			console.log(m.success ? m.body.result : m.message);
			send('disconnect', {});
		} else if (m.type === 'response' && m.command === 'disconnect') {
			clearTimeout(timer);
			p.stdin.end();
		} else if (m.type === 'response' && !m.success &&
		    m.command !== 'evaluate')
			fail(`dap: ${m.command}: ${m.message}`);
	};
	p.stdout.on('data', (d) => {
		buf = Buffer.concat([buf, d]);
		for (;;) {
			const h = buf.indexOf('\r\n\r\n');
			if (h < 0)
				return;
			const n = Number(/Content-Length: (\d+)/i.exec(
			    buf.slice(0, h).toString())[1]);
			if (buf.length < h + 4 + n)
				return;
			const m = JSON.parse(buf.slice(h + 4, h + 4 + n).toString());
			buf = buf.slice(h + 4 + n);
			on(m);
		}
	});
	send('initialize', { adapterID: 'micdb', linesStartAt1: true });
	send('launch', { program, engine: 'ref', cores: Number(cores),
	    stopOnEntry: true });
}

const [what, file, arg, ...rest] = process.argv.slice(2);
if (what === 'perfetto')
	perfetto(file);
else if (what === 'counters')
	counters(file, Number(arg));
else if (what === 'vcd')
	vcd(file, arg);
else if (what === 'dap')
	dap(file, arg, rest[0], rest[1]);
else
	fail('usage: check.js perfetto|counters|vcd FILE [ARG]');
