// An emulated Raspberry Pi Pico (rp2040js) running the stock MicroPython UF2, driven by pico.py.
//
// pico.py starts `node emulator.mjs` and talks to it over stdin/stdout in frames of
// [type: 1 byte][length: u32 LE][payload]:
//   host -> emulator   'c' a JSON command (see `commands` below), 'u' bytes for the USB CDC port
//   emulator -> host   'e' a JSON event or reply, 'u' [emulated ns: f64 LE][bytes the device sent]
// Events: power {on}, configured, watchdog {reason}, brownout {sent}, bus_reset, each with its ns.
//
// Each quirk of rp2040js 1.4.1 that tests/firmware/pico/FACTS.md lists is handled here, marked
// "FACTS n". The board around the chip: the Hall sensors behind the boards' multiplexers (the
// select lines are read from the firmware's own GPIO outputs at each conversion, the values
// come from the field pico.py sends, with noise and the ADC's stale sample added here), the
// encoders on GPIO inputs, and the USB host.
//
// Time: in batch mode (speed 0) emulated time moves only on a 'run' command, so runs are
// deterministic and every figure is in emulated cycles; with a speed > 0 the chip runs freely,
// never ahead of the wall clock times that speed (FACTS 7).

import fs from 'node:fs';
import { RP2040, USBCDC } from 'rp2040js';

const CYCLE_NS = 8;                       // 125 MHz
const FLASH_FS_OFFSET = 0xa0000;          // BUILD.md: littlefs from flash offset 0xA0000
const FLASH_FS_BYTES = 352 * 4096;
const ROM_ERASE = 0x4552;                 // rom_table_code('R', 'E'): flash_range_erase
const ROM_PROGRAM = 0x5052;               // rom_table_code('R', 'P'): flash_range_program
const INTR_DEV_SOF = 1 << 17;
const USB_SOF_RD = 0x48;
const ROSC_BASE = 0x40060;
const VREG_BASE = 0x40064;
const WATCHDOG_BASE = 0x40058;
const CHIP_RESET_HAD_POR = 1 << 8;
const ADC_FULL = 4095;

// ---------------------------------------------------------------------------- framing to pico.py

const out = process.stdout;
function send(type, payload) {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeUInt32LE(payload.length, 1);
  out.write(Buffer.concat([head, payload]));
}
const event = (fields) => send('e', Buffer.from(JSON.stringify(fields)));

// --------------------------------------------------------------------- the sensors and the host

// A linear congruential generator, the same as firmware/sim.py's, for reproducible noise.
class Noise {
  constructor(seed) { this.seed = seed >>> 0; }
  next(peak) {
    this.seed = (Math.imul(this.seed, 1103515245) + 12345) & 0x7fffffff;
    return ((this.seed >>> 8) % (2 * peak + 1)) - peak;
  }
}

// What the sensors see, kept across power cycles (the marbles stay on the board).
const board = {
  field: [],          // per hole, the noiseless sensor output in read_u16 counts
  garbage: new Set(), // holes of a turning block: they read noise
  noiseCounts: 300,
  garbageCounts: 20000,
  selectPins: [],
  adcPins: [],
  channels: [],       // per ADC input, per mux address: a hole or null
};

// ----------------------------------------------------------------------------- stand-ins (FACTS 5)

// ROSC: CTRL read/write, STATUS ENABLED|STABLE, RANDOMBIT from a PRNG seeded per power-on.
class Rosc {
  constructor(seed) { this.regs = new Map(); this.bits = new Noise(seed); }
  readUint32(offset) {
    if (offset === 0x18) return (1 << 31) | (1 << 12);
    if (offset === 0x1c) return this.bits.next(1) & 1;
    return this.regs.get(offset) ?? 0;
  }
  writeUint32Atomic(offset, value) { this.regs.set(offset, value >>> 0); }
  writeUint32(offset, value) { this.regs.set(offset, value >>> 0); }
}

// VREG_AND_CHIP_RESET: CHIP_RESET says how the chip came up (HAD_POR after power-on, nothing
// after a watchdog reset), which is what machine.reset_cause() reads.
class ChipReset {
  constructor(powerOn) { this.chipReset = powerOn ? CHIP_RESET_HAD_POR : 0; this.regs = new Map(); }
  readUint32(offset) { return offset === 0x08 ? this.chipReset : (this.regs.get(offset) ?? 0); }
  writeUint32Atomic(offset, value) { this.regs.set(offset, value >>> 0); }
  writeUint32(offset, value) { this.regs.set(offset, value >>> 0); }
}

// ---------------------------------------------------------------------------------- one power-on

function loadUF2(mcu, data) {
  for (let at = 0; at + 512 <= data.length; at += 512) {
    if (data.readUInt32LE(at) !== 0x0a324655 || data.readUInt32LE(at + 4) !== 0x9e5d5157) {
      throw new Error(`not a UF2 block at byte ${at}`);
    }
    const target = data.readUInt32LE(at + 12);
    const size = data.readUInt32LE(at + 16);
    mcu.flash.set(data.subarray(at + 32, at + 32 + size), target - 0x10000000);
  }
}

function romFunction(bootrom, code) {
  const view = new DataView(bootrom.buffer);
  for (let at = view.getUint16(0x14, true); ; at += 4) {
    const entry = view.getUint16(at, true);
    if (entry === 0) throw new Error(`bootrom has no function ${code.toString(16)}`);
    if (entry === code) return view.getUint16(at + 2, true) & ~1;
  }
}

class Chip {
  constructor(image, options) {
    this.options = options;
    this.mcu = new RP2040();
    const { mcu } = this;
    mcu.logger = { debug() {}, info() {}, warn() {}, error() {} };
    mcu.loadBootrom(image.bootrom);       // (resets, filling flash with 0xFF)
    loadUF2(mcu, image.uf2);
    mcu.flash.set(image.filesystem, FLASH_FS_OFFSET);
    mcu.peripherals[ROSC_BASE] = new Rosc(options.seed);
    mcu.peripherals[VREG_BASE] = new ChipReset(!options.watchdogReason);
    // A watchdog reset keeps the watchdog's REASON and its scratch registers (a power-on clears both).
    if (options.watchdogReason) mcu.peripherals[WATCHDOG_BASE].reason = options.watchdogReason;
    if (options.scratch) mcu.peripherals[WATCHDOG_BASE].scratchData.set(options.scratch);
    // The watchdog resets the chip; stop its timer first: rp2040js would re-arm the alarm at
    // the count it already reached, and fire it again and again at the same instant.
    const watchdog = mcu.peripherals[WATCHDOG_BASE];
    watchdog.onWatchdogTrigger = () => {
      watchdog.alarm.enable = false;
      watchdog.timer.enable = false;
      this.bitten = watchdog.reason;     // TIMER: it bit; FORCE: machine.reset() asked for it
    };
    this.eraseAt = romFunction(mcu.bootrom, ROM_ERASE);
    this.programAt = romFunction(mcu.bootrom, ROM_PROGRAM);
    this.busyCycles = 0;
    this.adcReads = 0;
    this.bitten = 0;                      // the watchdog's REASON once it reset the chip
    this.tearArmed = false;               // cut the power once a USB packet ends inside a frame
    this.torn = null;                     // {ns, sent}: when the power was cut, mid-frame
    this.noise = new Noise(options.seed ^ 0x5eed);
    this.lastSignal = 0;
    this.hostQueue = [];                  // bytes for the device (FACTS 3: unbounded here)
    this.pendingRead = 0;                 // an armed OUT endpoint waiting for bytes (FACTS 2)
    this.configured = false;
    this.sofAlarm = null;
    this.wireAdc();
    this.wireUsb();
    mcu.core.PC = 0x10000000;             // boot2 in flash, as the bootrom would jump to it
  }

  get nanos() { return this.mcu.clock.nanos; }

  // The mux: the select lines are the firmware's own GPIO outputs at the moment it converts.
  wireAdc() {
    const { adc, gpio } = this.mcu;
    adc.onADCRead = (channel) => {
      this.adcReads += 1;

      let address = 0;
      board.selectPins.forEach((pin, bit) => { if (gpio[pin].outputValue) address |= 1 << bit; });
      const input = board.adcPins.indexOf(26 + channel);
      const hole = input >= 0 ? board.channels[input][address] : null;
      let signal = 0;
      if (hole !== null && hole !== undefined) {
        const peak = board.garbage.has(hole) ? board.garbageCounts : board.noiseCounts;
        signal = Math.max(0, Math.min(65535, (board.field[hole] ?? 32768) + this.noise.next(peak)));
      }
      // The sample capacitor still holds the previous conversion's signal (firmware/sim.py).
      adc.currentChannel = channel;
      adc.channelValues[channel] = Math.min(ADC_FULL, this.lastSignal >> 4);
      this.lastSignal = signal;
      adc.sampleAlarm.schedule(adc.sampleTime * 1000);   // completes with channelValues[currentChannel]
    };
  }

  wireUsb() {
    const usb = this.mcu.usbCtrl;
    const cdc = new USBCDC(usb);
    this.cdc = cdc;
    cdc.onDeviceConnected = () => { this.configured = true; event({ ev: 'configured', ns: this.nanos }); };
    cdc.onSerialData = (data) => {
      if (this.torn) return;              // the power is gone: nothing more reaches the host
      const head = Buffer.alloc(8);
      head.writeDoubleLE(now(), 0);      // session time: it goes on across power cycles
      send('u', Buffer.concat([head, Buffer.from(data)]));
      // Frames end with their 0x00 delimiter: a packet ending in any other byte leaves one half sent.
      if (this.tearArmed && data.length && data[data.length - 1] !== 0) {
        this.torn = { ns: this.nanos, sent: data.length };
      }
    };
    // FACTS 2: answer an armed OUT endpoint only when the host has bytes; remember it otherwise.
    const answer = cdc.usb.onEndpointRead;
    usb.onEndpointRead = (endpoint, size) => {
      if (endpoint !== cdc.outEndpoint) return answer(endpoint, size);
      this.pendingRead = size;
      this.feed();
    };
    // FACTS 1: start-of-frame every 1 ms from the bus reset on; reading SOF_RD clears it.
    const onReset = usb.onResetReceived;
    usb.onResetReceived = () => {
      onReset();
      if (!this.sofAlarm) {
        this.sofAlarm = this.mcu.clock.createAlarm(() => this.startOfFrame());
        this.sofAlarm.schedule(1000000);
      }
    };
    const read = usb.readUint32.bind(usb);
    usb.readUint32 = (offset) => {
      if (offset === USB_SOF_RD) { usb.intRaw &= ~INTR_DEV_SOF; usb.checkInterrupts(); }
      return read(offset);
    };
  }

  // The host resets the bus and enumerates the device again (a hub or host controller
  // recovering, a Pi's USB reset): the device sees a bus reset, loses what its CDC buffers
  // held and waits for the host to set it up afresh; the program goes on running.
  busReset() {
    const { cdc } = this;
    Object.assign(cdc, { initialized: false, descriptorsSize: null, descriptors: [], inEndpoint: -1, outEndpoint: -1 });
    this.configured = false;
    this.pendingRead = 0;
    this.hostQueue = [];                  // the host's tty went with the old enumeration
    this.mcu.usbCtrl.resetDevice();
  }

  startOfFrame() {
    const usb = this.mcu.usbCtrl;
    usb.sofFrameNumber = (usb.sofFrameNumber + 1) & 0x7ff;
    if (usb.intEnable & INTR_DEV_SOF) {
      usb.intRaw |= INTR_DEV_SOF;
      usb.checkInterrupts();
    }
    this.sofAlarm.schedule(1000000);
  }

  hostSend(bytes) {
    for (const byte of bytes) this.hostQueue.push(byte);
    this.feed();
  }

  feed() {
    if (!this.pendingRead || !this.hostQueue.length || this.cdc.outEndpoint < 0) return;
    const data = Uint8Array.from(this.hostQueue.splice(0, this.pendingRead));
    this.pendingRead = 0;
    this.mcu.usbCtrl.endpointReadDone(this.cdc.outEndpoint, data);
  }

  // FACTS 4: the bootrom's flash erase and program, done on the flash array; they return at once.
  flashHook(pc) {
    const { core, flash } = this.mcu;
    const [r0, r1, r2] = [core.registers[0] >>> 0, core.registers[1] >>> 0, core.registers[2] >>> 0];
    if (pc === this.eraseAt) {
      flash.fill(0xff, r0, r0 + r1);
    } else {
      for (let i = 0; i < r2; i++) flash[r0 + i] &= this.mcu.readUint8(r1 + i);
    }
    core.PC = core.registers[14] & ~1;
  }

  // Run until emulated time `untilNs`; returns early if the watchdog bit or the power was cut.
  run(untilNs) {
    const { core, clock } = this.mcu;
    const { eraseAt, programAt } = this;
    while (clock.nanos < untilNs && !this.bitten && !this.torn) {
      if (core.waiting) {
        const next = clock.nanosToNextAlarm;
        const left = untilNs - clock.nanos;
        clock.tick(next > 0 && next < left ? next : left);
        continue;
      }
      for (let i = 0; i < 2000 && !core.waiting && !this.torn; i++) {
        const pc = core.PC;
        if (pc === eraseAt || pc === programAt) this.flashHook(pc);
        const cycles = core.executeInstruction();
        this.busyCycles += cycles;
        clock.tick(cycles * CYCLE_NS);
      }
    }
  }

  filesystem() {
    return Buffer.from(this.mcu.flash.subarray(FLASH_FS_OFFSET, FLASH_FS_OFFSET + FLASH_FS_BYTES));
  }
}

// -------------------------------------------------------------------------- the session and pacing

const session = {
  image: null,
  chip: null,
  speed: 0,              // 0: batch (run commands); > 0: free running at this fraction of wall time
  baseNs: 0,             // emulated time of earlier power-ons (time goes on across resets)
  wallStart: 0,
  emuStart: 0,
  timer: null,
  schedule: [],          // [{atNs, apply}] applied at exact emulated instants
  resets: 0,             // watchdog resets so far
};

const now = () => session.baseNs + (session.chip ? session.chip.nanos : 0);

function powerOn(options) {
  session.chip = new Chip(session.image, options);
  event({ ev: 'power', on: true, ns: now() });
}

function powerOff() {
  if (!session.chip) return;
  session.image.filesystem = session.chip.filesystem();   // FACTS 6: flash survives
  session.baseNs += session.chip.nanos;
  session.chip = null;
  event({ ev: 'power', on: false, ns: now() });
}

// Run the chip up to `targetNs` (session time), applying scheduled stimuli on the way.
function advance(targetNs) {
  while (session.chip && now() < targetNs) {
    session.schedule.sort((a, b) => a.atNs - b.atNs);
    const due = session.schedule.length && session.schedule[0].atNs < targetNs ? session.schedule[0].atNs : targetNs;
    session.chip.run(due - session.baseNs);
    while (session.schedule.length && session.schedule[0].atNs <= now()) session.schedule.shift().apply();
    if (session.chip && session.chip.bitten) watchdogReset();
    if (session.chip && session.chip.torn) brownOut();
  }
}

// A watchdog reset (a bite, or machine.reset()): the chip starts again, the watchdog's REASON
// kept, as on the RP2040; USB re-enumerates.
function watchdogReset() {
  const { seed } = session.chip.options;
  const reason = session.chip.bitten;
  const scratch = Uint32Array.from(session.chip.mcu.peripherals[WATCHDOG_BASE].scratchData);
  session.resets += 1;
  event({ ev: 'watchdog', ns: now(), reason });
  powerOff();
  powerOn({ seed: (seed ?? 1) + 1, watchdogReason: reason, scratch });
}

// A brown-out in the middle of a frame: the power went the instant after a USB packet that
// left a frame half sent. It stays off until a 'power' command brings it back.
function brownOut() {
  const { ns, sent } = session.chip.torn;
  event({ ev: 'brownout', ns: session.baseNs + ns, sent });
  powerOff();
}

function stats() {
  const chip = session.chip;
  return { ns: now(), busy_cycles: chip ? chip.busyCycles : 0, adc_reads: chip ? chip.adcReads : 0,
    powered: !!chip, configured: chip ? chip.configured : false, resets: session.resets };
}

function freeRun() {
  session.timer = null;
  if (!session.speed) return;
  if (!session.chip) {                  // powered off: time stands still until power comes back
    session.timer = setTimeout(freeRun, 10);
    return;
  }
  const started = Date.now();
  const target = session.emuStart + (started - session.wallStart) * 1e6 * session.speed;
  // Never run ahead of the wall clock (FACTS 7); slices of at most 20 ms emulated keep the pty answering.
  advance(Math.min(target, now() + 20e6));
  if (now() < target - 200e6) {         // fallen far behind: do not try to catch up in a burst
    session.emuStart = now();
    session.wallStart = Date.now();
  }
  session.timer = setTimeout(freeRun, now() >= target ? 2 : 0);
}

function setField(fields) {
  if (fields.field) board.field = fields.field;
  if (fields.garbage) board.garbage = new Set(fields.garbage);
  if (fields.noise_counts !== undefined) board.noiseCounts = fields.noise_counts;
}

function setPins(levels) {
  for (const [pin, level] of Object.entries(levels)) session.chip?.mcu.gpio[Number(pin)].setInputValue(!!level);
}

function applyStep(step) {
  setField(step);
  setPins(step.pins ?? {});
  if (step.usb) session.chip?.hostSend(Buffer.from(step.usb, 'hex'));
}

const commands = {
  boot(c) {
    const bootrom = fs.readFileSync(c.bootrom);
    session.image = {
      uf2: fs.readFileSync(c.uf2),
      bootrom: new Uint32Array(bootrom.buffer, bootrom.byteOffset, bootrom.length / 4),
      filesystem: fs.readFileSync(c.filesystem),
    };
    Object.assign(board, { selectPins: c.select_pins, adcPins: c.adc_pins, channels: c.channels });
    setField(c);
    session.speed = c.speed ?? 0;
    powerOn({ seed: c.seed ?? 1 });
    this.pins({ levels: c.pins ?? {} });
    return stats();
  },
  run(c) { advance(now() + c.ms * 1e6); return stats(); },
  stats() { return stats(); },
  field(c) { setField(c); return {}; },
  pins(c) { setPins(c.levels); return {}; },
  // Stimuli at exact emulated instants: [{after_ms, field?, garbage?, pins?, usb?}], relative to now.
  schedule(c) {
    const start = now();
    for (const step of c.steps) {
      session.schedule.push({ atNs: start + step.after_ms * 1e6, apply: () => applyStep(step) });
    }
    return { ns: start };
  },
  power(c) {
    if (c.on) { if (!session.chip) powerOn({ seed: c.seed ?? 1 }); this.pins({ levels: c.pins ?? {} }); }
    else powerOff();
    return stats();
  },
  // Arm a brown-out: the power is cut right after the next USB packet that ends inside a frame.
  tear() { if (!session.chip) throw new Error('the chip is off'); session.chip.tearArmed = true; return {}; },
  bus_reset() {
    if (!session.chip) throw new Error('the chip is off');
    event({ ev: 'bus_reset', ns: now() });
    session.chip.busReset();
    return stats();
  },
  pace(c) {
    session.speed = c.speed;
    session.emuStart = now();
    session.wallStart = Date.now();
    if (session.speed && !session.timer) session.timer = setTimeout(freeRun, 0);
    return stats();
  },
  quit() { process.exit(0); },
};

// ------------------------------------------------------------------------------------ input loop

let pending = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  while (pending.length >= 5) {
    const length = pending.readUInt32LE(1);
    if (pending.length < 5 + length) break;
    const type = String.fromCharCode(pending[0]);
    const payload = pending.subarray(5, 5 + length);
    pending = pending.subarray(5 + length);
    if (type === 'u') {
      session.chip?.hostSend(payload);
    } else {
      const command = JSON.parse(payload.toString());
      try {
        event({ reply: command.op, ...commands[command.op](command) });
      } catch (error) {
        event({ reply: command.op, error: String(error.stack ?? error) });
      }
    }
  }
});
process.stdin.on('end', () => process.exit(0));
